package io.trigrep.backend.search;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.trigrep.backend.TestShards;
import io.trigrep.indexer.format.Shard;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.QueryParser;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A finished search is garbage: nothing the pool's long-lived threads keep (a ThreadLocal's
 * entry, say) may reach it. The load benchmark found each query leaving its search behind,
 * about 29 KiB of heap per query, until the backend ran out of memory.
 */
class SearchExecutionLeakTest {
    @Test
    void aFinishedSearchIsNotReachableFromThePoolsThreads(@TempDir Path dir) throws Exception {
        Shard shard = TestShards.build(TestShards.CORPUS, dir, 1).get(0);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            WeakReference<SearchExecution> finished = run(shard, pool);
            // onEnd runs inside the search's last task: wait until both threads have left it (two
            // tasks that meet need both), so that only what the threads keep can hold the search.
            java.util.concurrent.CyclicBarrier both = new java.util.concurrent.CyclicBarrier(2);
            java.util.concurrent.Callable<Integer> meet = () -> both.await(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            for (java.util.concurrent.Future<Integer> f : List.of(pool.submit(meet), pool.submit(meet))) {
                f.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            }
            eventually("the finished search collected", PATIENCE, () -> {
                System.gc();
                assertThat(finished.get())
                        .as("the finished search, reachable from the pool's threads")
                        .isNull();
            });
        } finally {
            pool.shutdownNow();
        }
    }

    private static WeakReference<SearchExecution> run(Shard shard, ExecutorService pool) throws Exception {
        SearchSpec spec = new SearchSpec(
                CompiledQuery.of(QueryParser.parse("return", false)),
                Integer.MAX_VALUE,
                TimeUnit.SECONDS.toNanos(30),
                0);
        CountDownLatch ended = new CountDownLatch(1);
        FrameSink sink = new FrameSink() {
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
                return UnpooledByteBufAllocator.DEFAULT;
            }
        };
        SearchExecution execution = new SearchExecution(
                shard,
                spec,
                sink,
                pool,
                Parallelism.unordered(2),
                System::nanoTime,
                ended::countDown,
                new LongAdder(),
                new Scratch());
        execution.start();
        assertThat(ended.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .as("search ended")
                .isTrue();
        return new WeakReference<>(execution);
    }
}
