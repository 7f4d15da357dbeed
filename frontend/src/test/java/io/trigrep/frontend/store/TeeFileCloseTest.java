package io.trigrep.frontend.store;

import static io.trigrep.frontend.store.TeeFileTest.bytes;
import static io.trigrep.frontend.store.TeeFileTest.waiting;
import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trigrep.frontend.store.TeeFileTest.HeldWrites;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedByInterruptException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a tee ends: closed, deleted, after a failed write or on an interrupted thread. Whatever the
 * way, the buffered tail reaches the file or the failure is reported, the buffers' direct memory
 * is given back, no file descriptor stays open, and a deleted tee leaves no file.
 */
@Timeout(60) // a close that waits for a write nobody runs fails here instead of hanging
class TeeFileCloseTest {
    private static final int MIB = 1 << 20;
    /** Memory a freed 1 MiB buffer gives back, at least. */
    private static final int FREED = MIB / 2;

    /**
     * Runs each write at once on a thread whose interrupt is set, as a pool that is being shut
     * down does: the file channel refuses the write with {@link ClosedByInterruptException} (and
     * closes), a real write failure.
     */
    private static final Executor INTERRUPTED_WRITES = write -> {
        Thread.currentThread().interrupt();
        try {
            write.run();
        } finally {
            Thread.interrupted();
        }
    };

    @BeforeEach
    void linuxOnly() {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "open descriptors are read from /proc");
    }

    /** Bytes of tee buffers allocated and not yet freed in this JVM. */
    private static long teeBytes() {
        return TeeBuffers.allocatedBytes();
    }

    /** How many of this process's file descriptors refer to {@code path}, removed or not. */
    private static long descriptors(Path path) throws IOException {
        String file = path.toAbsolutePath().toString();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                        try {
                            String target = Files.readSymbolicLink(fd).toString();
                            return target.equals(file) || target.equals(file + " (deleted)");
                        } catch (IOException e) {
                            return false; // the descriptor Files.list used, closed meanwhile
                        }
                    })
                    .count();
        }
    }

    private static byte[] random(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void closeWritesTheTailFreesTheBuffersAndClosesTheFile(@TempDir Path dir) throws Exception {
        for (boolean direct : new boolean[] {true, false}) {
            Path path = dir.resolve("q" + direct + ".tee");
            byte[] appended = random(MIB + 3000, 1);
            long before = teeBytes();
            TeeFile tee = new TeeFile(path, Runnable::run, direct);
            tee.append(ByteBuffer.wrap(appended));
            long open = teeBytes();
            assertThat(open - before).as("a buffer in use").isGreaterThanOrEqualTo(MIB);
            assertThat(descriptors(path))
                    .as("one channel, and the direct one the full buffer opened")
                    .isEqualTo(direct ? 2 : 1);
            tee.close();
            assertThat(open - teeBytes()).as("the buffer freed").isGreaterThan(FREED);
            assertThat(descriptors(path)).as("reads and writes closed").isZero();
            assertThat(Files.readAllBytes(path))
                    .as("the tail written without finish")
                    .isEqualTo(appended);
            assertThatThrownBy(() -> tee.read(0, 10)).isInstanceOf(IOException.class);
            tee.delete();
            assertThat(path).doesNotExist();
        }
    }

    /**
     * A query whose results never fill a buffer opens its tee once: the direct channel waits for
     * the first full buffer. Each open was a system call on the query's path to its answer.
     */
    @Test
    void aTeeThatNeverFillsABufferOpensTheFileOnce(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("q.tee");
        try (TeeFile tee = new TeeFile(path, Runnable::run, true)) {
            byte[] small = random(5000, 4);
            tee.append(ByteBuffer.wrap(small));
            assertThat(descriptors(path)).as("one channel for reads and writes").isEqualTo(1);
            assertThat(tee.direct())
                    .as("no direct channel before a buffer fills")
                    .isFalse();
            tee.finish();
            assertThat(descriptors(path)).isEqualTo(1);
            assertThat(Files.readAllBytes(path)).isEqualTo(small);

            tee.append(ByteBuffer.wrap(random(MIB, 5)));
            String fileSystem = Files.getFileStore(dir).type();
            if (List.of("ext4", "xfs", "btrfs").contains(fileSystem)) {
                assertThat(tee.direct()).as("direct I/O on " + fileSystem).isTrue();
                assertThat(descriptors(path))
                        .as("the direct channel, opened by the full buffer")
                        .isEqualTo(2);
            }
            tee.finish();
            assertThat(Files.size(path)).isEqualTo(5000 + MIB);
            assertThat(bytes(tee.read(0, 5000))).isEqualTo(small);
        }
        assertThat(descriptors(path)).isZero();
    }

    @Test
    void deleteFreesTheBuffersClosesAndRemovesTheFileWithoutFinish(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("q.tee");
        long before = teeBytes();
        TeeFile tee = new TeeFile(path, Runnable::run, false);
        tee.append(ByteBuffer.wrap(random(MIB + 10, 2)));
        long open = teeBytes();
        assertThat(open - before).isGreaterThanOrEqualTo(MIB);
        tee.delete();
        assertThat(path).doesNotExist();
        assertThat(descriptors(path)).as("no descriptor of the removed file").isZero();
        assertThat(open - teeBytes()).isGreaterThan(FREED);
    }

    /** A file over the 32 MiB step is cut down before it is removed; the cuts end with the file gone. */
    @Test
    void aTeeLargerThanOneCutIsRemoved(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("q.tee");
        TeeFile tee = new TeeFile(path, Runnable::run, true);
        byte[] megabyte = random(MIB, 3);
        for (int i = 0; i < 32; i++) {
            tee.append(ByteBuffer.wrap(megabyte));
        }
        tee.append(ByteBuffer.wrap(megabyte, 0, 5));
        tee.finish();
        assertThat(Files.size(path)).isEqualTo(32L * MIB + 5);
        tee.delete();
        assertThat(path).doesNotExist();
        assertThat(descriptors(path)).isZero();
    }

    /** Every append after a finish allocates its buffer again; the buffers freed by the finishes do not count against the four. */
    @Test
    void appendsAfterManyFinishesDoNotWaitForWritesThatAreNotThere(@TempDir Path dir) throws Exception {
        HeldWrites io = new HeldWrites();
        try (TeeFile tee = new TeeFile(dir.resolve("q.tee"), io, false)) {
            try {
                for (int i = 0; i < TeeFile.DEPTH + 1; i++) {
                    tee.append(ByteBuffer.wrap(new byte[] {(byte) i}));
                    tee.finish();
                }
                byte[] megabyte = random(MIB, 4);
                // One write held: the writer goes on in a second buffer, it never waits for the write.
                FutureTask<Long> append = new FutureTask<>(() -> tee.append(ByteBuffer.wrap(megabyte)));
                Thread appender = new Thread(append, "appender");
                appender.setDaemon(true);
                appender.start();
                while (appender.isAlive()) {
                    assertThat(appender.getState())
                            .as("the appender waits for the held write")
                            .isNotEqualTo(Thread.State.WAITING);
                    Thread.onSpinWait();
                }
                assertThat(append.get()).isEqualTo(TeeFile.DEPTH + 1);
                tee.append(ByteBuffer.wrap(megabyte, 0, 10));
                assertThat(io.queued).hasSize(1);
                io.run(0);
                assertThat(bytes(tee.read(TeeFile.DEPTH + 1 + MIB, 10)))
                        .isEqualTo(java.util.Arrays.copyOf(megabyte, 10));
            } finally {
                io.runAll();
            }
        }
    }

    /** A write that fails on the I/O executor fails the append that handed it over, and every append after. */
    @Test
    void aWriteThatFailsDuringAnAppendFailsThatAppendAndTheNext(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("q.tee");
        TeeFile tee = new TeeFile(path, INTERRUPTED_WRITES, false);
        tee.append(ByteBuffer.wrap(new byte[100]));
        assertThatThrownBy(() -> tee.append(ByteBuffer.wrap(new byte[MIB])))
                .isInstanceOf(IOException.class)
                .hasRootCauseInstanceOf(ClosedByInterruptException.class);
        assertThatThrownBy(() -> tee.append(ByteBuffer.wrap(new byte[3])))
                .isInstanceOf(IOException.class)
                .hasRootCauseInstanceOf(ClosedByInterruptException.class);
        long open = teeBytes();
        tee.close();
        assertThat(descriptors(path)).isZero();
        assertThat(open - teeBytes()).isGreaterThan(FREED);
    }

    /** A write that fails while the writer goes on is reported by the next append and by finish; close still frees and closes all. */
    @Test
    void aWriteThatFailsInFlightFailsTheNextAppendAndFinishAndCloseReleasesAll(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("q.tee");
        HeldWrites io = new HeldWrites();
        TeeFile tee = new TeeFile(path, io, false);
        byte[] megabyte = random(MIB, 5);
        tee.append(ByteBuffer.wrap(megabyte));
        tee.append(ByteBuffer.wrap(megabyte, 0, 10)); // the first buffer held, the second in use
        assertThat(io.queued).hasSize(1);
        Thread.currentThread().interrupt();
        try {
            io.run(0);
        } finally {
            Thread.interrupted();
        }
        assertThatThrownBy(() -> tee.append(ByteBuffer.wrap(new byte[3])))
                .isInstanceOf(IOException.class)
                .hasRootCauseInstanceOf(ClosedByInterruptException.class);
        assertThatThrownBy(tee::finish)
                .as("the write's own failure, not one of writing the tail after it")
                .isInstanceOf(IOException.class)
                .hasRootCauseInstanceOf(ClosedByInterruptException.class);
        long open = teeBytes();
        assertThatThrownBy(tee::close).isInstanceOf(IOException.class);
        assertThat(open - teeBytes()).as("both buffers freed").isGreaterThan(MIB + FREED);
        assertThat(descriptors(path)).isZero();
        tee.delete();
        assertThat(path).doesNotExist();
    }

    /**
     * Returns once {@code thread}, interrupted, has taken the interrupt and waits again: its
     * interrupt status is clear and it waits (a thread that ends or never waits again fails the test).
     */
    private static void awaitWaitingAgain(Thread thread) throws InterruptedException {
        Thread.State state = eventuallyGet(thread.getName() + " waiting again, or ended", PATIENCE, () -> {
            Thread.State now = thread.getState();
            return now == Thread.State.TERMINATED || (now == Thread.State.WAITING && !thread.isInterrupted())
                    ? now
                    : null;
        });
        assertThat(state).as("%s waits again", thread.getName()).isEqualTo(Thread.State.WAITING);
    }

    /**
     * Closed on a thread that is interrupted while it waits for a write in flight, the tee gives
     * up the query (the tail is not written) but still waits for that write before freeing its
     * buffer, and the thread keeps its interrupt.
     */
    @Test
    void anInterruptedCloseStillWaitsForTheWriteInFlightAndKeepsTheInterrupt(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("q.tee");
        HeldWrites io = new HeldWrites();
        TeeFile tee = new TeeFile(path, io, false);
        try {
            byte[] megabyte = random(MIB, 6);
            tee.append(ByteBuffer.wrap(megabyte));
            tee.append(ByteBuffer.wrap(megabyte, 0, 10));
            Thread[] closer = new Thread[1];
            FutureTask<Boolean> close = waiting("closer", () -> {
                closer[0] = Thread.currentThread();
                assertThatThrownBy(tee::close).isInstanceOf(InterruptedIOException.class);
                return Thread.currentThread().isInterrupted();
            });
            closer[0].interrupt();
            awaitWaitingAgain(closer[0]);
            assertThat(close).as("the write is still in flight").isNotDone();
            io.run(0);
            assertThat(close.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .as("interrupt kept")
                    .isTrue();
            assertThat(descriptors(path)).isZero();
            assertThat(Files.readAllBytes(path)).isEqualTo(megabyte);
        } finally {
            io.runAll();
        }
    }

    /**
     * Deleted on an interrupted thread (a remover pool being shut down), the tee is removed all the
     * same and the thread keeps its interrupt. The file channel that cuts the file refuses to work
     * on an interrupted thread; the file was left behind before.
     */
    @Test
    void aTeeDeletedOnAnInterruptedThreadIsRemovedAndTheInterruptKept(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("q.tee");
        TeeFile tee = new TeeFile(path, Runnable::run, false);
        tee.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        tee.finish();
        Thread.currentThread().interrupt();
        try {
            tee.delete();
            assertThat(Thread.currentThread().isInterrupted())
                    .as("interrupt kept")
                    .isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(path).doesNotExist();
        assertThat(descriptors(path)).isZero();
    }

    /**
     * A delete interrupted while a write is in flight waits for that write before freeing its
     * buffer, removes the file and keeps the interrupt.
     */
    @Test
    void anInterruptedDeleteWaitsForTheWriteInFlightAndRemovesTheFile(@TempDir Path dir) throws Exception {
        Path path = dir.resolve("q.tee");
        HeldWrites io = new HeldWrites();
        TeeFile tee = new TeeFile(path, io, false);
        try {
            byte[] megabyte = random(MIB, 7);
            tee.append(ByteBuffer.wrap(megabyte));
            tee.append(ByteBuffer.wrap(megabyte, 0, 10));
            long open = teeBytes();
            Thread[] deleter = new Thread[1];
            FutureTask<Boolean> delete = waiting("deleter", () -> {
                deleter[0] = Thread.currentThread();
                tee.delete();
                return Thread.currentThread().isInterrupted();
            });
            deleter[0].interrupt();
            awaitWaitingAgain(deleter[0]);
            assertThat(delete).as("the write is still in flight").isNotDone();
            io.run(0);
            assertThat(delete.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .as("interrupt kept")
                    .isTrue();
            assertThat(path).doesNotExist();
            assertThat(descriptors(path)).isZero();
            assertThat(open - teeBytes()).as("both buffers freed").isGreaterThan(MIB + FREED);
        } finally {
            io.runAll();
        }
    }

    /**
     * A delete interrupted while it cuts a large file down (in a pause between cuts, or in the
     * cut after it) stops cutting, removes the file and keeps the interrupt.
     */
    @Test
    void aDeleteInterruptedBetweenCutsRemovesTheFileAndKeepsTheInterrupt(@TempDir Path dir) throws Exception {
        byte[] megabyte = random(MIB, 8);
        for (int attempt = 0; ; attempt++) {
            assertThat(attempt)
                    .as("the deleter was never seen pausing between cuts")
                    .isLessThan(5);
            Path path = dir.resolve("q" + attempt + ".tee");
            TeeFile tee = new TeeFile(path, Runnable::run, true);
            for (int i = 0; i < 64; i++) {
                tee.append(ByteBuffer.wrap(megabyte));
            }
            tee.append(ByteBuffer.wrap(megabyte, 0, 5));
            tee.finish();
            FutureTask<Boolean> delete = new FutureTask<>(() -> {
                tee.delete();
                return Thread.currentThread().isInterrupted();
            });
            Thread deleter = new Thread(delete, "deleter");
            deleter.setDaemon(true);
            deleter.start();
            // Two cuts, each followed by a pause: the only time the deleter waits.
            while (deleter.isAlive() && deleter.getState() != Thread.State.TIMED_WAITING) {
                Thread.sleep(1);
            }
            if (!deleter.isAlive()) {
                delete.get(); // removed before it was seen pausing: try again
                assertThat(path).doesNotExist();
                continue;
            }
            deleter.interrupt();
            assertThat(delete.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .as("interrupt kept")
                    .isTrue();
            assertThat(path).doesNotExist();
            assertThat(descriptors(path)).isZero();
            return;
        }
    }
}
