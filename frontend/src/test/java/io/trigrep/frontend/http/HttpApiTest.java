package io.trigrep.frontend.http;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.frontend.fanout.FanOut;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The JSON API end to end: a real corpus in three shards, three backends and the frontend on loopback. */
@Tag("integration")
class HttpApiTest {
    static final Path CORPUS = Path.of("../source-backend/src/test/resources/corpus");
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static LoopbackCluster cluster;
    static String base;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        cluster = new LoopbackCluster(CORPUS, dir, 3);
        base = cluster.base;
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    static HttpResponse<String> get(String pathAndQuery) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + pathAndQuery)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(String pathAndQuery) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                        .POST(HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** The status code for a request line the JDK client would refuse to send (a malformed URL). */
    static int rawStatus(String target) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", Integer.parseInt(base.substring(base.lastIndexOf(':') + 1)))) {
            socket.getOutputStream()
                    .write(("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            String status = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            return Integer.parseInt(status.substring(9, 12));
        }
    }

    static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void pagesConcatenateToTheWholeOrderedList() throws Exception {
        HttpResponse<String> first = get("/api/v1/search?q=" + q("return") + "&per_page=7");
        assertThat(first.statusCode()).isEqualTo(200);
        JsonNode page0 = JSON.readTree(first.body());
        int total = page0.get("total_results").asInt();
        int pages = page0.get("pages").asInt();
        assertThat(total).isGreaterThan(20);
        assertThat(pages).isEqualTo((total + 6) / 7);
        assertThat(page0.get("partial").asBoolean()).isFalse();
        assertThat(page0.get("shards").get("successful").asInt()).isEqualTo(3);
        List<String> all = new ArrayList<>();
        double previous = Double.MAX_VALUE;
        for (int page = 0; page < pages; page++) {
            JsonNode body = JSON.readTree(get("/api/v1/search?query=" + q("return") + "&per_page=7&page=" + page)
                    .body());
            for (JsonNode r : body.get("results")) {
                all.add(r.get("package").asText() + "/" + r.get("path").asText() + ":"
                        + r.get("line").asInt());
                assertThat(r.get("ranking").asDouble()).isLessThanOrEqualTo(previous);
                previous = r.get("ranking").asDouble();
                String context = r.get("context").asText();
                JsonNode range = r.get("ranges").get(0);
                byte[] line = context.getBytes(StandardCharsets.UTF_8);
                assertThat(new String(
                                line,
                                range.get(0).asInt(),
                                range.get(1).asInt() - range.get(0).asInt(),
                                StandardCharsets.UTF_8))
                        .isEqualTo("return");
                assertThat(r.get("context_before").size()).isLessThanOrEqualTo(2);
            }
        }
        Set<String> unique = new HashSet<>(all);
        assertThat(all).hasSize(total);
        assertThat(unique).hasSize(total);
        JsonNode beyond = JSON.readTree(get("/api/v1/search?q=" + q("return") + "&per_page=7&page=" + pages)
                .body());
        assertThat(beyond.get("results")).isEmpty();
    }

    @Test
    void groupedPagesAndThePackageListAgreeWithTheFlatList() throws Exception {
        List<JsonNode> flat = new ArrayList<>();
        JsonNode page0 = JSON.readTree(
                get("/api/v1/search?q=" + q("int") + "&per_page=1000").body());
        page0.get("results").forEach(flat::add);
        assertThat(flat).hasSize(page0.get("total_results").asInt());
        java.util.LinkedHashMap<String, List<String>> byPackage = new java.util.LinkedHashMap<>();
        for (JsonNode r : flat) {
            byPackage
                    .computeIfAbsent(r.get("package").asText(), k -> new ArrayList<>())
                    .add(r.get("path").asText() + ":" + r.get("line").asInt());
        }
        JsonNode packages =
                JSON.readTree(get("/api/v1/packages?q=" + q("int")).body()).get("packages");
        assertThat(packages).hasSize(byPackage.size());
        for (JsonNode p : packages) {
            assertThat(p.get("results").asInt())
                    .isEqualTo(byPackage.get(p.get("package").asText()).size());
        }
        List<String> order = new ArrayList<>();
        int pages = JSON.readTree(get("/api/v1/search/packages?q=" + q("int") + "&per_page=2&per_package=3")
                        .body())
                .get("pages")
                .asInt();
        for (int page = 0; page < pages; page++) {
            JsonNode body = JSON.readTree(
                    get("/api/v1/search/packages?q=" + q("int") + "&per_page=2&per_package=3&page=" + page)
                            .body());
            for (JsonNode p : body.get("packages")) {
                String name = p.get("package").asText();
                order.add(name);
                List<String> expected = byPackage.get(name);
                assertThat(p.get("results_total").asInt()).isEqualTo(expected.size());
                List<String> got = new ArrayList<>();
                p.get("results")
                        .forEach(r -> got.add(
                                r.get("path").asText() + ":" + r.get("line").asInt()));
                assertThat(got).isEqualTo(expected.subList(0, Math.min(3, expected.size())));
            }
        }
        // Packages come in the order of their best result in the flat list.
        assertThat(order).containsExactlyElementsOf(byPackage.keySet());
    }

    @Test
    void fileContentsComeFromTheOwningBackend() throws Exception {
        for (String file : List.of(
                "zlib_1.2.13.dfsg-1/adler32.c", "lua5.4_5.4.4-3+deb12u1/src/lua.h", "synthetic_1.0/web/index.html")) {
            int slash = file.indexOf('/');
            HttpResponse<String> response = get(
                    "/api/v1/file?package=" + q(file.substring(0, slash)) + "&path=" + q(file.substring(slash + 1)));
            assertThat(response.statusCode()).as(file).isEqualTo(200);
            assertThat(JSON.readTree(response.body()).get("content").asText())
                    .isEqualTo(Files.readString(CORPUS.resolve(file), StandardCharsets.UTF_8));
        }
        assertThat(get("/api/v1/file?package=zlib_1.2.13.dfsg-1&path=nope.c").statusCode())
                .isEqualTo(404);
        assertThat(get("/api/v1/file?package=zlib_1.2.13.dfsg-1&path=" + q("../../etc/passwd"))
                        .statusCode())
                .isEqualTo(400);
        assertThat(get("/api/v1/file?package=zlib_1.2.13.dfsg-1&path=" + q("/etc/passwd"))
                        .statusCode())
                .isEqualTo(400);
        assertThat(get("/api/v1/file?package=..&path=x").statusCode()).isEqualTo(400);
        assertThat(get("/api/v1/file?path=x").statusCode()).isEqualTo(400);
    }

    @Test
    void waitFalseAnswersAtOnceWhileAQueryRuns() throws Exception {
        try (ServerSocket silent = new ServerSocket(0)) {
            Thread accept = new Thread(() -> {
                try (Socket s = silent.accept()) {
                    s.getInputStream().readAllBytes(); // silent until the frontend hangs up
                } catch (Exception ignored) {
                    // the test is over
                }
            });
            accept.setDaemon(true);
            accept.start();
            List<InetSocketAddress> withSilent = List.of(
                    cluster.fanOut.backends().get(0), new InetSocketAddress("127.0.0.1", silent.getLocalPort()));
            try (FanOut slow = new FanOut(withSilent, dir.resolve("data3"), 1);
                    FrontendServer server = new FrontendServer(slow, 2)) {
                InetSocketAddress at = server.start("127.0.0.1", 0);
                HttpResponse<String> response = http.send(
                        HttpRequest.newBuilder(URI.create(
                                        "http://127.0.0.1:" + at.getPort() + "/api/v1/search?q=return&wait=false"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(response.statusCode()).isEqualTo(200);
                JsonNode body = JSON.readTree(response.body());
                assertThat(body.get("status").asText()).isEqualTo("running");
                assertThat(body.get("shards").get("total").asInt()).isEqualTo(2);
                // Whatever the real backend sent by now is there, marked provisional; it may be nothing yet.
                assertThat(body.get("provisional").asBoolean()).isTrue();
                assertThat(body.get("results").size()).isLessThanOrEqualTo(10);
                for (JsonNode r : body.get("results")) {
                    assertThat(r.get("context").asText()).contains("return");
                }
                String port = "http://127.0.0.1:" + at.getPort();
                // The cancel below must find the real backend done and only the silent one running.
                JsonNode state = eventuallyGet("the real backend's shard done", PATIENCE, () -> {
                    JsonNode now = JSON.readTree(http.send(
                                    HttpRequest.newBuilder(URI.create(port + "/api/v1/search?q=return&wait=false"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body());
                    return now.get("shards").get("done").asInt() >= 1 ? now : null;
                });
                assertThat(state.get("status").asText()).isEqualTo("running");
                assertThat(state.get("shards").get("done").asInt())
                        .as("%s", state)
                        .isEqualTo(1);
                JsonNode running = JSON.readTree(http.send(
                                HttpRequest.newBuilder(URI.create(port + "/api/v1/queries"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body());
                assertThat(running.get("running").get(0).get("query").asText()).isEqualTo("return");
                HttpResponse<String> cancelled = http.send(
                        HttpRequest.newBuilder(URI.create(port + "/api/v1/queries/cancel?q=return"))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(cancelled.statusCode()).isEqualTo(200);
                JsonNode after = JSON.readTree(http.send(
                                HttpRequest.newBuilder(URI.create(port + "/api/v1/search?q=return"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body());
                assertThat(after.path("status").asText()).as("%s", after).isEqualTo("done");
                assertThat(after.get("partial").asBoolean()).isTrue();
                assertThat(after.get("shards")
                                .get("failed")
                                .get(0)
                                .get("reason")
                                .asText())
                        .isEqualTo("cancelled");
                assertThat(http.send(
                                        HttpRequest.newBuilder(URI.create(port + "/api/v1/queries/cancel?q=return"))
                                                .POST(HttpRequest.BodyPublishers.noBody())
                                                .build(),
                                        HttpResponse.BodyHandlers.ofString())
                                .statusCode())
                        .isEqualTo(404);

                // Events while a query runs: progress first (the silent backend keeps it running), done after the
                // cancel.
                HttpResponse<java.util.stream.Stream<String>> events = http.send(
                        HttpRequest.newBuilder(URI.create(port + "/api/v1/search/events?q=" + q("int")))
                                .build(),
                        HttpResponse.BodyHandlers.ofLines());
                java.util.Iterator<String> lines = events.body().iterator();
                assertThat(lines.next()).isEqualTo("event: progress");
                JsonNode progress = JSON.readTree(lines.next().substring(6));
                assertThat(progress.get("status").asText()).isEqualTo("running");
                assertThat(progress.get("shards_total").asInt()).isEqualTo(2);
                http.send(
                        HttpRequest.newBuilder(URI.create(port + "/api/v1/queries/cancel?q=int"))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                String last = null;
                while (lines.hasNext()) {
                    String line = lines.next();
                    if (line.startsWith("event: ")) {
                        last = line;
                    }
                }
                assertThat(last).isEqualTo("event: done");
            }
        }
    }

    @Test
    void eventsReportProgressThenDone() throws Exception {
        HttpResponse<String> response = get("/api/v1/search/events?q=" + q("return") + "&per_page=7&cache=false");
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type").orElse("")).startsWith("text/event-stream");
        List<String> events = new ArrayList<>();
        List<JsonNode> data = new ArrayList<>();
        String event = null;
        for (String line : response.body().split("\n")) {
            if (line.startsWith("event: ")) {
                event = line.substring(7);
            } else if (line.startsWith("data: ")) {
                events.add(event);
                data.add(JSON.readTree(line.substring(6)));
            }
        }
        assertThat(events).isNotEmpty();
        assertThat(events.get(events.size() - 1)).isEqualTo("done");
        JsonNode done = data.get(data.size() - 1);
        int total = JSON.readTree(get("/api/v1/search?q=" + q("return")).body())
                .get("total_results")
                .asInt();
        assertThat(done.get("total_results").asInt()).isEqualTo(total);
        assertThat(done.get("pages").asInt()).isEqualTo((total + 6) / 7);
        for (int i = 0; i < events.size() - 1; i++) {
            assertThat(events.get(i)).isEqualTo("progress");
            assertThat(data.get(i).get("shards_total").asInt()).isEqualTo(3);
        }
        // A late client (the query is finished and cached) gets the final state at once.
        HttpResponse<String> late = get("/api/v1/search/events?q=" + q("return"));
        assertThat(late.body()).startsWith("event: done");
        // A bad query ends in an error event.
        assertThat(get("/api/v1/search/events?q=" + q("foo(bar")).body())
                .contains("event: error")
                .contains("missing closing )");
    }

    @Test
    void aBadRegexIsA400WithThePosition() throws Exception {
        HttpResponse<String> response = get("/api/v1/search?q=" + q("foo(bar"));
        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode body = JSON.readTree(response.body());
        assertThat(body.get("error").asText()).contains("missing closing )");
        assertThat(body.get("position").asInt()).isEqualTo(4);
        // Blanks before the query count: the position is in the text as sent.
        HttpResponse<String> indented = get("/api/v1/search?q=" + q("  foo(bar"));
        assertThat(JSON.readTree(indented.body()).get("position").asInt()).isEqualTo(6);
        // Issue 15: refused by the frontend with the backends' own check, before any backend was
        // asked; a user's bad regex is never a backend failure for the alert rules
        String metrics = get("/metrics").body();
        assertThat(metrics)
                .doesNotContain("reason=\"bad_query\"")
                .doesNotContain("trigrep_backend_failures_total{reason=\"error\"");
    }

    @Test
    void hostileRequestsGetClear4xxAnswers() throws Exception {
        assertThat(get("/api/v1/search").statusCode()).isEqualTo(400);
        assertThat(get("/api/v1/search?q=x&page=-1").statusCode()).isEqualTo(400);
        assertThat(get("/api/v1/search?q=x&per_page=100000").statusCode()).isEqualTo(400);
        // A page whose first rank does not fit in an int (it overflowed to a negative rank and a 500).
        assertThat(get("/api/v1/search?q=x&page=2147483647").statusCode()).isEqualTo(400);
        assertThat(get("/api/v1/search?q=x&page=214748364&per_page=100").statusCode())
                .isEqualTo(400);
        assertThat(get("/api/v1/search/packages?q=x&page=1073741823&per_page=2").statusCode())
                .isEqualTo(400);
        assertThat(get("/api/v1/search?q=x&page=abc").statusCode()).isEqualTo(400);
        assertThat(get("/api/v1/search?q=x&match_mode=fuzzy").statusCode()).isEqualTo(400);
        assertThat(rawStatus("/api/v1/search?q=%zz")).isEqualTo(400);
        // Percent escapes that decode to bytes that are not UTF-8 (an overlong '/', a lone 0xff).
        HttpResponse<String> overlong = get("/api/v1/search?q=%c0%af");
        assertThat(overlong.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(overlong.body()).get("error").asText()).contains("not UTF-8");
        assertThat(get("/api/v1/search?q=a%ffb").statusCode()).isEqualTo(400);
        assertThat(get("/api/v1/search?q=caf%C3%A9").statusCode())
                .as("valid UTF-8 escapes")
                .isEqualTo(200);
        assertThat(get("/no/such/thing").statusCode()).isEqualTo(404);
        assertThat(get("/api/v1/search?q=return&unknown=1").statusCode()).isEqualTo(200);
        HttpResponse<String> post = http.send(
                HttpRequest.newBuilder(URI.create(base + "/api/v1/search?q=x"))
                        .POST(HttpRequest.BodyPublishers.ofString("{}"))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("allow")).hasValue("GET, HEAD");
        HttpResponse<String> getCancel = get("/api/v1/queries/cancel?q=x");
        assertThat(getCancel.statusCode()).isEqualTo(405);
        assertThat(getCancel.headers().firstValue("allow")).hasValue("POST");
        assertThat(get("/api/v1/queries/%63ancel?q=x").statusCode())
                .as("the route as decoded")
                .isEqualTo(405);
        assertThat(get("/api/v1/queries/cancelXYZ").statusCode())
                .as("no such route")
                .isEqualTo(404);
        assertThat(post("/api/v1/queries/cancel?q=a&match_mode=bogus").statusCode())
                .isEqualTo(400);
        assertThat(post("/api/v1/queries/cancel").statusCode()).isEqualTo(400);
        assertThat(post("/api/v1/queries/cancel?q=not+running").statusCode()).isEqualTo(404);
        // A 10 MB request line, sent raw: refused, and the server keeps serving.
        try (Socket socket = new Socket("127.0.0.1", Integer.parseInt(base.substring(base.lastIndexOf(':') + 1)))) {
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/v1/search?q=" + "a".repeat(10 << 20) + " HTTP/1.1\r\nHost: x\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String status = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            assertThat(status).startsWith("HTTP/1.1 4");
        } catch (java.net.SocketException reset) {
            // the server may close before reading it all; what matters is that it keeps serving
        }
        assertThat(get("/healthz").statusCode()).isEqualTo(200);
    }

    @Test
    void metricsInBaseUnitsAfterAFewQueries() throws Exception {
        for (String query : List.of("return", "int", "(?i)hello")) {
            assertThat(get("/api/v1/search?q=" + q(query)).statusCode()).isEqualTo(200);
        }
        HttpResponse<String> metrics = get("/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.headers().firstValue("content-type").orElse("")).startsWith("text/plain");
        String text = metrics.body();
        assertThat(text)
                .contains(
                        "# HELP trigrep_query_duration_seconds",
                        "trigrep_query_duration_seconds_bucket{le=",
                        "trigrep_query_first_result_seconds_bucket",
                        "trigrep_query_results_bucket",
                        "trigrep_backend_duration_seconds_bucket",
                        "trigrep_backend_received_bytes_total",
                        "trigrep_queries_in_flight",
                        "jvm_memory_used_bytes",
                        "process_cpu_usage");
        long count = text.lines()
                .filter(l -> l.startsWith("trigrep_query_duration_seconds_count"))
                .mapToLong(l -> (long) Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
        assertThat(count).isGreaterThanOrEqualTo(3);
    }

    static double metric(String name) throws Exception {
        return get("/metrics")
                .body()
                .lines()
                .filter(l -> l.startsWith(name + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                .sum();
    }

    @Test
    void identicalQueriesAreServedFromTheStoreUnlessCacheIsFalse() throws Exception {
        String first = get("/api/v1/search?q=" + q("lua_State")).body();
        double hits = metric("trigrep_cache_hits_total");
        double misses = metric("trigrep_cache_misses_total");
        String again = get("/api/v1/search?q=" + q("lua_State") + "&page=0").body();
        assertThat(metric("trigrep_cache_hits_total")).isEqualTo(hits + 1);
        assertThat(JSON.readTree(again).get("results"))
                .isEqualTo(JSON.readTree(first).get("results"));
        get("/api/v1/search?q=" + q("lua_State") + "&cache=false");
        assertThat(metric("trigrep_cache_misses_total")).isEqualTo(misses + 1);
        assertThat(metric("trigrep_store_used_bytes")).isPositive();
        assertThat(metric("trigrep_tee_buffers_bytes"))
                .as("the pool keeps a tee's buffer")
                .isPositive();
    }

    @Test
    void healthAndReadiness() throws Exception {
        assertThat(get("/healthz").statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(get("/readyz").body()).get("status").asText()).isEqualTo("ready");
        int dead;
        try (ServerSocket closed = new ServerSocket(0)) {
            dead = closed.getLocalPort();
        }
        List<InetSocketAddress> withDead = new ArrayList<>(cluster.fanOut.backends());
        withDead.add(new InetSocketAddress("127.0.0.1", dead));
        try (FanOut partial = new FanOut(withDead, dir.resolve("data2"), 1);
                FrontendServer server = new FrontendServer(partial, 2)) {
            InetSocketAddress at = server.start("127.0.0.1", 0);
            HttpResponse<String> ready = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + "/readyz"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).contains("127.0.0.1:" + dead);
            HttpResponse<String> partialReady = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + "/readyz?partial=true"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(partialReady.statusCode()).isEqualTo(200);
            assertThat(partialReady.body()).contains("ready, partial").contains("127.0.0.1:" + dead);
            HttpResponse<String> search = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + "/api/v1/search?q=return"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            JsonNode body = JSON.readTree(search.body());
            assertThat(search.statusCode()).isEqualTo(200);
            assertThat(body.get("partial").asBoolean()).isTrue();
            assertThat(body.get("shards").get("failed").get(0).get("shard").asText())
                    .isEqualTo("127.0.0.1:" + dead);
            String metrics = http.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + "/metrics"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            assertThat(metrics)
                    .contains(
                            "trigrep_backend_failures_total{reason=\"connect\",shard=\"127.0.0.1:" + dead + "\"} 1.0");
        }
    }
}
