package io.trigrep.frontend.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.frontend.store.TeeFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Joining, serving from disk, forcing a fresh run, and eviction by bytes and by free disk. */
class QueryCacheTest {
    @TempDir
    Path dir;
    final AtomicInteger started = new AtomicInteger();

    /** A one-shard run whose tee holds {@code bytes} bytes; finished by {@link #finish}. */
    QueryRun run(int bytes) throws java.io.IOException {
        started.incrementAndGet();
        TeeFile tee = new TeeFile(dir.resolve("run-" + started.get()));
        tee.append(ByteBuffer.allocate(bytes));
        return new QueryRun(List.of("shard"), tee, Runnable::run);
    }

    static void finish(QueryRun run) {
        run.fail(0, ShardStatus.Outcome.CANCELLED, "finished for the test");
        assertThat(run.completion()).isDone();
    }

    @Test
    void aRunningQueryIsJoinedAndAFinishedOneServedAgain() throws Exception {
        QueryCache cache = new QueryCache(dir, 1 << 20, 0, () -> Long.MAX_VALUE, Runnable::run);
        QueryCache.Entry first = cache.acquire("q", false, () -> run(100));
        QueryCache.Entry joined = cache.acquire("q", false, () -> run(100));
        assertThat(joined).isSameAs(first);
        finish(first.run());
        cache.release(first);
        cache.release(joined);
        QueryCache.Entry again = cache.acquire("q", false, () -> run(100));
        assertThat(again).isSameAs(first);
        cache.release(again);
        assertThat(started.get()).isEqualTo(1);
        assertThat(cache.hits()).isEqualTo(2);
        assertThat(cache.misses()).isEqualTo(1);
        QueryCache.Entry fresh = cache.acquire("q", true, () -> run(100));
        assertThat(fresh).isNotSameAs(first);
        assertThat(started.get()).isEqualTo(2);
        assertThat(first.run().tee().path()).doesNotExist();
        finish(fresh.run());
        cache.release(fresh);
    }

    @Test
    void leastRecentlyUsedFinishedQueriesAreEvictedOverTheByteBound() throws Exception {
        QueryCache cache = new QueryCache(dir, 250, 0, () -> Long.MAX_VALUE, Runnable::run);
        QueryCache.Entry a = cache.acquire("a", false, () -> run(100));
        QueryCache.Entry b = cache.acquire("b", false, () -> run(100));
        finish(a.run());
        finish(b.run());
        cache.release(a);
        cache.release(b);
        cache.release(cache.acquire("a", false, () -> run(100)));
        QueryCache.Entry c = cache.acquire("c", false, () -> run(100));
        // Over 250 bytes with c running: b is the least recently used finished one.
        finish(c.run());
        cache.release(c);
        assertThat(cache.size()).isEqualTo(2);
        assertThat(b.run().tee().path()).doesNotExist();
        assertThat(a.run().tee().path()).exists();
        assertThat(cache.evictions()).isEqualTo(1);
        assertThat(cache.bytes()).isLessThanOrEqualTo(250);
    }

    @Test
    void runningAndInUseQueriesAreNeverEvicted() throws Exception {
        QueryCache cache = new QueryCache(dir, 0, 0, () -> Long.MAX_VALUE, Runnable::run);
        QueryCache.Entry running = cache.acquire("running", false, () -> run(100));
        QueryCache.Entry reading = cache.acquire("reading", false, () -> run(100));
        finish(reading.run());
        QueryCache.Entry other = cache.acquire("other", false, () -> run(100));
        finish(other.run());
        cache.release(other);
        assertThat(running.run().tee().path()).exists();
        assertThat(reading.run().tee().path()).exists();
        assertThat(other.run().tee().path()).doesNotExist();
        cache.release(reading);
        assertThat(reading.run().tee().path()).doesNotExist();
        finish(running.run());
        cache.release(running);
        assertThat(cache.size()).isZero();
    }

    @Test
    void lowFreeDiskEvictsEvenUnderTheByteBound() throws Exception {
        AtomicLong free = new AtomicLong(Long.MAX_VALUE);
        QueryCache cache = new QueryCache(dir, 1 << 20, 1000, free::get, Runnable::run);
        QueryCache.Entry a = cache.acquire("a", false, () -> run(100));
        finish(a.run());
        cache.release(a);
        assertThat(cache.size()).isEqualTo(1);
        free.set(10);
        QueryCache.Entry b = cache.acquire("b", false, () -> run(100));
        finish(b.run());
        cache.release(b);
        assertThat(cache.size()).isZero();
        assertThat(Files.exists(a.run().tee().path())).isFalse();
    }
}
