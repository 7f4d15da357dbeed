package io.trigrep.frontend.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tee buffers its appends, yet every frame reads back the moment it was appended, and the file holds them all. */
class TeeFileTest {
    @Test
    void everyFrameReadsBackAtItsOffsetWhetherBufferedOrOnDisk(@TempDir Path dir) throws Exception {
        Random random = new Random(7);
        List<byte[]> frames = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        Path path = dir.resolve("q.tee");
        try (TeeFile tee = new TeeFile(path)) {
            long expectedEnd = 0;
            for (int i = 0; i < 3000; i++) {
                // mostly small frames, some larger than the whole buffer
                int length = i % 500 == 499 ? 100_000 + random.nextInt(50_000) : 1 + random.nextInt(300);
                byte[] frame = new byte[length];
                random.nextBytes(frame);
                long offset = tee.append(ByteBuffer.wrap(frame));
                assertThat(offset).isEqualTo(expectedEnd);
                expectedEnd += length;
                frames.add(frame);
                offsets.add(offset);
                // read the newest frame (still buffered) and an older one (on disk) at once
                assertThat(bytes(tee.read(offset, length))).isEqualTo(frame);
                int old = random.nextInt(frames.size());
                assertThat(bytes(tee.read(offsets.get(old), frames.get(old).length))).isEqualTo(frames.get(old));
                assertThat(tee.size()).isEqualTo(expectedEnd);
            }
            tee.finish();
            assertThat(Files.size(path)).isEqualTo(expectedEnd);
            // appends after finish still work (a cancelled query's stragglers)
            long offset = tee.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            assertThat(bytes(tee.read(offset, 3))).containsExactly(1, 2, 3);
        }
        byte[] all = Files.readAllBytes(path);
        for (int i = 0; i < frames.size(); i++) {
            byte[] onDisk = java.util.Arrays.copyOfRange(all, Math.toIntExact(offsets.get(i)), Math.toIntExact(offsets.get(i)) + frames.get(i).length);
            assertThat(onDisk).isEqualTo(frames.get(i));
        }
        assertThat(all).hasSize(Math.toIntExact(offsets.get(frames.size() - 1) + frames.get(frames.size() - 1).length + 3));
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
