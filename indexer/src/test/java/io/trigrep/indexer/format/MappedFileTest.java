package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files larger than one mapping: the same code path as a shard over 2 GiB, exercised with 4 KiB
 * chunks so every boundary case is cheap to reach.
 */
class MappedFileTest {
    @Test
    void spansAcrossChunkBoundariesReadCorrectly(@TempDir Path dir) throws Exception {
        byte[] bytes = new byte[50_000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 31 + (i >>> 8));
        }
        Path file = dir.resolve("f");
        Files.write(file, bytes);
        MappedFile mapped = MappedFile.open(file, 4096, 1024);
        assertThat(mapped.size()).isEqualTo(bytes.length);
        for (long offset = 0; offset + 1024 <= bytes.length; offset += 997) {
            ByteBuffer slice = mapped.slice(offset, 1024);
            for (int i = 0; i < 1024; i++) {
                assertThat(slice.get(i)).isEqualTo(bytes[(int) offset + i]);
            }
            long expectedLong = ByteBuffer.wrap(bytes, (int) offset, 8)
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                    .getLong();
            assertThat(mapped.getLong(offset)).isEqualTo(expectedLong);
        }
        assertThat(mapped.slice(bytes.length - 10, 10).remaining()).isEqualTo(10);
        assertThatThrownBy(() -> mapped.slice(bytes.length - 10, 11))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("outside the file");
        assertThatThrownBy(() -> mapped.slice(0, 1025))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("limit");
        assertThatThrownBy(() -> mapped.getInt(-4)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void everyAccessorReadsTheRightChunkAndRefusesTheFileEnd(@TempDir Path dir) throws Exception {
        byte[] bytes = new byte[20_000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (i * 13 + (i >>> 7));
        }
        Path file = dir.resolve("g");
        Files.write(file, bytes);
        MappedFile mapped = MappedFile.open(file, 4096, 1024);
        ByteBuffer expected = ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (long offset : new long[] {0, 4092, 4093, 4096, 5119, 8190, 12_345, 19_996}) {
            assertThat(mapped.getInt(offset)).as("getInt(%d)", offset).isEqualTo(expected.getInt((int) offset));
            ByteBuffer chunk = mapped.bufferFor(offset, 4);
            long base = mapped.base(offset);
            assertThat(base).isEqualTo(offset / 4096 * 4096);
            assertThat(chunk.getInt((int) (offset - base))).isEqualTo(expected.getInt((int) offset));
        }
        assertThat(mapped.path()).isEqualTo(file);
        assertThat(mapped.getLong(bytes.length - 8)).isEqualTo(expected.getLong(bytes.length - 8));
        assertThatThrownBy(() -> mapped.getLong(bytes.length - 4))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessage(file + " at offset " + (bytes.length - 4)
                        + ": span of 8 bytes runs outside the file of 20000 bytes");
        assertThatThrownBy(() -> mapped.getInt(bytes.length - 3)).isInstanceOf(CorruptIndexException.class);
        assertThatThrownBy(() -> mapped.bufferFor(bytes.length - 3, 4)).isInstanceOf(CorruptIndexException.class);
        assertThatThrownBy(() -> mapped.bufferFor(0, 1025))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessage(file + " at offset 0: span of 1025 bytes exceeds the 1024-byte limit");
        assertThatThrownBy(() -> mapped.check(10, -1))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("span of -1 bytes");
        assertThat(mapped.slice(3000, 1024).get(1023)).isEqualTo(bytes[4023]);
        mapped.close();
    }

    @Test
    void closingReleasesTheMappingAtOnceAndLaterReadsThrow(@TempDir Path dir) throws Exception {
        Path maps = Path.of("/proc/self/maps");
        assumeTrue(Files.isReadable(maps), "needs Linux's /proc/self/maps");
        Path file = dir.resolve("mapped-" + System.nanoTime());
        Files.write(file, new byte[1 << 16]);
        MappedFile mapped = MappedFile.open(file, 4096, 1024);
        ByteBuffer handedOut = mapped.slice(100, 10);
        assertThat(handedOut.get(0)).isZero();
        assertThat(Files.readString(maps)).as("listed while it lives").contains(file.toString());

        mapped.close();
        mapped.close();

        assertThat(Files.readString(maps))
                .as("gone at once, not at the next collection")
                .doesNotContain(file.toString());
        assertThatThrownBy(() -> handedOut.get(0)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> mapped.getInt(0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void anEmptyFileMapsAndRefusesEveryRead(@TempDir Path dir) throws Exception {
        Path file = Files.createFile(dir.resolve("empty"));
        try (MappedFile mapped = MappedFile.open(file)) {
            assertThat(mapped.size()).isZero();
            assertThatThrownBy(() -> mapped.getInt(0)).isInstanceOf(CorruptIndexException.class);
        }
    }
}
