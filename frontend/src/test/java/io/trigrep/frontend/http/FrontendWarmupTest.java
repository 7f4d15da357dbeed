package io.trigrep.frontend.http;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.backend.server.BackendConfig;
import io.trigrep.backend.server.BackendServer;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.indexer.format.Shard;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A frontend told to warm up is not ready until it has, replays its whole list, and leaves no query file behind. */
@Tag("integration")
class FrontendWarmupTest {
    /** A warm-up budget that the rounds end well within. */
    static final Duration BUDGET = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    private final List<BackendServer> backends = new ArrayList<>();
    private final List<InetSocketAddress> addresses = new ArrayList<>();
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void startBackends() throws Exception {
        for (Shard shard :
                TestShards.build(Path.of("../source-backend/src/test/resources/corpus"), dir.resolve("shards"), 2)) {
            BackendServer backend = new BackendServer(shard, BackendConfig.defaults());
            addresses.add(backend.start("127.0.0.1", 0));
            backends.add(backend);
        }
    }

    @AfterEach
    void stopBackends() {
        backends.forEach(BackendServer::close);
    }

    @Test
    void notReadyWhileWarmingThenReady() throws Exception {
        Path data = dir.resolve("data");
        try (FanOut fanOut = new FanOut(addresses, data, 2);
                FrontendServer server = new FrontendServer(fanOut, 8, new QueryCache(data, 64L << 20, 0))) {
            server.holdReadinessForWarmUp();
            InetSocketAddress address = server.start("127.0.0.1", 0);
            URI readyz = URI.create("http://127.0.0.1:" + address.getPort() + "/readyz");
            HttpResponse<String> before = get(readyz);
            assertThat(before.statusCode()).isEqualTo(503);
            assertThat(before.body()).contains("warming up");

            server.warmUp(BUDGET, new PrintStream(OutputStream.nullOutputStream()));

            assertThat(get(readyz).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void everyRoundReplaysTheWholeListAndOnlyTheCachedAnswersKeepTheirFiles() throws Exception {
        Path data = dir.resolve("data");
        QueryCache cache = new QueryCache(data, 64L << 20, 0);
        try (FanOut fanOut = new FanOut(addresses, data, 2);
                FrontendServer server = new FrontendServer(fanOut, 8, cache)) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            URI self = URI.create("http://127.0.0.1:" + address.getPort());
            FrontendWarmup.Outcome done = new FrontendWarmup(fanOut, self, System::nanoTime).run(BUDGET.toNanos());
            assertThat(done.rounds()).isEqualTo(FrontendWarmup.ROUNDS);
            // Four requests per query and the heavy search, every round; the test shards have no
            // symbols, so each round's sym: requests are refused, and only those.
            assertThat(done.ok() + done.failed())
                    .isEqualTo(FrontendWarmup.ROUNDS * (4 * FrontendWarmup.QUERIES.size() + 1));
            assertThat(done.failed()).isEqualTo(FrontendWarmup.ROUNDS * 4);
            // The fresh searches replaced earlier answers, whose files are removed off the request path.
            eventually(
                    "the replaced answers' files removed",
                    PATIENCE,
                    () -> assertThat(tees(data)).hasSizeLessThanOrEqualTo(cache.size()));
            assertThat(tees(data)).as("the warm-up's query files").hasSize(cache.size());
        }
    }

    /** Every search of the list keeps a few results, so that a round costs about the same on any corpus. */
    @Test
    void everyQueryIsCountedSoARoundFitsOnAnyCorpus() throws Exception {
        for (String query : FrontendWarmup.QUERIES) {
            assertThat(io.trigrep.query.QueryParser.parse(query, false).count())
                    .as(query)
                    .isEqualTo(FrontendWarmup.COUNT);
        }
    }

    @Test
    void warmingStopsAtItsBudget() throws Exception {
        Path data = dir.resolve("data");
        try (FanOut fanOut = new FanOut(addresses, data, 2);
                FrontendServer server = new FrontendServer(fanOut, 8, new QueryCache(data, 64L << 20, 0))) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            URI self = URI.create("http://127.0.0.1:" + address.getPort());
            AtomicLong clock = new AtomicLong(); // a second per reading: a budget of 5 s lasts a few requests
            FrontendWarmup.Outcome done =
                    new FrontendWarmup(fanOut, self, () -> clock.addAndGet(1_000_000_000L)).run(5_000_000_000L);
            assertThat(done.rounds()).isZero();
            assertThat(done.ok() + done.failed()).isBetween(1, 4);
        }
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<Path> tees(Path data) throws IOException {
        try (Stream<Path> files = Files.list(data)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".tee"))
                    .toList();
        }
    }
}
