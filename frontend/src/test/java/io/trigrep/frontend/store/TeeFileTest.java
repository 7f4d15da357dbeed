package io.trigrep.frontend.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The tee buffers its appends, yet every frame reads back the moment it was appended, and the file
 * holds them all, whether full buffers bypass the page cache or not.
 */
class TeeFileTest {
    @ParameterizedTest(name = "direct I/O wanted: {0}, writes on a pool: {1}")
    @CsvSource({"true, true", "true, false", "false, true", "false, false"})
    void everyFrameReadsBackAtItsOffsetWhetherBufferedOrOnDisk(boolean direct, boolean pooled, @TempDir Path dir) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(TeeFile.DEPTH);
        try {
            check(direct, pooled ? pool : Runnable::run, dir);
        } finally {
            pool.shutdownNow();
        }
    }

    /** A query is started on an event loop: making its tee must not touch the disk, and a tee never written leaves no file. */
    @org.junit.jupiter.api.Test
    void aTeeIsCreatedOnDiskByItsFirstAppendOnly(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("q.tee");
        TeeFile empty = new TeeFile(path, Runnable::run, true);
        assertThat(path).doesNotExist();
        empty.finish();
        assertThat(empty.read(0, 0).remaining()).isZero();
        empty.delete();
        assertThat(path).doesNotExist();

        TeeFile one = new TeeFile(path, Runnable::run, true);
        one.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        assertThat(path).exists();
        one.finish();
        assertThat(Files.size(path)).as("the tail is written as is, not padded to a block").isEqualTo(3);
        assertThat(bytes(one.read(1, 2))).containsExactly(2, 3);
        one.delete();
        assertThat(path).doesNotExist();
    }

    private static void check(boolean direct, Executor io, Path dir) throws Exception {
        Random random = new Random(7);
        List<byte[]> frames = new ArrayList<>();
        List<Long> offsets = new ArrayList<>();
        Path path = dir.resolve("q.tee");
        try (TeeFile tee = new TeeFile(path, io, direct)) {
            assertThat(path).as("no file before the first append").doesNotExist();
            long expectedEnd = 0;
            for (int i = 0; i < 6000; i++) {
                // mostly small frames, some larger than a quarter of the buffer, some larger than all of it
                int length = i % 1000 == 999 ? (1 << 20) + random.nextInt(1 << 19)
                        : i % 500 == 499 ? 100_000 + random.nextInt(50_000) : 1 + random.nextInt(300);
                byte[] frame = appendRandom(tee, random, length, frames, offsets);
                long offset = offsets.get(offsets.size() - 1);
                expectedEnd += length;
                if (i % 8 != 0) {
                    continue; // let buffers pile up in flight between reads
                }
                // read the newest frame (still buffered) and an older one (on disk or in flight) at once
                assertThat(bytes(tee.read(offset, length))).isEqualTo(frame);
                int old = random.nextInt(frames.size());
                assertThat(bytes(tee.read(offsets.get(old), frames.get(old).length))).isEqualTo(frames.get(old));
                assertThat(tee.size()).isEqualTo(expectedEnd);
            }
            String fileSystem = Files.getFileStore(dir).type();
            if (direct && List.of("ext4", "xfs", "btrfs").contains(fileSystem)) {
                assertThat(tee.direct()).as("direct I/O on " + fileSystem).isTrue();
            }
            if (!direct) {
                assertThat(tee.direct()).isFalse();
            }
            tee.finish();
            assertThat(Files.size(path)).isEqualTo(expectedEnd);
            for (int i = 0; i < frames.size(); i += 97) {
                assertThat(bytes(tee.read(offsets.get(i), frames.get(i).length))).isEqualTo(frames.get(i));
            }
            // appends after finish still work (a cancelled query's stragglers): the last partial
            // block comes back from the file, and a straggler larger than the buffer goes on after it
            for (int i = 0; i < 3; i++) {
                int length = i == 1 ? (1 << 20) + 4097 : 3 + i;
                byte[] frame = appendRandom(tee, random, length, frames, offsets);
                expectedEnd += length;
                assertThat(bytes(tee.read(offsets.get(offsets.size() - 1), length))).isEqualTo(frame);
                tee.finish();
                assertThat(Files.size(path)).isEqualTo(expectedEnd);
            }
        }
        byte[] all = Files.readAllBytes(path);
        for (int i = 0; i < frames.size(); i++) {
            byte[] onDisk = java.util.Arrays.copyOfRange(all, Math.toIntExact(offsets.get(i)), Math.toIntExact(offsets.get(i)) + frames.get(i).length);
            assertThat(onDisk).isEqualTo(frames.get(i));
        }
        assertThat(all).hasSize(Math.toIntExact(offsets.get(frames.size() - 1) + frames.get(frames.size() - 1).length));
    }

    /** Appends {@code length} random bytes, checks they went right after the frames before, and records them. */
    private static byte[] appendRandom(TeeFile tee, Random random, int length, List<byte[]> frames, List<Long> offsets) throws Exception {
        byte[] frame = new byte[length];
        random.nextBytes(frame);
        long expected = frames.isEmpty() ? 0 : offsets.get(offsets.size() - 1) + frames.get(frames.size() - 1).length;
        long offset = tee.append(ByteBuffer.wrap(frame));
        assertThat(offset).isEqualTo(expected);
        frames.add(frame);
        offsets.add(offset);
        return frame;
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
