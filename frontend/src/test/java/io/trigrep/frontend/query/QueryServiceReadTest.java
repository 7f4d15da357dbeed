package io.trigrep.frontend.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.http.LoopbackCluster;
import io.trigrep.proto.Response;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A page's results read with one call over their span are the results read one by one. */
@Tag("integration")
class QueryServiceReadTest {
    @TempDir
    Path dir;

    @Test
    void aPageReadAsOneSpanEqualsItsResultsReadOneByOne() throws Exception {
        try (LoopbackCluster cluster =
                        new LoopbackCluster(Path.of("../source-backend/src/test/resources/corpus"), dir, 2);
                QueryRun run = cluster.fanOut.search("return|include", false, 2, Duration.ofSeconds(30))) {
            run.completion().get(30, TimeUnit.SECONDS);
            int total = run.index().size();
            assertThat(total).as("results to page through").isGreaterThan(100);
            Random random = new Random(11);
            for (int trial = 0; trial < 200; trial++) {
                int[] results = new int[1 + random.nextInt(60)];
                for (int i = 0; i < results.length; i++) {
                    // ranks in sorted order (a page) and scattered ones (a provisional page)
                    results[i] =
                            trial % 2 == 0 ? run.index().sorted(Math.min(total - 1, trial + i)) : random.nextInt(total);
                }
                int from = random.nextInt(results.length);
                int to = from + random.nextInt(results.length - from + 1);
                // a span limit below the whole page's span as well as above it: both ways are taken
                long maxSpan = trial % 3 == 0 ? 64 : 1 << 20;
                StoredResult[] read = QueryService.read(run, java.util.Arrays.copyOfRange(results, from, to), maxSpan);
                assertThat(read).hasSize(to - from);
                for (int i = from; i < to; i++) {
                    assertThat(describe(read[i - from]))
                            .as("result %d of trial %d", i, trial)
                            .isEqualTo(describe(QueryService.read(run, results[i])));
                }
            }
        }
    }

    private static String describe(StoredResult stored) {
        Response.Reader r = stored.response();
        if (r.which() == Response.Which.FILE_RESULTS) {
            io.trigrep.proto.FileResultsIndex file = stored.file();
            int at = file.match(stored.match()).getLine();
            return "line " + file.pkg() + "/" + file.path() + ":" + file.number(at) + " "
                    + file.match(stored.match()).getRanking() + " "
                    + new String(file.text(at), java.nio.charset.StandardCharsets.UTF_8);
        }
        if (r.which() == Response.Which.RESULT) {
            io.trigrep.proto.Result.Reader line = r.getResult();
            return "line " + line.getPackage() + "/" + line.getPath() + ":" + Integer.toUnsignedLong(line.getLine())
                    + " " + line.getRanking() + " "
                    + line.getContext();
        }
        io.trigrep.proto.FileMatch.Reader file = r.getFileMatch();
        return "file " + file.getPackage() + "/" + file.getPath() + " " + file.getBytes();
    }
}
