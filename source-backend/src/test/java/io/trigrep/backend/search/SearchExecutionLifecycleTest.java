package io.trigrep.backend.search;

import static io.trigrep.testing.Eventually.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.trigrep.backend.TestShards;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.Done;
import io.trigrep.proto.Response;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.QueryParser;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A search's phases as its caller drives them: start once, cancel at any time, pause while the sink is full. */
class SearchExecutionLifecycleTest {
    @TempDir
    static Path dir;

    static Shard shard;
    static ExecutorService pool;

    @BeforeAll
    static void build() throws Exception {
        shard = TestShards.build(TestShards.CORPUS, dir, 1).get(0);
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    /** Writable when told; drops the frames written and keeps what the stream ended with. */
    static final class Sink implements FrameSink {
        volatile boolean writable = true;
        final AtomicInteger writes = new AtomicInteger();
        /** What the stream ended with, read before its frame is released; null until then. */
        volatile Response.Which end;

        volatile long results = -1;
        volatile Done.Truncation truncation;

        @Override
        public boolean isWritable() {
            return writable;
        }

        @Override
        public void write(ByteBuf frames) {
            writes.incrementAndGet();
            frames.release();
        }

        @Override
        public void finish(ByteBuf frames) {
            SinkFrames.read(frames, last -> {
                if (last.which() == Response.Which.DONE) {
                    results = last.getDone().getResults();
                    truncation = last.getDone().getTruncation();
                }
                end = last.which();
            });
        }

        @Override
        public ByteBufAllocator allocator() {
            return UnpooledByteBufAllocator.DEFAULT;
        }
    }

    private static SearchExecution search(Sink sink, CountDownLatch ended) throws Exception {
        SearchSpec spec = new SearchSpec(
                CompiledQuery.of(QueryParser.parse("return", false)),
                Integer.MAX_VALUE,
                TimeUnit.SECONDS.toNanos(30),
                0);
        return new SearchExecution(
                shard,
                spec,
                sink,
                pool,
                Parallelism.unordered(2),
                System::nanoTime,
                ended::countDown,
                new LongAdder(),
                new Scratch());
    }

    @Test
    void aSearchStartsOnce() throws Exception {
        CountDownLatch ended = new CountDownLatch(1);
        SearchExecution execution = search(new Sink(), ended);
        execution.start();
        assertThat(ended.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .as("search ended")
                .isTrue();
        assertThatThrownBy(execution::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("a search starts once, but this one is already ENDED");
    }

    @Test
    void cancelledBeforeItStartsItEndsOnceAndWritesNothing() throws Exception {
        CountDownLatch ended = new CountDownLatch(2);
        Sink sink = new Sink();
        SearchExecution execution = search(sink, ended);
        execution.cancel();
        execution.start();
        execution.cancel();
        assertThat(ended.getCount()).as("onEnd ran once").isEqualTo(1);
        assertThat(sink.writes.get()).isZero();
        assertThat(sink.end).isNull();
    }

    @Test
    void aFullSinkPausesTheSearchUntilResumed() throws Exception {
        CountDownLatch unpausedEnd = new CountDownLatch(1);
        Sink unpaused = new Sink();
        search(unpaused, unpausedEnd).start();
        assertThat(unpausedEnd.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(unpaused.end).isEqualTo(Response.Which.DONE);
        long expected = unpaused.results;
        assertThat(expected).isPositive();

        CountDownLatch ended = new CountDownLatch(1);
        Sink sink = new Sink();
        sink.writable = false;
        SearchExecution execution = search(sink, ended);
        execution.start();
        assertThat(ended.await(300, TimeUnit.MILLISECONDS))
                .as("ended while the sink was full")
                .isFalse();
        assertThat(sink.writes.get()).isZero();
        sink.writable = true;
        execution.resume();
        assertThat(ended.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .as("search ended")
                .isTrue();
        assertThat(sink.end).isEqualTo(Response.Which.DONE);
        assertThat(sink.results).isEqualTo(expected);
        assertThat(sink.truncation).isEqualTo(Done.Truncation.NONE);
    }
}
