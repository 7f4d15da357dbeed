package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The file system's alignment within bounds, and a direct channel that writes aligned runs (or none at all). */
class DirectIoTest {
    @TempDir
    Path dir;

    @Test
    void alignmentIsTheBlockSizeWithinBoundsElse4096() throws Exception {
        long block = Files.getFileStore(dir).getBlockSize();
        int expected = block >= 4096 && block <= 1 << 20 && Long.bitCount(block) == 1 ? (int) block : 4096;
        assertThat(DirectIo.alignment(dir, 1 << 20)).isEqualTo(expected);
        assertThat(DirectIo.alignment(dir, 2048)).as("over the caller's bound").isEqualTo(4096);
        assertThat(DirectIo.alignment(dir.resolve("missing"), 1 << 20))
                .as("unknown: the safe default")
                .isEqualTo(4096);
    }

    @Test
    void aDirectChannelWritesAlignedRunsOrIsNone() throws Exception {
        Path file = Files.createFile(dir.resolve("f"));
        assertThat(DirectIo.openForWrites(dir.resolve("missing")))
                .as("no such file")
                .isNull();
        FileChannel direct = DirectIo.openForWrites(file);
        if (direct == null) {
            return; // this file system refuses O_DIRECT: callers write through the page cache
        }
        int align = DirectIo.alignment(dir, 1 << 20);
        ByteBuffer run =
                ByteBuffer.allocateDirect(2 * align).alignedSlice(align).limit(align);
        for (int i = 0; i < align; i++) {
            run.put(i, (byte) i);
        }
        try (direct) {
            while (run.hasRemaining()) {
                direct.write(run, run.position());
            }
        }
        byte[] back = Files.readAllBytes(file);
        assertThat(back).hasSize(align);
        for (int i = 0; i < align; i++) {
            assertThat(back[i]).isEqualTo((byte) i);
        }
    }
}
