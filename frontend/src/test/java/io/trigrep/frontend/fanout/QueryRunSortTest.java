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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A completed run's full sort is made by the first reader of a rank past the first ones, not by
 * its writer, whose pool every query's ingest shares; a run whose results all fit in the first
 * ranks needs none.
 */
@Timeout(60) // a rank that waits for a sort nobody runs fails here instead of hanging
class QueryRunSortTest {
    @TempDir
    Path dir;

    /** What the run's writer was handed: it runs each at once, and keeps a record of them. */
    private final List<Runnable> writes = new ArrayList<>();

    private final Executor writer = task -> {
        writes.add(task);
        task.run();
    };

    /** A one-shard run that has received {@code n} results, the later ones ranked higher, and its done frame. */
    private QueryRun completedRun(int n) throws Exception {
        TeeFile tee = new TeeFile(dir.resolve("run-" + n + ".tee"));
        QueryRun run = new QueryRun(
                List.of("shard"), tee, writer, writer, QueryCaps.forCache(1L << 30), new ShardGenerations(1));
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
    void theFirstRankPastTheFirstOnesMakesTheFullOrderOnItsReadersThread() throws Exception {
        int n = QueryRun.FIRST_RANKS + 500;
        try (QueryRun run = completedRun(n)) {
            assertThat(run.index().size()).isEqualTo(n);
            assertThat(run.index().ordered()).as("the writer sorted nothing").isFalse();
            int writesAtCompletion = writes.size();
            for (int rank = 0; rank < QueryRun.FIRST_RANKS; rank++) {
                assertThat(run.index().sorted(rank))
                        .as("first rank %d, before the sort", rank)
                        .isEqualTo(n - 1 - rank);
            }
            assertThat(run.index().ordered()).as("the first ranks need no sort").isFalse();
            assertThat(run.index().sorted(n - 1)).isZero();
            assertThat(run.index().ordered()).isTrue();
            assertThat(writes).as("the sort ran on the reader's thread").hasSize(writesAtCompletion);
            for (int rank = 0; rank < n; rank++) {
                assertThat(run.index().sorted(rank)).as("rank %d", rank).isEqualTo(n - 1 - rank);
            }
        }
    }

    @Test
    void readersPastTheFirstRanksAtOnceAllGetTheOneOrder() throws Exception {
        int n = QueryRun.FIRST_RANKS + 20_000;
        try (QueryRun run = completedRun(n)) {
            List<FutureTask<int[]>> readers = new ArrayList<>();
            CountDownLatch go = new CountDownLatch(1);
            for (int t = 0; t < 4; t++) {
                int from = QueryRun.FIRST_RANKS + t * 5_000;
                FutureTask<int[]> reader = new FutureTask<>(() -> {
                    go.await();
                    return run.index().sorted(from, from + 5_000);
                });
                readers.add(reader);
                new Thread(reader, "reader-" + t).start();
            }
            go.countDown();
            for (int t = 0; t < readers.size(); t++) {
                int[] got = readers.get(t).get(30, TimeUnit.SECONDS);
                int from = QueryRun.FIRST_RANKS + t * 5_000;
                for (int i = 0; i < got.length; i++) {
                    assertThat(got[i]).as("rank %d", from + i).isEqualTo(n - 1 - (from + i));
                }
            }
            assertThat(run.index().ordered()).isTrue();
        }
    }

    @Test
    void aRunWithinTheFirstRanksIsOrderedWithoutASort() throws Exception {
        int n = 37;
        try (QueryRun run = completedRun(n)) {
            assertThat(run.index().ordered())
                    .as("the first ranks are every result")
                    .isTrue();
            for (int rank = 0; rank < n; rank++) {
                assertThat(run.index().sorted(rank)).as("rank %d", rank).isEqualTo(n - 1 - rank);
            }
        }
    }
}
