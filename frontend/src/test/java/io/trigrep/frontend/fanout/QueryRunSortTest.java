package io.trigrep.frontend.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.trigrep.frontend.store.TeeFile;
import io.trigrep.proto.ResultWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A completed run's full sort runs on the sorts pool, not on the writers' pool that every query's
 * ingest shares; a run whose results all fit in the first ranks needs none.
 */
@Timeout(60) // a rank that waits for a sort nobody runs fails here instead of hanging
class QueryRunSortTest {
    @TempDir
    Path dir;

    /** Tasks handed to the sorts pool, held until the test runs them. */
    private final List<Runnable> sortsQueued = new ArrayList<>();

    private final Executor sorts = sortsQueued::add;

    /** A one-shard run that has received {@code n} results, the later ones ranked higher, and its done frame. */
    private QueryRun completedRun(int n) throws Exception {
        TeeFile tee = new TeeFile(dir.resolve("run-" + n + ".tee"));
        QueryRun run = new QueryRun(
                List.of("shard"),
                tee,
                Runnable::run,
                Runnable::run,
                sorts,
                QueryCaps.forCache(1L << 30),
                new ShardGenerations(1));
        byte[] line = "int main(void) {".getBytes(StandardCharsets.UTF_8);
        ByteBuf source = Unpooled.wrappedBuffer(line);
        ByteBuf frames = Unpooled.buffer();
        for (int i = 0; i < n; i++) {
            byte[] path = ("src/f" + i + ".c").getBytes(StandardCharsets.UTF_8);
            new ResultWriter(0)
                    .start("pkg".getBytes(StandardCharsets.UTF_8), path, source, 1, (i + 1f) / (n + 1f))
                    .match(0, line.length)
                    .range(0, 3)
                    .writeTo(frames);
        }
        source.release();
        run.ingest(0, frames, frames.readableBytes(), teed -> {});
        QueryCacheTest.finish(run);
        return run;
    }

    @Test
    void theFullSortWaitsForTheSortsPoolAndRanksPastTheFirstWaitForIt() throws Exception {
        int n = QueryRun.FIRST_RANKS + 500;
        try (QueryRun run = completedRun(n)) {
            assertThat(run.index().size()).isEqualTo(n);
            assertThat(sortsQueued).as("the writer handed the sort on").hasSize(1);
            assertThat(run.index().ordered()).isFalse();
            for (int rank = 0; rank < QueryRun.FIRST_RANKS; rank++) {
                assertThat(run.index().sorted(rank))
                        .as("first rank %d, before the sort", rank)
                        .isEqualTo(n - 1 - rank);
            }
            FutureTask<Integer> later = new FutureTask<>(() -> run.index().sorted(n - 1));
            Thread waiter = new Thread(later);
            waiter.start();
            while (waiter.getState() != Thread.State.WAITING) {
                assertThat(later)
                        .as("the last rank answered before the sort ran")
                        .isNotDone();
                Thread.sleep(1);
            }
            assertThat(later).isNotDone();
            sortsQueued.get(0).run();
            assertThat(later.get(10, TimeUnit.SECONDS)).isZero();
            assertThat(run.index().ordered()).isTrue();
            for (int rank = 0; rank < n; rank++) {
                assertThat(run.index().sorted(rank)).as("rank %d", rank).isEqualTo(n - 1 - rank);
            }
        }
    }

    @Test
    void aRunWithinTheFirstRanksIsOrderedWithoutASort() throws Exception {
        int n = 37;
        try (QueryRun run = completedRun(n)) {
            assertThat(run.index().ordered()).isTrue();
            assertThat(sortsQueued).as("nothing to sort").isEmpty();
            for (int rank = 0; rank < n; rank++) {
                assertThat(run.index().sorted(rank)).as("rank %d", rank).isEqualTo(n - 1 - rank);
            }
        }
    }
}
