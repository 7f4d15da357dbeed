package io.trigrep.frontend.fanout;

import static io.trigrep.testing.Eventually.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.trigrep.frontend.store.TeeFile;
import io.trigrep.proto.Done;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Joining, serving from disk, forcing a fresh run, never serving a partial answer again, and
 * eviction by bytes and by free disk.
 */
class QueryCacheTest {
    @TempDir
    Path dir;

    final AtomicInteger started = new AtomicInteger();
    final AtomicLong clock = new AtomicLong();

    /** A one-shard run whose tee holds {@code bytes} bytes; finished by {@link #finish}. */
    QueryRun run(int bytes) throws java.io.IOException {
        started.incrementAndGet();
        TeeFile tee = new TeeFile(dir.resolve("run-" + started.get()));
        tee.append(ByteBuffer.allocate(bytes));
        return new QueryRun(List.of("shard"), tee, Runnable::run);
    }

    /** A run of {@code shards} shards whose generations are {@code known}'s. */
    QueryRun run(ShardGenerations known) throws java.io.IOException {
        started.incrementAndGet();
        TeeFile tee = new TeeFile(dir.resolve("run-" + started.get()));
        tee.append(ByteBuffer.allocate(100));
        List<String> shards = new java.util.ArrayList<>();
        for (int i = 0; i < known.shards(); i++) {
            shards.add("shard-" + i);
        }
        return new QueryRun(shards, tee, Runnable::run, Runnable::run, QueryCaps.forCache(1L << 30), known);
    }

    /** Ends shard {@code shard}'s answer with a real "done" frame that says it searched {@code generation}. */
    static void finish(QueryRun run, int shard, long generation) {
        MessageBuilder message = Messages.newBuilder();
        message.initRoot(Response.factory).initDone().setGeneration(generation);
        ByteBuf frame = Unpooled.buffer(Framing.frameBytes(message));
        Framing.write(message, frame);
        run.ingest(shard, frame, frame.readableBytes(), teed -> {});
    }

    /** Ends the run as its backend would: a real "done" frame, teed and recorded. */
    static void finish(QueryRun run) {
        finish(run, Done.Truncation.NONE);
    }

    static void finish(QueryRun run, Done.Truncation truncation) {
        ByteBuf frame = doneFrame(truncation);
        run.ingest(0, frame, frame.readableBytes(), teed -> {});
        assertThat(run.completion()).succeedsWithin(PATIENCE);
    }

    static ByteBuf doneFrame(Done.Truncation truncation) {
        MessageBuilder message = Messages.newBuilder();
        message.initRoot(Response.factory).initDone().setTruncation(truncation);
        ByteBuf frame = Unpooled.buffer(Framing.frameBytes(message));
        Framing.write(message, frame);
        return frame;
    }

    /** Bytes a run of {@code bytes} takes once finished: its results and the done frame. */
    static int finished(int bytes) {
        ByteBuf frame = doneFrame(Done.Truncation.NONE);
        try {
            return bytes + frame.readableBytes();
        } finally {
            frame.release();
        }
    }

    @Test
    void aRunningQueryIsJoinedAndAFinishedOneServedAgain() throws Exception {
        QueryCache cache = new QueryCache(dir, 1 << 20, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
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
    void anAnswerFromAnotherGenerationOfTheShardsIsNeitherServedNorJoined() throws Exception {
        QueryCache cache = new QueryCache(dir, 1 << 20, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
        // Before the first status round the generations are not known: an answer given then is
        // kept once they are.
        ShardGenerations known = new ShardGenerations(2);
        QueryCache.Entry running = cache.acquire("q", false, () -> run(known));
        known.learn(0, 1, known.tick());
        known.learn(1, 1, known.tick());
        assertThat(cache.runningQuery("q")).isSameAs(running.run());
        known.learn(1, 2, known.tick()); // shard 1 was rebuilt and its backend restarted on it
        assertThat(cache.runningQuery("q")).isNull();
        QueryCache.Entry next = cache.acquire("q", false, () -> run(known));
        assertThat(next).isNotSameAs(running);
        assertThat(cache.stale()).isEqualTo(1);
        for (int shard = 0; shard < 2; shard++) {
            finish(running.run(), shard, 0);
            finish(next.run(), shard, 0);
        }
        cache.release(running);
        cache.release(next);
        QueryCache.Entry again = cache.acquire("q", false, () -> run(known));
        assertThat(again).isSameAs(next);
        cache.release(again);
        assertThat(started.get()).isEqualTo(2);
        assertThat(cache.stale()).isEqualTo(1);
    }

    @Test
    void anAnswerFinishedBeforeTheGenerationsWereKnownTakesTheFirstOnesKnown() throws Exception {
        QueryCache cache = new QueryCache(dir, 1 << 20, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
        ShardGenerations known = new ShardGenerations(1);
        QueryCache.Entry early = cache.acquire("early", false, () -> run(known));
        finish(early.run(), 0, 0);
        cache.release(early);
        QueryCache.Entry late = cache.acquire("late", false, () -> run(known));
        finish(late.run(), 0, 0);
        cache.release(late);
        known.learn(0, 1, known.tick());
        QueryCache.Entry kept = cache.acquire("early", false, () -> run(known));
        assertThat(kept).isSameAs(early);
        cache.release(kept);
        known.learn(0, 2, known.tick());
        QueryCache.Entry after = cache.acquire("late", false, () -> run(known));
        assertThat(after)
                .as("searched before any generation was known: taken as on the first one, 1, which 2 replaced")
                .isNotSameAs(late);
        finish(after.run(), 0, 0);
        cache.release(after);
        assertThat(cache.stale()).isEqualTo(1);
    }

    @Test
    void theFirstAnswerFromANewGenerationMakesEveryCachedAnswerOfTheOldOneStale() throws Exception {
        QueryCache cache = new QueryCache(dir, 1 << 20, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
        ShardGenerations known = new ShardGenerations(2);
        QueryCache.Entry old = cache.acquire("old", false, () -> run(known));
        finish(old.run(), 0, 7);
        finish(old.run(), 1, 3);
        cache.release(old);
        QueryCache.Entry served = cache.acquire("old", false, () -> run(known));
        assertThat(served).isSameAs(old);
        cache.release(served);
        // Another query's answer from shard 1 says it switched: no status poll needed.
        QueryCache.Entry other = cache.acquire("other", false, () -> run(known));
        finish(other.run(), 1, 4);
        assertThat(known.newest(1)).isEqualTo(4);
        QueryCache.Entry after = cache.acquire("old", false, () -> run(known));
        assertThat(after).isNotSameAs(old);
        assertThat(cache.stale()).isEqualTo(1);
        // Straddling: shard 0 still on 7, shard 1 on 4, each its newest: served.
        finish(after.run(), 0, 7);
        finish(after.run(), 1, 4);
        finish(other.run(), 0, 7);
        cache.release(after);
        cache.release(other);
        QueryCache.Entry again = cache.acquire("old", false, () -> run(known));
        assertThat(again).isSameAs(after);
        cache.release(again);
        assertThat(cache.stale()).isEqualTo(1);
    }

    @Test
    void anAnswerStillRunningOnTheOldGenerationIsNotJoinedAndDoesNotTurnTheNewestBack() throws Exception {
        QueryCache cache = new QueryCache(dir, 1 << 20, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
        ShardGenerations known = new ShardGenerations(1);
        known.learn(0, 5, known.tick());
        QueryCache.Entry slow = cache.acquire("q", false, () -> run(known));
        assertThat(cache.runningQuery("q")).isSameAs(slow.run());
        known.learn(0, 6, known.tick()); // a status poll: the backend switched while slow ran
        assertThat(cache.runningQuery("q"))
                .as("begun before the switch was known")
                .isNull();
        QueryCache.Entry fresh = cache.acquire("q", false, () -> run(known));
        assertThat(fresh).isNotSameAs(slow);
        assertThat(cache.runningQuery("q")).isSameAs(fresh.run());
        finish(slow.run(), 0, 5); // began on 5 and finished there, after the switch
        assertThat(known.newest(0)).isEqualTo(6);
        assertThat(slow.run().current()).isFalse();
        finish(fresh.run(), 0, 6);
        cache.release(slow);
        cache.release(fresh);
        QueryCache.Entry again = cache.acquire("q", false, () -> run(known));
        assertThat(again).isSameAs(fresh);
        cache.release(again);
        assertThat(started.get()).isEqualTo(2);
    }

    @Test
    void leastRecentlyUsedFinishedQueriesAreEvictedOverTheByteBound() throws Exception {
        int bound = 2 * finished(100) + 50;
        QueryCache cache = new QueryCache(dir, bound, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
        QueryCache.Entry a = cache.acquire("a", false, () -> run(100));
        QueryCache.Entry b = cache.acquire("b", false, () -> run(100));
        finish(a.run());
        finish(b.run());
        cache.release(a);
        cache.release(b);
        cache.release(cache.acquire("a", false, () -> run(100)));
        QueryCache.Entry c = cache.acquire("c", false, () -> run(100));
        // Over the bound with c running: b is the least recently used finished one.
        finish(c.run());
        cache.release(c);
        assertThat(cache.size()).isEqualTo(2);
        assertThat(b.run().tee().path()).doesNotExist();
        assertThat(a.run().tee().path()).exists();
        assertThat(cache.evictions()).isEqualTo(1);
        assertThat(cache.bytes()).isLessThanOrEqualTo(bound);
    }

    @Test
    void chargesStayExactOverManyEntriesReplacementsAndEvictions() throws Exception {
        int keep = 50;
        long each = finished(100);
        QueryCache cache = new QueryCache(dir, keep * each, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
        for (int i = 0; i < 200; i++) {
            QueryCache.Entry e = cache.acquire("q" + i, false, () -> run(100));
            finish(e.run());
            cache.release(e);
        }
        assertThat(cache.size()).isEqualTo(keep);
        assertThat(cache.evictions()).isEqualTo(200 - keep);
        // Fresh runs replace cached answers: each replaced answer's charge leaves with it, so the
        // bound still holds them all and nothing more is evicted.
        List<QueryCache.Entry> replaced = new java.util.ArrayList<>();
        List<QueryCache.Entry> replacements = new java.util.ArrayList<>();
        for (int i = 150; i < 200; i++) {
            QueryCache.Entry old = cache.acquire("q" + i, false, () -> run(100));
            cache.release(old);
            replaced.add(old);
            QueryCache.Entry e = cache.acquire("q" + i, true, () -> run(100));
            finish(e.run());
            cache.release(e);
            replacements.add(e);
        }
        assertThat(cache.size()).isEqualTo(keep);
        assertThat(cache.evictions()).isEqualTo(200 - keep);
        assertThat(cache.bytes()).isEqualTo(keep * each);
        assertThat(replaced)
                .allSatisfy(old -> assertThat(old.run().tee().path()).doesNotExist());
        // One more answer is over the bound by one: the least recently used goes, q150's replacement.
        QueryCache.Entry last = cache.acquire("last", false, () -> run(100));
        finish(last.run());
        cache.release(last);
        assertThat(cache.size()).isEqualTo(keep);
        assertThat(cache.evictions()).isEqualTo(200 - keep + 1);
        assertThat(replacements.get(0).run().tee().path()).doesNotExist();
        assertThat(replacements.get(1).run().tee().path()).exists();
        assertThat(cache.bytes()).isEqualTo(keep * each);
    }

    @Test
    void answersBeyondTheEntryBoundAreEvictedHoweverFewTheirBytes() throws Exception {
        QueryCache cache = new QueryCache(dir, 1L << 40, 0, 3, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
        List<QueryCache.Entry> all = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            QueryCache.Entry e = cache.acquire("q" + i, false, () -> run(0));
            finish(e.run());
            cache.release(e);
            all.add(e);
        }
        assertThat(cache.size()).isEqualTo(3);
        assertThat(cache.evictions()).isEqualTo(7);
        // The least recently used went, and their files with them: no file stays open for them.
        assertThat(all.subList(0, 7))
                .allSatisfy(e -> assertThat(e.run().tee().path()).doesNotExist());
        assertThat(all.subList(7, 10))
                .allSatisfy(e -> assertThat(e.run().tee().path()).exists());
        // Running answers count but are never evicted.
        QueryCache.Entry running = cache.acquire("running", false, () -> run(0));
        QueryCache.Entry another = cache.acquire("another", false, () -> run(0));
        cache.release(cache.acquire("q9", false, () -> run(0)));
        assertThat(cache.size()).isEqualTo(3);
        assertThat(running.run().tee().path()).exists();
        finish(running.run());
        finish(another.run());
        cache.release(running);
        cache.release(another);
        assertThat(cache.size()).isEqualTo(3);
    }

    @Test
    void anAnswerIsChargedAtLeastWhatItCostsTheHeap() throws Exception {
        QueryCache cache = new QueryCache(
                dir,
                3 * QueryCache.ANSWER_CHARGE,
                0,
                Integer.MAX_VALUE,
                QueryCache.ANSWER_CHARGE,
                () -> Long.MAX_VALUE,
                Runnable::run,
                clock::get);
        for (int i = 0; i < 10; i++) {
            QueryCache.Entry e = cache.acquire("nothing" + i, false, () -> run(0));
            finish(e.run());
            cache.release(e);
        }
        assertThat(cache.size()).isEqualTo(3);
        assertThat(cache.evictions()).isEqualTo(7);
    }

    @Test
    void theEntryBoundLeavesTheConnectionsTheirShareOfTheOpenFiles() {
        assertThat(QueryCache.entriesFor(20_000)).isEqualTo(4_488);
        assertThat(QueryCache.entriesFor(20_000) + io.trigrep.frontend.http.ConnectionLimits.connectionsFor(20_000))
                .isLessThan(20_000 - 512);
        assertThat(QueryCache.entriesFor(1_024)).isEqualTo(16);
        assertThat(QueryCache.entriesFor(1L << 40)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void runningAndInUseQueriesAreNeverEvicted() throws Exception {
        QueryCache cache = new QueryCache(dir, 0, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
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
        QueryCache cache = new QueryCache(dir, 1 << 20, 1000, free::get, Runnable::run, clock::get);
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

    @Test
    void aPartialAnswerIsNeverServedToALaterRequest() throws Exception {
        QueryCache cache = new QueryCache(dir, 1 << 20, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
        QueryCache.Entry failed = cache.acquire("q", false, () -> run(100));
        QueryCache.Entry joined = cache.acquire("q", false, () -> run(100));
        assertThat(joined).as("joined while running, failure or not").isSameAs(failed);
        failed.run().fail(0, ShardStatus.Outcome.CONNECT, "cannot connect: refused");
        assertThat(failed.run().completion()).succeedsWithin(PATIENCE);
        assertThat(failed.run().reusable()).isFalse();
        cache.release(joined);
        clock.addAndGet(QueryCache.UNREUSABLE_NANOS);
        QueryCache.Entry shown = cache.acquire("q", false, () -> run(100));
        assertThat(shown)
                .as("served while the page that waited for it is shown")
                .isSameAs(failed);
        cache.release(shown);
        clock.incrementAndGet();
        QueryCache.Entry next = cache.acquire("q", false, () -> run(100));
        assertThat(next)
                .as("the backend is back: a new run, not the partial answer")
                .isNotSameAs(failed);
        assertThat(started.get()).isEqualTo(2);
        assertThat(failed.run().tee().path()).as("still read by its first user").exists();
        cache.release(failed);
        assertThat(failed.run().tee().path()).doesNotExist();
        finish(next.run());
        assertThat(next.run().reusable()).isTrue();
        cache.release(next);
        QueryCache.Entry again = cache.acquire("q", false, () -> run(100));
        assertThat(again).as("a complete answer is served again").isSameAs(next);
        cache.release(again);
    }

    @Test
    void anAnswerCutAtTheBackendsDeadlineIsNotServedAgain() throws Exception {
        QueryCache cache = new QueryCache(dir, 1 << 20, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
        QueryCache.Entry cut = cache.acquire("q", false, () -> run(100));
        finish(cut.run(), Done.Truncation.DEADLINE);
        cache.release(cut);
        assertThat(cut.run().reusable()).isFalse();
        clock.addAndGet(QueryCache.UNREUSABLE_NANOS + 1);
        QueryCache.Entry next = cache.acquire("q", false, () -> run(100));
        assertThat(next).isNotSameAs(cut);
        finish(next.run(), Done.Truncation.MAX_RESULTS);
        cache.release(next);
        clock.addAndGet(QueryCache.UNREUSABLE_NANOS + 1);
        assertThat(cache.acquire("q", false, () -> run(100)))
                .as("a result cap is the same every time")
                .isSameAs(next);
    }

    @Test
    void cacheFalseNeitherJoinsARunningQueryNorEndsIt() throws Exception {
        QueryCache cache = new QueryCache(dir, 1 << 20, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
        QueryCache.Entry running = cache.acquire("q", false, () -> run(100));
        QueryCache.Entry fresh = cache.acquire("q", true, () -> run(100));
        assertThat(fresh).isNotSameAs(running);
        assertThat(started.get()).isEqualTo(2);
        assertThat(running.run().completion())
                .as("the first request's run goes on")
                .isNotDone();
        assertThat(running.run().tee().path()).exists();
        finish(running.run());
        cache.release(running);
        assertThat(running.run().tee().path())
                .as("replaced, and released by its last user")
                .doesNotExist();
        QueryCache.Entry joined = cache.acquire("q", false, () -> run(100));
        assertThat(joined).as("later requests join the fresh run").isSameAs(fresh);
        finish(fresh.run());
        cache.release(fresh);
        cache.release(joined);
    }
}
