package io.trigrep.bench.backend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.trigrep.backend.search.FrameSink;
import io.trigrep.backend.search.Parallelism;
import io.trigrep.backend.search.Scratch;
import io.trigrep.backend.search.SearchExecution;
import io.trigrep.backend.search.SearchSpec;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.format.Shard;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.QueryParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A whole search of a shard, as a backend runs a frontend's capped request: the candidates read
 * off the index, every file searched, every result encoded by file and handed to a sink that lets
 * the bytes go. {@code one}: one task, in doc order (the backend before in-order pieces);
 * {@code inOrder}: two tasks whose pieces are sent in doc order ({@code PieceOrder});
 * {@code unordered}: two tasks sending as they find. The shard is about 24 MB of C-like text in
 * 800 files, {@code struct} on about a quarter of its lines; the cap is above every result, or a
 * tenth of them ({@code cap=tenth}), which cuts inside a piece. Time per search; {@code -prof gc}
 * gives allocation per search, and the set-up prints how many results a search sends.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CappedSearchBenchmark {
    @Param({"one", "inOrder", "unordered"})
    public String tasks;

    @Param({"all", "tenth"})
    public String cap;

    private Path dir;
    private Shard shard;
    private ExecutorService pool;
    private Parallelism parallelism;
    private SearchSpec spec;
    private final Scratch scratch = new Scratch();

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("capped-search");
        Random random = new Random(1);
        String[] words = {"struct", "int", "return", "static", "void", "char", "if", "else", "for", "const", "x", "y"};
        for (int pkg = 0; pkg < 8; pkg++) {
            Path src = Files.createDirectories(dir.resolve("corpus/pkg" + pkg + "_1.0/src"));
            for (int f = 0; f < 100; f++) {
                StringBuilder text = new StringBuilder();
                int lines = 200 + random.nextInt(1_400);
                for (int l = 0; l < lines; l++) {
                    int n = 1 + random.nextInt(8);
                    for (int w = 0; w < n; w++) {
                        text.append(words[random.nextInt(words.length)]).append(w == n - 1 ? ";" : " ");
                    }
                    text.append('\n');
                }
                Files.writeString(src.resolve("f" + f + ".c"), text);
            }
        }
        List<String> errors = new ArrayList<>();
        Path out = dir.resolve("index");
        List<PackageSource> packages = Corpus.discover(List.of(dir.resolve("corpus")), out, errors::add);
        new IndexBuilder(IndexBuilder.Options.defaults(1), Clock.systemUTC()).build(packages, out, errors::add);
        if (!errors.isEmpty()) {
            throw new IllegalStateException("indexing failed: " + errors);
        }
        shard = Shard.open(out.resolve("shard-0"));
        pool = Executors.newFixedThreadPool(2);
        parallelism = switch (tasks) {
            case "one" -> Parallelism.unordered(1);
            case "inOrder" -> Parallelism.inOrder(2);
            case "unordered" -> Parallelism.unordered(2);
            default -> throw new IllegalArgumentException("tasks: one, inOrder or unordered, got " + tasks);
        };
        int all = search(new SearchSpec(
                CompiledQuery.of(QueryParser.parse("struct", false)), Integer.MAX_VALUE, 60_000_000_000L, 2, true));
        spec = new SearchSpec(
                CompiledQuery.of(QueryParser.parse("struct", false)),
                cap.equals("all") ? all : all / 10,
                60_000_000_000L,
                2,
                true);
        System.out.println("results per search: " + search(spec));
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        pool.shutdownNow();
        shard.close();
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Benchmark
    public int search() throws Exception {
        return search(spec);
    }

    private int search(SearchSpec s) throws Exception {
        Sink sink = new Sink();
        CountDownLatch ended = new CountDownLatch(1);
        LongAdder produced = new LongAdder();
        new SearchExecution(shard, s, sink, pool, parallelism, System::nanoTime, ended::countDown, produced, scratch)
                .start();
        ended.await();
        return produced.intValue();
    }

    /** Always writable; lets every batch go as a socket's write would. */
    private static final class Sink implements FrameSink {
        @Override
        public boolean isWritable() {
            return true;
        }

        @Override
        public void write(ByteBuf frames) {
            frames.release();
        }

        @Override
        public void finish(ByteBuf frames) {
            frames.release();
        }

        @Override
        public ByteBufAllocator allocator() {
            return PooledByteBufAllocator.DEFAULT;
        }
    }
}
