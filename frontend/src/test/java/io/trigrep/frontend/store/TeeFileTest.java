package io.trigrep.frontend.store;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
    void everyFrameReadsBackAtItsOffsetWhetherBufferedOrOnDisk(boolean direct, boolean pooled, @TempDir Path dir)
            throws Exception {
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
        assertThat(empty.path()).isEqualTo(path);
        assertThat(path).doesNotExist();
        empty.finish();
        assertThat(empty.read(0, 0).remaining()).isZero();
        empty.delete();
        assertThat(path).doesNotExist();

        TeeFile one = new TeeFile(path, Runnable::run, true);
        one.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        assertThat(path).exists();
        one.finish();
        assertThat(Files.size(path))
                .as("the tail is written as is, not padded to a block")
                .isEqualTo(3);
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
                int length = i % 1000 == 999
                        ? (1 << 20) + random.nextInt(1 << 19)
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
                assertThat(bytes(tee.read(offsets.get(old), frames.get(old).length)))
                        .isEqualTo(frames.get(old));
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
                assertThat(bytes(tee.read(offsets.get(i), frames.get(i).length)))
                        .isEqualTo(frames.get(i));
            }
            // appends after finish still work (a cancelled query's stragglers): the last partial
            // block comes back from the file, and a straggler larger than the buffer goes on after it
            for (int i = 0; i < 3; i++) {
                int length = i == 1 ? (1 << 20) + 4097 : 3 + i;
                byte[] frame = appendRandom(tee, random, length, frames, offsets);
                expectedEnd += length;
                assertThat(bytes(tee.read(offsets.get(offsets.size() - 1), length)))
                        .isEqualTo(frame);
                tee.finish();
                assertThat(Files.size(path)).isEqualTo(expectedEnd);
            }
        }
        byte[] all = Files.readAllBytes(path);
        for (int i = 0; i < frames.size(); i++) {
            byte[] onDisk = java.util.Arrays.copyOfRange(
                    all, Math.toIntExact(offsets.get(i)), Math.toIntExact(offsets.get(i)) + frames.get(i).length);
            assertThat(onDisk).isEqualTo(frames.get(i));
        }
        assertThat(all).hasSize(Math.toIntExact(offsets.get(frames.size() - 1) + frames.get(frames.size() - 1).length));
    }

    /** Appends {@code length} random bytes, checks they went right after the frames before, and records them. */
    private static byte[] appendRandom(TeeFile tee, Random random, int length, List<byte[]> frames, List<Long> offsets)
            throws Exception {
        byte[] frame = new byte[length];
        random.nextBytes(frame);
        long expected = frames.isEmpty() ? 0 : offsets.get(offsets.size() - 1) + frames.get(frames.size() - 1).length;
        long offset = tee.append(ByteBuffer.wrap(frame));
        assertThat(offset).isEqualTo(expected);
        frames.add(frame);
        offsets.add(offset);
        return frame;
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    @Test
    void alignmentMustBeAPowerOfTwoFrom512ToTheBufferSize(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("q.tee");
        for (int bad : new int[] {-4096, 1, 256, 511, 513, 3000, 4097, 2 << 20}) {
            assertThatThrownBy(() -> new TeeFile(path, Runnable::run, true, bad, new TeeBuffers(2)))
                    .as("alignment %d", bad)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        for (int good : new int[] {512, 4096, 1 << 20}) {
            TeeFile tee = new TeeFile(path, Runnable::run, true, good, new TeeBuffers(2));
            tee.append(ByteBuffer.wrap(new byte[] {4, 5}));
            tee.finish();
            assertThat(bytes(tee.read(0, 2))).containsExactly(4, 5);
            tee.delete();
        }
    }

    @Test
    void directAlignmentIsTheBlockSizeWithinBoundsElse4096(@TempDir Path dir) throws Exception {
        long block = Files.getFileStore(dir).getBlockSize();
        int expected = block >= 4096 && block <= 1 << 20 && Long.bitCount(block) == 1 ? (int) block : 4096;
        assertThat(TeeFile.directAlignment(dir)).isEqualTo(expected);
        assertThat(TeeFile.directAlignment(dir.resolve("missing")))
                .as("unknown: the safe default")
                .isEqualTo(4096);
    }

    @Test
    void aReadOutsideTheAppendedBytesIsRefused(@TempDir Path dir) throws Exception {
        try (TeeFile tee = new TeeFile(dir.resolve("q.tee"), Runnable::run, false)) {
            tee.append(ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
            assertThat(bytes(tee.read(0, 4))).containsExactly(1, 2, 3, 4);
            assertThat(bytes(tee.read(4, 0))).isEmpty();
            assertThatThrownBy(() -> tee.read(1, 4)).isInstanceOf(java.io.EOFException.class);
            assertThatThrownBy(() -> tee.read(-1, 1)).isInstanceOf(java.io.EOFException.class);
            assertThatThrownBy(() -> tee.read(0, -1)).isInstanceOf(java.io.EOFException.class);
            assertThatThrownBy(() -> tee.read(5, 0)).isInstanceOf(java.io.EOFException.class);
        }
    }

    /** Writes handed to the I/O executor, run only when the test says. */
    static final class HeldWrites implements Executor {
        final LinkedBlockingQueue<Runnable> queued = new LinkedBlockingQueue<>();

        @Override
        public void execute(Runnable write) {
            queued.add(write);
        }

        /** Runs every write still queued: a test that fails midway must not leave its tee waiting for them on close. */
        void runAll() {
            for (Runnable write; (write = queued.poll()) != null; ) {
                write.run();
            }
        }

        /** Runs the {@code i}th of the writes still queued. */
        void run(int i) {
            Runnable write = new ArrayList<>(queued).get(i);
            queued.remove(write);
            write.run();
        }
    }

    /** Starts {@code task} on a thread of its own and returns once that thread waits for the disk (it fails if it never does). */
    static <T> FutureTask<T> waiting(String name, java.util.concurrent.Callable<T> call) throws InterruptedException {
        FutureTask<T> task = new FutureTask<>(call);
        Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        thread.start();
        Thread.State state = eventuallyGet(name + " waiting for the disk, or ended", PATIENCE, () -> {
            Thread.State now = thread.getState();
            return now == Thread.State.WAITING || now == Thread.State.TERMINATED ? now : null;
        });
        assertThat(state).as("%s waits for the disk", name).isEqualTo(Thread.State.WAITING);
        return task;
    }

    @Test
    @Timeout(60)
    void theWriterWaitsWhileFourBuffersAreInFlightAndReadsPastTheFirstUnfinishedWriteWaitForThem(@TempDir Path dir)
            throws Exception {
        HeldWrites io = new HeldWrites();
        Random random = new Random(13);
        byte[][] megabytes = new byte[4][1 << 20];
        for (byte[] m : megabytes) {
            random.nextBytes(m);
        }
        try (TeeFile tee = new TeeFile(dir.resolve("q.tee"), io, false)) {
            try {
                FutureTask<Long> appends = waiting("appender", () -> {
                    long last = -1;
                    for (byte[] m : megabytes) {
                        last = tee.append(ByteBuffer.wrap(m));
                    }
                    return last;
                });
                assertThat(io.queued)
                        .as("four full buffers in flight, the writer waits for one")
                        .hasSize(4);
                assertThat(appends).isNotDone();
                io.run(0);
                assertThat(appends.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(3L << 20);
                assertThat(tee.size()).isEqualTo(4L << 20);
                assertThat(bytes(tee.read(100, 1000)))
                        .as("below the first write in flight: read from the file at once")
                        .isEqualTo(java.util.Arrays.copyOfRange(megabytes[0], 100, 1100));
                tee.append(ByteBuffer.wrap(megabytes[0], 0, 2000)); // buffered, after the four in flight or written
                io.run(2); // the last buffer's write ends first: the second's bytes are still not in the file
                // A read reaching past the first unfinished write waits for all of them; this one ends in the buffer.
                FutureTask<ByteBuffer> read = waiting("reader", () -> tee.read((4L << 20) - 500, 1000));
                assertThat(read).isNotDone();
                io.run(0);
                assertThat(read).as("waits for every write in flight").isNotDone();
                io.run(0);
                byte[] expected = new byte[1000];
                System.arraycopy(megabytes[3], (1 << 20) - 500, expected, 0, 500);
                System.arraycopy(megabytes[0], 0, expected, 500, 500);
                assertThat(bytes(read.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)))
                        .isEqualTo(expected);
                assertThat(io.queued).isEmpty();
                tee.finish();
                assertThat(Files.size(dir.resolve("q.tee"))).isEqualTo((4L << 20) + 2000);
                assertThat(bytes(tee.read((1L << 20) + 500, 1000)))
                        .isEqualTo(java.util.Arrays.copyOfRange(megabytes[1], 500, 1500));
            } finally {
                io.runAll();
            }
        }
    }

    /** A read that ends in the file, past the writes' flushed mark, waits for them and reads the file alone (it threw once). */
    @Test
    @Timeout(60)
    void aReadEndingBelowTheBufferAfterWaitingReadsTheFileAlone(@TempDir Path dir) throws Exception {
        HeldWrites io = new HeldWrites();
        byte[] megabyte = new byte[1 << 20];
        new Random(7).nextBytes(megabyte);
        try (TeeFile tee = new TeeFile(dir.resolve("q.tee"), io, false)) {
            try {
                tee.append(ByteBuffer.wrap(megabyte));
                tee.append(ByteBuffer.wrap(megabyte, 0, 100)); // the first buffer is handed to the held writes
                assertThat(io.queued).hasSize(1);
                FutureTask<ByteBuffer> read = waiting("reader", () -> tee.read(1000, 2000));
                io.run(0);
                assertThat(bytes(read.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)))
                        .isEqualTo(java.util.Arrays.copyOfRange(megabyte, 1000, 3000));
            } finally {
                io.runAll();
            }
        }
    }

    /** Once the first of two writes in flight ended, the file holds its bytes for good, and the second's bytes are still awaited. */
    @Test
    @Timeout(60)
    void aReadInAWriteStillInFlightWaitsForItAfterAnEarlierWriteEnded(@TempDir Path dir) throws Exception {
        HeldWrites io = new HeldWrites();
        byte[][] megabytes = {new byte[1 << 20], new byte[1 << 20]};
        new Random(17).nextBytes(megabytes[0]);
        new Random(19).nextBytes(megabytes[1]);
        try (TeeFile tee = new TeeFile(dir.resolve("q.tee"), io, false)) {
            try {
                tee.append(ByteBuffer.wrap(megabytes[0]));
                tee.append(ByteBuffer.wrap(megabytes[1]));
                tee.append(ByteBuffer.wrap(new byte[] {9, 9, 9}));
                assertThat(io.queued).hasSize(2);
                io.run(0);
                assertThat(bytes(tee.read(100, 100)))
                        .as("in the ended write: read from the file at once")
                        .isEqualTo(java.util.Arrays.copyOfRange(megabytes[0], 100, 200));
                FutureTask<ByteBuffer> read = waiting("reader", () -> tee.read((1 << 20) + 100, 100));
                assertThat(read).isNotDone();
                io.run(0);
                assertThat(bytes(read.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)))
                        .isEqualTo(java.util.Arrays.copyOfRange(megabytes[1], 100, 200));
            } finally {
                io.runAll();
            }
        }
    }

    /**
     * The buffers a finish freed are gone for good: appends after it, with writes in flight,
     * fill buffers of their own and every byte reaches the file.
     */
    @Test
    @Timeout(60)
    void appendsAfterAFinishWithWritesInFlightUseNoFreedBuffer(@TempDir Path dir) throws Exception {
        HeldWrites io = new HeldWrites();
        Random random = new Random(23);
        Path path = dir.resolve("q.tee");
        java.io.ByteArrayOutputStream appended = new java.io.ByteArrayOutputStream();
        try (TeeFile tee = new TeeFile(path, io, false)) {
            try {
                for (int round = 0; round < 3; round++) {
                    for (int i = 0; i < 3; i++) {
                        byte[] frame = new byte[i == 2 ? 10 : 1 << 20];
                        random.nextBytes(frame);
                        tee.append(ByteBuffer.wrap(frame));
                        appended.write(frame);
                    }
                    io.runAll(); // the full buffers written: spare until the finish frees them
                    tee.finish();
                }
            } finally {
                io.runAll();
            }
        }
        assertThat(Files.readAllBytes(path)).isEqualTo(appended.toByteArray());
    }
}
