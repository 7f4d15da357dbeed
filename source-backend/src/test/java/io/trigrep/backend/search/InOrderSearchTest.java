package io.trigrep.backend.search;

import static io.trigrep.testing.Eventually.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.trigrep.backend.TestShards;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.Done;
import io.trigrep.proto.FileResultsIndex;
import io.trigrep.proto.LineMatch;
import io.trigrep.proto.RecordingAllocator;
import io.trigrep.proto.Result;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.QueryParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several tasks searching in order send what one task sends: the same results in the same order,
 * cut at the same place by the cap, however the tasks race, however small their pieces, however
 * often the reader stalls; and every buffer they allocated is released.
 */
class InOrderSearchTest {
    /** A search deadline none of these searches meets: only the cap, a cancel or the end stops one. */
    private static final long SEARCH_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);

    @TempDir
    static Path dir;

    static Shard shard;
    static ExecutorService pool;

    private static final String[] WORDS = {
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu"
    };

    @BeforeAll
    static void build() throws Exception {
        Random random = new Random(42);
        Path corpus = dir.resolve("corpus");
        for (int pkg = 0; pkg < 4; pkg++) {
            Path src = Files.createDirectories(corpus.resolve("pkg" + pkg + "_1.0/src"));
            for (int file = 0; file < 150; file++) {
                // Mostly small files, a few of several hundred kilobytes: pieces then end inside a file.
                int lines = file % 50 == 7 ? 12_000 + random.nextInt(4_000) : 1 + random.nextInt(120);
                StringBuilder text = new StringBuilder();
                for (int line = 0; line < lines; line++) {
                    int words = random.nextInt(9);
                    for (int w = 0; w < words; w++) {
                        text.append(WORDS[(int) Math.min(WORDS.length - 1, Math.abs(random.nextGaussian()) * 4)])
                                .append(' ');
                    }
                    if (random.nextInt(500) == 0) {
                        text.append("needle");
                    }
                    text.append('\n');
                }
                Files.writeString(src.resolve("f" + file + ".c"), text);
            }
        }
        shard = TestShards.build(corpus, dir.resolve("index"), 1).get(0);
        pool = Executors.newFixedThreadPool(4);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
        EVENT_LOOP.shutdownNow();
    }

    /** Where a blipping sink's resumes run, as a channel's writability events run on its event loop. */
    static final ExecutorService EVENT_LOOP = Executors.newSingleThreadExecutor();

    /** What a stream held: each match as "package/path:line ranking", then how it ended. */
    record Answer(List<String> matches, long results, Done.Truncation truncation) {}

    /** Takes the frames, decodes them, and may stall after a write as a slow reader does. */
    static final class Sink implements io.trigrep.backend.search.FrameSink {
        final RecordingAllocator allocator;
        final List<String> matches = new ArrayList<>();
        final Random stalls;
        volatile boolean writable = true;
        volatile boolean ended;
        long results = -1;
        Done.Truncation truncation;
        String error;
        /** When set, one look in five finds the sink full for an instant: it drains at once, and resumes the search from another thread, as an event loop would. */
        Random blips;

        volatile SearchExecution execution;

        Sink(Random stalls) {
            this(stalls, new RecordingAllocator());
        }

        Sink(Random stalls, RecordingAllocator allocator) {
            this.stalls = stalls;
            this.allocator = allocator;
        }

        @Override
        public boolean isWritable() {
            if (blips != null) {
                boolean blip;
                synchronized (blips) {
                    blip = blips.nextInt(5) == 0;
                }
                if (blip) {
                    CompletableFuture.runAsync(() -> execution.resume(), EVENT_LOOP);
                    return false;
                }
            }
            return writable;
        }

        @Override
        public synchronized void write(ByteBuf frames) {
            read(frames);
            if (stalls != null && stalls.nextInt(3) == 0) {
                writable = false;
            }
        }

        @Override
        public synchronized void finish(ByteBuf frames) {
            read(frames);
            ended = true;
        }

        private void read(ByteBuf frames) {
            SinkFrames.read(frames, r -> {
                switch (r.which()) {
                    case RESULT -> {
                        Result.Reader result = r.getResult();
                        matches.add(result.getPackage() + "/" + result.getPath() + ":" + result.getLine() + " "
                                + result.getRanking());
                    }
                    case FILE_RESULTS -> {
                        FileResultsIndex file = new FileResultsIndex(r.getFileResults());
                        for (int m = 0; m < file.matches(); m++) {
                            LineMatch.Reader match = file.match(m);
                            matches.add(file.pkg() + "/" + file.path() + ":" + file.number(match.getLine()) + " "
                                    + match.getRanking());
                        }
                    }
                    case DONE -> {
                        results = r.getDone().getResults();
                        truncation = r.getDone().getTruncation();
                    }
                    case ERROR -> error = r.getError().getMessage().toString();
                    default -> {}
                }
            });
        }

        @Override
        public ByteBufAllocator allocator() {
            return allocator;
        }
    }

    /** A search started: its sink, and how many times its end ran. */
    record Started(SearchExecution execution, Sink sink, CountDownLatch ended, AtomicInteger ends) {
        /** Waits for the end, draining a stalled sink as its reader would (every 200 µs); false after {@code timeout}. */
        boolean await(Duration timeout) throws InterruptedException {
            long giveUp = System.nanoTime() + timeout.toNanos();
            while (!ended.await(200, TimeUnit.MICROSECONDS)) {
                if (System.nanoTime() > giveUp) {
                    return false;
                }
                if (!sink.writable) {
                    sink.writable = true;
                    execution.resume();
                }
            }
            return true;
        }
    }

    private static Started start(
            String query,
            int cap,
            int context,
            boolean byFile,
            Parallelism parallelism,
            Sink sink,
            LongSupplier clock,
            long deadlineNanos)
            throws Exception {
        SearchSpec spec =
                new SearchSpec(CompiledQuery.of(QueryParser.parse(query, false)), cap, deadlineNanos, context, byFile);
        CountDownLatch ended = new CountDownLatch(1);
        AtomicInteger ends = new AtomicInteger();
        SearchExecution execution = new SearchExecution(
                shard,
                spec,
                sink,
                pool,
                parallelism,
                clock,
                () -> {
                    ends.incrementAndGet();
                    ended.countDown();
                },
                new LongAdder(),
                new Scratch());
        sink.execution = execution;
        execution.start();
        return new Started(execution, sink, ended, ends);
    }

    private static Answer run(
            String query,
            int cap,
            int context,
            boolean byFile,
            Parallelism parallelism,
            Random stalls,
            LongSupplier clock,
            long deadlineNanos)
            throws Exception {
        return answer(start(query, cap, context, byFile, parallelism, new Sink(stalls), clock, deadlineNanos));
    }

    private static Answer answer(Started started) throws Exception {
        assertThat(started.await(PATIENCE)).as("search ended").isTrue();
        Sink sink = started.sink();
        synchronized (sink) {
            assertThat(sink.error).as("no error").isNull();
            assertThat(sink.ended).as("the stream ended").isTrue();
            assertThat(sink.allocator.unreleased()).as("buffers not released").isZero();
            assertThat(sink.results).as("done counts what was sent").isEqualTo(sink.matches.size());
            return new Answer(List.copyOf(sink.matches), sink.results, sink.truncation);
        }
    }

    private static Answer run(
            String query, int cap, int context, boolean byFile, Parallelism parallelism, Random stalls)
            throws Exception {
        return run(query, cap, context, byFile, parallelism, stalls, System::nanoTime, SEARCH_DEADLINE_NANOS);
    }

    private final Map<String, Answer> oneTask = new HashMap<>();

    private Answer oneTask(String query, int cap, int context, boolean byFile) throws Exception {
        String key = query + "|" + cap + "|" + context + "|" + byFile;
        Answer known = oneTask.get(key);
        if (known == null) {
            known = run(query, cap, context, byFile, Parallelism.unordered(1), null);
            oneTask.put(key, known);
        }
        return known;
    }

    /** Equal lists, or a message with where they part. */
    private static void assertSameMatches(Answer actual, Answer expected, String what) {
        List<String> a = actual.matches();
        List<String> e = expected.matches();
        int i = 0;
        while (i < a.size() && i < e.size() && a.get(i).equals(e.get(i))) {
            i++;
        }
        if (i < a.size() || i < e.size()) {
            throw new AssertionError(
                    what + ": " + a.size() + " matches, expected " + e.size() + "; first difference at "
                            + i + ": " + a.subList(i, Math.min(a.size(), i + 3)) + " instead of "
                            + e.subList(i, Math.min(e.size(), i + 3)));
        }
    }

    @Test
    void manyTasksInOrderSendWhatOneTaskSends() throws Exception {
        String[] queries = {"alpha", "needle", "mu\\b", "(?i)KAPPA lambda", "no_such_word_anywhere", "^beta", "iota$"};
        int alphaLines = oneTask("alpha", Integer.MAX_VALUE, 0, true).matches().size();
        assertThat(alphaLines).as("a corpus with many matching lines").isGreaterThan(50_000);
        Random random = new Random(7);
        int crossings = 0;
        for (int round = 0; round < 80; round++) {
            String query = queries[random.nextInt(queries.length)];
            int all = oneTask(query, Integer.MAX_VALUE, 0, true).matches().size();
            int[] caps = {
                1,
                5,
                97,
                1_000,
                Math.max(1, all - 1),
                Math.max(1, all),
                all + 1,
                Integer.MAX_VALUE,
                1 + random.nextInt(Math.max(1, all))
            };
            int cap = caps[random.nextInt(caps.length)];
            int context = random.nextInt(3);
            boolean byFile = random.nextBoolean();
            int[] pieceBytes = {200, 4_096, 65_536, ResultEncoder.BATCH_BYTES};
            Parallelism parallelism = new Parallelism(
                    2 + random.nextInt(3), true, pieceBytes[random.nextInt(pieceBytes.length)], 1 + random.nextInt(12));
            Random stalls = random.nextBoolean() ? new Random(round) : null;

            Answer expected = oneTask(query, cap, context, byFile);
            Answer actual = run(query, cap, context, byFile, parallelism, stalls);
            String what = query + " cap " + cap + " context " + context + " byFile " + byFile + " " + parallelism
                    + " stalls " + (stalls != null);
            assertSameMatches(actual, expected, what);
            assertThat(actual.truncation()).as(what).isEqualTo(expected.truncation());
            if (expected.truncation() == Done.Truncation.MAX_RESULTS) {
                assertThat(actual.matches()).as(what).hasSize(cap);
                crossings++;
            }
        }
        assertThat(crossings).as("rounds cut by the cap").isGreaterThan(10);
    }

    @Test
    void theCapIsCutInOrderWhenEveryPieceIsSmall() throws Exception {
        // Pieces of a few hundred bytes: the cap falls inside a piece that tasks counted from too low a base.
        Parallelism tiny = new Parallelism(4, true, 200, 16);
        for (int cap : new int[] {1, 2, 333, 4_444, 20_000}) {
            Answer expected = oneTask("alpha", cap, 1, true);
            Answer actual = run("alpha", cap, 1, true, tiny, null);
            assertThat(actual.matches())
                    .as("cap " + cap)
                    .isEqualTo(expected.matches())
                    .hasSize(cap);
            assertThat(actual.truncation()).isEqualTo(Done.Truncation.MAX_RESULTS);
        }
    }

    @Test
    void atTheDeadlineWhatIsSentIsAPrefixOfTheOrder() throws Exception {
        Answer whole = oneTask("alpha", Integer.MAX_VALUE, 0, true);
        // A clock that moves a microsecond each time it is read: the deadline falls mid-search,
        // at a tenth, half and nine tenths of the reads a whole search makes.
        AtomicLong reads = new AtomicLong();
        Parallelism p = new Parallelism(3, true, 4_096, 8);
        run("alpha", Integer.MAX_VALUE, 0, true, p, null, () -> reads.addAndGet(1_000), Long.MAX_VALUE);
        for (long deadline : new long[] {reads.get() / 10, reads.get() / 2, reads.get() * 9 / 10}) {
            AtomicLong now = new AtomicLong();
            Answer cut = run("alpha", Integer.MAX_VALUE, 0, true, p, null, () -> now.addAndGet(1_000), deadline);
            assertThat(cut.truncation()).as("deadline " + deadline).isEqualTo(Done.Truncation.DEADLINE);
            assertThat(cut.matches().size()).isLessThan(whole.matches().size());
            assertThat(whole.matches().subList(0, cut.matches().size()))
                    .as("deadline " + deadline)
                    .isEqualTo(cut.matches());
        }
    }

    @Test
    void aReaderThatStallsOftenHoldsTheSearchToAFewPieces() throws Exception {
        // The reader leaves the sink full for a millisecond after a third of its writes: the
        // search pauses, and what its tasks hold meanwhile stays within the window.
        int tasks = 4;
        int window = 4;
        Sink sink = new Sink(new Random(1));
        Started started = start(
                "alpha",
                Integer.MAX_VALUE,
                2,
                false,
                new Parallelism(tasks, true, 4_096, window),
                sink,
                System::nanoTime,
                SEARCH_DEADLINE_NANOS);
        long most = 0;
        long giveUp = System.nanoTime() + PATIENCE.toNanos();
        while (!started.ended().await(1, TimeUnit.MILLISECONDS)) {
            assertThat(System.nanoTime()).as("search ended").isLessThan(giveUp);
            most = Math.max(most, sink.allocator.unreleased());
            if (!sink.writable) {
                sink.writable = true;
                started.execution().resume();
            }
        }
        assertSameMatches(answer(started), oneTask("alpha", Integer.MAX_VALUE, 2, false), "stalls");
        assertThat(most).as("buffers held at once").isLessThanOrEqualTo(3L * (window + tasks));
    }

    @Test
    void aSinkFullForAnInstantNeverLeavesTheSearchWaiting() throws Exception {
        // A task that found the sink full took no piece; the sink drained and resume() found the
        // search running. The task must go on, or no task is left and nothing wakes the search.
        Answer expected = oneTask("alpha", Integer.MAX_VALUE, 0, true);
        Random random = new Random(13);
        for (int round = 0; round < 20; round++) {
            Sink sink = new Sink(null);
            sink.blips = new Random(round);
            Parallelism p = new Parallelism(2 + random.nextInt(3), true, 4_096, 1 + random.nextInt(8));
            Started started =
                    start("alpha", Integer.MAX_VALUE, 0, true, p, sink, System::nanoTime, SEARCH_DEADLINE_NANOS);
            assertSameMatches(answer(started), expected, "round " + round + " " + p);
        }
    }

    @Test
    void cancelledAtAnyMomentItEndsOnceAndReleasesEverything() throws Exception {
        Random random = new Random(11);
        for (int round = 0; round < 60; round++) {
            Parallelism p =
                    new Parallelism(2 + random.nextInt(3), true, 1 + random.nextInt(8_192), 1 + random.nextInt(8));
            int cap = random.nextBoolean() ? Integer.MAX_VALUE : 1 + random.nextInt(20_000);
            Sink sink = new Sink(random.nextBoolean() ? new Random(round) : null);
            Started started = start(
                    "alpha",
                    cap,
                    random.nextInt(2),
                    random.nextBoolean(),
                    p,
                    sink,
                    System::nanoTime,
                    SEARCH_DEADLINE_NANOS);
            long cancelAt = System.nanoTime() + random.nextInt(30_000_000);
            while (System.nanoTime() < cancelAt && started.ended().getCount() > 0) {
                if (!sink.writable && random.nextInt(4) != 0) {
                    sink.writable = true;
                    started.execution().resume();
                }
                Thread.onSpinWait();
            }
            started.execution().cancel();
            String what = "round " + round + " " + p;
            assertThat(started.ended().await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS))
                    .as(what)
                    .isTrue();
            assertThat(started.ends().get()).as(what + ": ends once").isOne();
            synchronized (sink) {
                assertThat(sink.allocator.unreleased()).as(what).isZero();
            }
        }
    }

    @Test
    void aFailedAllocationEndsTheSearchWithAnErrorAndReleasesEverything() throws Exception {
        Random random = new Random(3);
        for (int round = 0; round < 30; round++) {
            Parallelism p = round % 3 == 0
                    ? Parallelism.unordered(3)
                    : new Parallelism(3, true, 1 + random.nextInt(8_192), 1 + random.nextInt(8));
            boolean byFile = random.nextBoolean();
            Sink counting = new Sink(null);
            answer(start("alpha", Integer.MAX_VALUE, 0, byFile, p, counting, System::nanoTime, SEARCH_DEADLINE_NANOS));
            long failAt = 1 + random.nextInt((int) counting.allocator.allocations());
            Sink sink = new Sink(null, new RecordingAllocator(failAt));
            Started started =
                    start("alpha", Integer.MAX_VALUE, 0, byFile, p, sink, System::nanoTime, SEARCH_DEADLINE_NANOS);
            String what =
                    "round " + round + " " + p + " allocation " + failAt + " of " + counting.allocator.allocations();
            assertThat(started.await(PATIENCE)).as(what + ": ended").isTrue();
            synchronized (sink) {
                assertThat(sink.allocator.unreleased()).as(what).isZero();
                if (sink.allocator.allocations() >= failAt && sink.error == null) {
                    // Only the last message's own allocation may fail without an error sent.
                    assertThat(sink.allocator.allocations())
                            .as(what + ": no error sent")
                            .isEqualTo(failAt);
                    assertThat(sink.ended).as(what).isFalse();
                } else if (sink.allocator.allocations() >= failAt) {
                    assertThat(sink.error).as(what).contains("out of memory");
                }
            }
        }
    }

    @Test
    void aSlowFirstPieceHoldsNoMorePiecesThanTheWindow() throws Exception {
        // Every few thousand clock reads a task sleeps: the piece it searches holds up the order
        // while the other tasks search on. What they hold must stay within the window.
        int tasks = 3;
        int window = 3;
        for (boolean byFile : new boolean[] {true, false}) {
            AtomicLong reads = new AtomicLong();
            LongSupplier slow = () -> {
                if (reads.incrementAndGet() % 2_000 == 0) {
                    try {
                        Thread.sleep(100);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                return System.nanoTime();
            };
            Sink sink = new Sink(null);
            Started started = start(
                    "alpha",
                    Integer.MAX_VALUE,
                    2,
                    byFile,
                    new Parallelism(tasks, true, 4_096, window),
                    sink,
                    slow,
                    Long.MAX_VALUE / 4);
            long most = 0;
            while (!started.ended().await(1, TimeUnit.MILLISECONDS)) {
                most = Math.max(most, sink.allocator.unreleased());
            }
            assertThat(answer(started).matches())
                    .hasSize(oneTask("alpha", Integer.MAX_VALUE, 2, byFile)
                            .matches()
                            .size());
            // Each piece holds a batch or two, each task one being filled.
            assertThat(most).as("buffers held at once, byFile " + byFile).isLessThanOrEqualTo(3L * (window + tasks));
        }
    }
}
