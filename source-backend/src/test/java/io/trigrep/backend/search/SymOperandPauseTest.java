package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.trigrep.backend.TestShards;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.segments.LiveShard;
import io.trigrep.indexer.symbols.SymbolExtractor;
import io.trigrep.proto.Response;
import io.trigrep.proto.Result;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.QueryParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18: a boolean query whose shown lines interleave a sym: operand's definitions with a regex
 * operand's matches, in one file big enough that its results fill many batches, answers the same
 * lines, each once and in order, when the sink is full after every batch (the search pauses
 * inside the file and resumes at the next line) as when it never is.
 */
@Tag("external") // drives ctags
class SymOperandPauseTest {
    @TempDir
    static Path dir;

    static LiveShard live;
    static ExecutorService pool;

    @BeforeAll
    static void build() throws Exception {
        Path src = Files.createDirectories(dir.resolve("corpus/big_1.0/src"));
        StringBuilder c = new StringBuilder();
        for (int i = 0; i < 12_000; i++) {
            // A definition line, a line the regex matches, and one line that is both.
            c.append("int fn_")
                    .append(i)
                    .append("(void)\n{\n    return ")
                    .append(i)
                    .append(";\n}\n");
            c.append("/* needle ").append(i).append(" */\n");
            c.append("int fn_needle_").append(i).append("(void) { return 0; }\n");
        }
        Files.writeString(src.resolve("big.c"), c);
        Files.writeString(src.resolve("other.c"), "int fn_other(void) { return 1; }\n");
        TestShards.build(
                dir.resolve("corpus"),
                dir.resolve("out"),
                IndexBuilder.Options.defaults(1)
                        .withSymbols(SymbolChoice.extract(SymbolExtractor.start(
                                new SymbolExtractor.Config("ctags", 1, Duration.ofSeconds(60))))));
        live = LiveShard.open(dir.resolve("out/shard-0"));
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stop() throws Exception {
        pool.shutdownNow();
        if (live != null) {
            live.close();
        }
    }

    /** Keeps every result written ("line kind" or "line -"); not writable after each write when {@code pausing}. */
    static final class Sink implements FrameSink {
        final boolean pausing;
        volatile boolean writable = true;
        final AtomicInteger writes = new AtomicInteger();
        final List<String> results = new ArrayList<>();
        volatile Response.Which end;

        Sink(boolean pausing) {
            this.pausing = pausing;
        }

        @Override
        public boolean isWritable() {
            return writable;
        }

        @Override
        public synchronized void write(ByteBuf frames) {
            writes.incrementAndGet();
            read(frames);
            if (pausing) {
                writable = false;
            }
        }

        @Override
        public synchronized void finish(ByteBuf frames) {
            read(frames);
        }

        private void read(ByteBuf frames) {
            SinkFrames.read(frames, r -> {
                if (r.which() == Response.Which.RESULT) {
                    Result.Reader result = r.getResult();
                    results.add(result.getPath() + ":" + result.getLine() + " "
                            + (result.hasSymbol() ? result.getSymbol().getName() : "-"));
                } else if (r.which() == Response.Which.DONE || r.which() == Response.Which.ERROR) {
                    end = r.which();
                }
            });
        }

        @Override
        public ByteBufAllocator allocator() {
            return UnpooledByteBufAllocator.DEFAULT;
        }
    }

    private static List<String> run(boolean pausing) throws Exception {
        SearchSpec spec = new SearchSpec(
                CompiledQuery.of(QueryParser.parse("(sym:^fn_ OR needle) AND NOT sym:^fn_other$", false)),
                Integer.MAX_VALUE,
                TimeUnit.SECONDS.toNanos(60),
                0);
        CountDownLatch ended = new CountDownLatch(1);
        Sink sink = new Sink(pausing);
        // One task: the results come in file order, so two runs compare line by line.
        SearchExecution execution = new SearchExecution(
                live,
                spec,
                sink,
                pool,
                Parallelism.unordered(1),
                System::nanoTime,
                ended::countDown,
                new LongAdder(),
                new Scratch());
        execution.start();
        while (!ended.await(1, TimeUnit.MILLISECONDS)) {
            if (!sink.writable) {
                sink.writable = true;
                execution.resume();
            }
        }
        assertThat(sink.end).isEqualTo(Response.Which.DONE);
        if (pausing) {
            assertThat(sink.writes.get())
                    .as("batches, each followed by a pause")
                    .isGreaterThan(5);
        }
        return sink.results;
    }

    @Test
    void pausesInsideTheFileLoseAndRepeatNoLine() throws Exception {
        List<String> whole = run(false);
        // 12,000 x (definition, needle line, needle definition); every line once.
        assertThat(whole).hasSize(36_000).doesNotHaveDuplicates();
        assertThat(whole).contains("src/big.c:1 fn_0", "src/big.c:5 -", "src/big.c:6 fn_needle_0");
        assertThat(run(true)).isEqualTo(whole);
    }
}
