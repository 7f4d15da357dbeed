package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.backend.server.BackendConfig;
import io.trigrep.backend.server.BackendServer;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.indexer.format.Shard;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A frontend told to warm up is not ready until it has, and leaves no query file behind. */
class FrontendWarmupTest {
    @TempDir
    Path dir;

    @Test
    void notReadyWhileWarmingThenReadyWithItsAnswersAndOneSpareTeeOnDisk() throws Exception {
        List<BackendServer> backends = new ArrayList<>();
        List<InetSocketAddress> addresses = new ArrayList<>();
        long shardFiles = 0;
        for (Shard shard :
                TestShards.build(Path.of("../source-backend/src/test/resources/corpus"), dir.resolve("shards"), 2)) {
            shardFiles += shard.docs().docCount();
            BackendServer backend = new BackendServer(shard, BackendConfig.defaults());
            addresses.add(backend.start("127.0.0.1", 0));
            backends.add(backend);
        }
        Path data = dir.resolve("data");
        HttpClient http = HttpClient.newHttpClient();
        // A quarter of it is a query's cap, and the spare tee the warm-up ends by writing.
        QueryCache cache = new QueryCache(data, 64L << 20, 0);
        try (FanOut fanOut = new FanOut(addresses, data, 2);
                FrontendServer server = new FrontendServer(fanOut, 8, cache)) {
            server.holdReadinessForWarmUp();
            InetSocketAddress address = server.start("127.0.0.1", 0);
            URI readyz = URI.create("http://127.0.0.1:" + address.getPort() + "/readyz");
            HttpResponse<String> before =
                    http.send(HttpRequest.newBuilder(readyz).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(before.statusCode()).isEqualTo(503);
            assertThat(before.body()).contains("warming up");

            ByteArrayOutputStream log = new ByteArrayOutputStream();
            server.warmUp(Duration.ofSeconds(15), new PrintStream(log, true, StandardCharsets.UTF_8));

            // How far the rounds and the small requests get depends on the machine's speed (a busy
            // one spends the rounds' share of the budget and sends fewer small requests); that
            // they ran, and stopped for a reason the warm-up gives, does not.
            String said = log.toString(StandardCharsets.UTF_8);
            java.util.regex.Matcher done = java.util.regex.Pattern.compile(
                            "frontend: warmed up, \\d+ rounds, .*stopped: (no faster|their share of the budget)\\),"
                                    + " then (\\d+) small requests for \"(\\w+)\"(, \"\\w+\")* \\(median .* at best; stopped:"
                                    + " (settled|the budget|the request cap)\\)")
                    .matcher(said);
            assertThat(done.find()).as(said).isTrue();
            assertThat(Integer.parseInt(done.group(2))).isBetween(1, 2 * FrontendWarmup.MAX_STEPS);
            // Before them, a quiet spell rehearsed: every idle connection to a backend pinged and
            // answered (at least one per backend, the rounds' last), pool workers timed out.
            java.util.regex.Matcher quiet = java.util.regex.Pattern.compile(
                            "frontend: rehearsed a quiet spell before the small requests: (\\d+) pool workers timed"
                                    + " out, (\\d+) of (\\d+) idle backend connections answered a ping, in \\d+ ms")
                    .matcher(said);
            assertThat(quiet.find()).as(said).isTrue();
            // All of them unless the machine stalled a worker for a second (the rehearsal then stops early).
            assertThat(Integer.parseInt(quiet.group(1)))
                    .isBetween(1, FrontendWarmup.WORKERS_TIMED_OUT * IdleWorkers.QUEUES.size());
            assertThat(Integer.parseInt(quiet.group(3))).isGreaterThanOrEqualTo(backends.size());
            assertThat(quiet.group(2)).isEqualTo(quiet.group(3));
            // The selective query comes from the corpus and finds a few of its lines, as a user's does.
            String selective = done.group(3);
            HttpResponse<String> found = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort()
                                    + "/api/v1/search?match_mode=literal&q=" + selective))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            java.util.regex.Matcher total =
                    java.util.regex.Pattern.compile("\"total_results\":(\\d+)").matcher(found.body());
            assertThat(total.find()).as(found.body()).isTrue();
            assertThat(Integer.parseInt(total.group(1))).as(selective).isBetween(1, 100);
            assertThat(http.send(HttpRequest.newBuilder(readyz).build(), HttpResponse.BodyHandlers.ofString())
                            .statusCode())
                    .isEqualTo(200);
            // The capped searches delete their files. The queries it asked over HTTP (the
            // selective ones and two that find nothing, for the API and the web UI) and the
            // literal asked just now are cached answers like any other, each with its one file;
            // the fresh ones they replaced are removed off the request path: wait for the remover.
            assertThat(cache.size()).as("cached answers").isBetween(2, 2 * (FrontendWarmup.SELECTIVE_QUERIES + 2) + 1);
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            List<Path> tees = tees(data);
            while (tees.size() > cache.size() && System.nanoTime() - until < 0) {
                Thread.sleep(20);
                tees = tees(data);
            }
            assertThat(tees).as("the warm-up's query files").hasSize(cache.size());
            assertThat(said).contains("frontend: wrote a spare tee of 16 MiB in ");
            // Then every file of both shards was read, the last thing before ready.
            java.util.regex.Matcher pass = java.util.regex.Pattern.compile(
                            "frontend: read every file last: (\\d+) of the shards' (\\d+) files in \\d+ ms")
                    .matcher(said);
            assertThat(pass.find()).as(said).isTrue();
            assertThat(pass.group(1)).isEqualTo(pass.group(2));
            assertThat(Long.parseLong(pass.group(2))).isEqualTo(shardFiles);
            assertThat(said.indexOf("frontend: read every file last")).isGreaterThan(said.indexOf("spare tee"));
            try (Stream<Path> files = Files.list(data)) {
                assertThat(files.filter(p -> p.getFileName().toString().startsWith("spare-")))
                        .as("one spare tee, the size of a query's cap, for the first large answer to write over")
                        .singleElement()
                        .satisfies(p -> assertThat(Files.size(p)).isEqualTo(16L << 20));
            }
        } finally {
            backends.forEach(BackendServer::close);
        }
    }

    @Test
    void selectiveQueriesAreThoseSearchingFewestFilesThenQuickest() {
        List<FrontendWarmup.Probe> probes = List.of(
                new FrontendWarmup.Probe("in_many_files_fast", 12, 131, 1_000_000),
                new FrontendWarmup.Probe("finds_nothing", 0, 0, 100_000),
                new FrontendWarmup.Probe("finds_too_much", 101, 2, 100_000),
                new FrontendWarmup.Probe("in_three_files", 40, 3, 9_000_000),
                new FrontendWarmup.Probe("in_two_files_slow", 7, 2, 8_000_000),
                new FrontendWarmup.Probe("in_two_files_quick", 90, 2, 2_000_000));
        assertThat(FrontendWarmup.choose(probes))
                .hasSize(FrontendWarmup.SELECTIVE_QUERIES)
                .containsExactly("in_two_files_quick", "in_two_files_slow", "in_three_files");
        assertThat(FrontendWarmup.choose(probes.subList(0, 3))).containsExactly("in_many_files_fast");
        assertThat(FrontendWarmup.choose(List.of())).isEmpty();
    }

    private static List<Path> tees(Path data) throws java.io.IOException {
        try (Stream<Path> files = Files.list(data)) {
            return files.filter(p -> p.toString().endsWith(".tee")
                            && !p.getFileName().toString().startsWith("spare-"))
                    .toList();
        }
    }
}
