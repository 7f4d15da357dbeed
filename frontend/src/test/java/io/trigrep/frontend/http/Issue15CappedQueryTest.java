package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.fanout.QueryCaps;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 15, bounded results: a full scan over a corpus of many files stops at the per-query cap
 * on results, or on bytes, says so in {@code capped}, and gives the same pages, byte for byte,
 * every time it runs afresh, although three backends (each searching with several threads when
 * uncapped) race to deliver.
 */
@Tag("integration")
class Issue15CappedQueryTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient http = HttpClient.newHttpClient();
    static final int MAX_RESULTS = 3000;
    static final long MAX_BYTES = 150_000;

    @TempDir
    static Path dir;

    static LoopbackCluster cluster;
    static final List<AutoCloseable> closing = new ArrayList<>();
    static String resultsCapped;
    static String bytesCapped;

    @BeforeAll
    static void start() throws Exception {
        Path corpus = dir.resolve("corpus");
        Random random = new Random(15);
        String[] words = {"alpha", "beta", "gamma", "delta", "value", "count", "buffer", "index", "state", "lock"};
        // 3 packages of 150 files of 40 lines: chunks of files searched at once by a backend's threads.
        for (int p = 0; p < 3; p++) {
            for (int f = 0; f < 150; f++) {
                StringBuilder text = new StringBuilder();
                for (int line = 0; line < 40; line++) {
                    text.append(" ".repeat(random.nextInt(4) * 4))
                            .append(words[random.nextInt(words.length)])
                            .append(' ')
                            .append(words[random.nextInt(words.length)])
                            .append("(")
                            .append(line)
                            .append(");\n");
                }
                Path file = corpus.resolve("pkg" + p + "_1.0/src/dir" + f % 7 + "/file" + f + ".c");
                Files.createDirectories(file.getParent());
                Files.writeString(file, text);
            }
        }
        cluster = new LoopbackCluster(corpus, dir, 3);
        resultsCapped = frontend("results", new QueryCaps(MAX_RESULTS, 1L << 30));
        bytesCapped = frontend("bytes", new QueryCaps(1_000_000, MAX_BYTES));
    }

    static String frontend(String name, QueryCaps caps) throws Exception {
        FanOut fanOut = new FanOut(cluster.addresses, dir.resolve("data-" + name), 2);
        FrontendServer server = new FrontendServer(
                fanOut,
                new SearchLimits(8, 8, 8, "", caps),
                new QueryCache(dir.resolve("data-" + name), 1L << 30, 0),
                ConnectionLimits.defaults());
        closing.add(server);
        closing.add(fanOut);
        return "http://127.0.0.1:" + server.start("127.0.0.1", 0).getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : closing) {
            c.close();
        }
        cluster.close();
    }

    /** The answer, run afresh, without its one field that is about time. */
    static JsonNode fresh(String base, String path) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(base + path + "&cache=false")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(path).isEqualTo(200);
        ObjectNode body = (ObjectNode) JSON.readTree(response.body());
        body.remove("elapsed_seconds");
        return body;
    }

    @ParameterizedTest(name = "capped by {0}")
    @ValueSource(strings = {"results", "bytes"})
    void aCappedQuerySaysSoAndGivesTheSamePagesEveryTime(String cap) throws Exception {
        String base = cap.equals("results") ? resultsCapped : bytesCapped;
        String q = "/api/v1/search?q=" + URLEncoder.encode("[a-z]+\\(", StandardCharsets.UTF_8) + "&per_page=100";
        JsonNode first = fresh(base, q);
        assertThat(first.get("partial").asBoolean()).isFalse();
        assertThat(first.get("capped").get("reason").asText()).isEqualTo(cap);
        int total = first.get("total_results").asInt();
        if (cap.equals("results")) {
            assertThat(first.get("capped").get("limit").asLong()).isEqualTo(MAX_RESULTS);
            assertThat(total).isEqualTo(MAX_RESULTS); // every shard has more than its 1,000
        } else {
            assertThat(first.get("capped").get("limit").asLong()).isEqualTo(MAX_BYTES);
            assertThat(total).isBetween(100, 18_000 - 1);
        }
        int pages = first.get("pages").asInt();
        List<String> asked = List.of(
                q + "&page=0",
                q + "&page=1",
                q + "&page=" + pages / 2,
                q + "&page=" + (pages - 1),
                "/api/v1/search/packages?q=" + URLEncoder.encode("[a-z]+\\(", StandardCharsets.UTF_8)
                        + "&per_page=2&page=1",
                "/api/v1/packages?q=" + URLEncoder.encode("[a-z]+\\(", StandardCharsets.UTF_8));
        List<String> once = new ArrayList<>();
        for (String path : asked) {
            once.add(fresh(base, path).toString());
        }
        for (int run = 0; run < 2; run++) {
            for (int i = 0; i < asked.size(); i++) {
                assertThat(fresh(base, asked.get(i)).toString())
                        .as("run %d of %s", run, asked.get(i))
                        .isEqualTo(once.get(i));
            }
        }
        assertThat(once.get(0)).isEqualTo(first.toString());
        assertThat(JSON.readTree(once.get(3)).get("results").size()).isPositive();

        // The progress stream's last event and the web UI's page say it too.
        String events = http.send(
                        HttpRequest.newBuilder(URI.create(base + "/api/v1/search/events?q="
                                        + URLEncoder.encode("[a-z]+\\(", StandardCharsets.UTF_8)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        assertThat(events).contains("event: done").contains("\"capped\":{\"reason\":\"" + cap + "\"");
        String page = http.send(
                        HttpRequest.newBuilder(URI.create(
                                        base + "/search?q=" + URLEncoder.encode("[a-z]+\\(", StandardCharsets.UTF_8)))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        assertThat(page)
                .contains("id=\"capped\"")
                .contains(cap.equals("results") ? "the cap of 3,000 results" : "of results per query");
    }

    /**
     * {@code count:N} is a cap of the query's own: below the server's it keeps the first N results
     * of the same order (a subset of the server-capped answer), says so, and is a query of its
     * own in the cache; above the server's, the server's cap holds.
     */
    @org.junit.jupiter.api.Test
    void countKeepsTheFirstResultsAndSaysSo() throws Exception {
        String pattern = URLEncoder.encode("[a-z]+\\(", StandardCharsets.UTF_8);
        String counted = URLEncoder.encode("[a-z]+\\( count:50", StandardCharsets.UTF_8);
        JsonNode capped = fresh(resultsCapped, "/api/v1/search?q=" + pattern + "&per_page=100");
        JsonNode first = fresh(resultsCapped, "/api/v1/search?q=" + counted + "&per_page=100");
        assertThat(first.get("total_results").asInt()).isEqualTo(50);
        assertThat(first.get("capped").get("reason").asText()).isEqualTo("count");
        assertThat(first.get("capped").get("limit").asLong()).isEqualTo(50);
        assertThat(fresh(resultsCapped, "/api/v1/search?q=" + counted + "&per_page=100"))
                .isEqualTo(first);
        java.util.Set<String> all = new java.util.HashSet<>();
        for (int page = 0; page < capped.get("pages").asInt(); page++) {
            JsonNode answer = page == 0
                    ? capped
                    : fresh(resultsCapped, "/api/v1/search?q=" + pattern + "&per_page=100&page=" + page);
            for (JsonNode r : answer.get("results")) {
                all.add(r.get("package").asText() + "/" + r.get("path").asText() + ":"
                        + r.get("line").asInt());
            }
        }
        assertThat(all).hasSize(MAX_RESULTS);
        for (JsonNode r : first.get("results")) {
            assertThat(all)
                    .contains(r.get("package").asText() + "/" + r.get("path").asText() + ":"
                            + r.get("line").asInt());
        }
        // Cached, each text is its own query.
        JsonNode plainCached = JSON.readTree(http.send(
                        HttpRequest.newBuilder(URI.create(resultsCapped + "/api/v1/search?q=" + pattern))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body());
        assertThat(plainCached.get("total_results").asInt()).isEqualTo(MAX_RESULTS);

        String page = http.send(
                        HttpRequest.newBuilder(URI.create(resultsCapped + "/search?q=" + counted))
                                .build(),
                        HttpResponse.BodyHandlers.ofString())
                .body();
        assertThat(page).contains("id=\"capped\"").contains("keeps its first 50, as its <code>count:</code> asks");

        // Each of the 3 shards keeps at least one result: count:1 keeps 3, and says so.
        JsonNode one = fresh(
                resultsCapped, "/api/v1/search?q=" + URLEncoder.encode("[a-z]+\\( count:1", StandardCharsets.UTF_8));
        assertThat(one.get("total_results").asInt()).isEqualTo(3);
        assertThat(one.get("capped").get("reason").asText()).isEqualTo("count");
        assertThat(one.get("capped").get("limit").asLong()).isEqualTo(3);

        JsonNode above = fresh(
                resultsCapped,
                "/api/v1/search?q=" + URLEncoder.encode("[a-z]+\\( count:10000", StandardCharsets.UTF_8));
        assertThat(above.get("capped").get("reason").asText()).isEqualTo("results");
        assertThat(above.get("capped").get("limit").asLong()).isEqualTo(MAX_RESULTS);

        HttpResponse<String> bad = http.send(
                HttpRequest.newBuilder(URI.create(resultsCapped + "/api/v1/search?q="
                                + URLEncoder.encode("[a-z]+\\( count:lots", StandardCharsets.UTF_8)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(bad.body()).contains("count: takes the number of results to keep");
    }
}
