package io.trigrep.frontend.http;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.fanout.QueryCaps;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, admission: a flood of empty-match regexes and full scans, and one client's excess,
 * leave every other client's queries answering. Three real backends, one behind a {@link Gate}:
 * while the gate holds, every new search stays running, holding its slots, for as long as the
 * test wants, so who is admitted is decided by the slots alone, never by timing.
 */
@Tag("integration")
class Issue15AdmissionTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient http = HttpClient.newHttpClient();
    /** Loopback is the trusted proxy of {@link #trusting}: X-Forwarded-For names the client there. */
    static final SearchLimits TRUSTING = new SearchLimits(8, 2, 2, "127.0.0.1", new QueryCaps(900, 1L << 30));
    /** Trusts a proxy block the tests never come from: the header is ignored, every request is loopback's. */
    static final SearchLimits UNTRUSTING = new SearchLimits(8, 2, 1, "10.0.0.0/8", new QueryCaps(900, 1L << 30));

    @TempDir
    static Path dir;

    static LoopbackCluster cluster;
    static Gate gate;
    static FanOut trustingFanOut;
    static FanOut untrustingFanOut;
    static FrontendServer trusting;
    static FrontendServer untrusting;
    static String trustingBase;
    static String untrustingBase;

    @BeforeAll
    static void start() throws Exception {
        cluster = new LoopbackCluster(HttpApiTest.CORPUS, dir, 3);
        gate = new Gate(cluster.addresses.get(2));
        List<InetSocketAddress> gated = List.of(cluster.addresses.get(0), cluster.addresses.get(1), gate.address());
        trustingFanOut = new FanOut(gated, dir.resolve("data-trusting"), 2);
        trusting = new FrontendServer(
                trustingFanOut,
                TRUSTING,
                new QueryCache(dir.resolve("data-trusting"), 1L << 30, 0),
                ConnectionLimits.defaults());
        trustingBase = "http://127.0.0.1:" + trusting.start("127.0.0.1", 0).getPort();
        untrustingFanOut = new FanOut(gated, dir.resolve("data-untrusting"), 2);
        untrusting = new FrontendServer(
                untrustingFanOut,
                UNTRUSTING,
                new QueryCache(dir.resolve("data-untrusting"), 1L << 30, 0),
                ConnectionLimits.defaults());
        untrustingBase = "http://127.0.0.1:" + untrusting.start("127.0.0.1", 0).getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        gate.open();
        trusting.close();
        untrusting.close();
        trustingFanOut.close();
        untrustingFanOut.close();
        gate.close();
        cluster.close();
    }

    static HttpResponse<String> get(String base, String pathAndQuery, String forwardedFor) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + pathAndQuery));
        if (forwardedFor != null) {
            request.header("X-Forwarded-For", forwardedFor);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    static String search(String query, String options) {
        return "/api/v1/search?q=" + URLEncoder.encode(query, StandardCharsets.UTF_8) + options;
    }

    static double metric(String base, String line) throws Exception {
        for (String l : get(base, "/metrics", null).body().split("\n")) {
            if (l.startsWith(line + " ")) {
                return Double.parseDouble(l.substring(line.length() + 1));
            }
        }
        return 0;
    }

    @Test
    void anEmptyMatchFloodAndOneGreedyClientLeaveOtherClientsAnswered() throws Exception {
        // A selective query, finished and cached before the flood.
        HttpResponse<String> cachedFirst = get(trustingBase, search("return", ""), "203.0.113.50");
        assertThat(cachedFirst.statusCode()).isEqualTo(200);
        int cachedTotal = JSON.readTree(cachedFirst.body()).get("total_results").asInt();
        assertThat(cachedTotal).isPositive();

        gate.hold();
        int clients = 6;
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch flooding = new CountDownLatch(clients * 3);
        Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        List<String> surprises = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> flood = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            String address = "198.51.100." + (c + 1);
            Thread t = new Thread(
                    () -> {
                        String[] queries = {"x?", "()", "."};
                        for (int i = 0; !stop.get(); i++) {
                            String q = queries[i % 3];
                            try {
                                // Every full scan a new search (a filter makes each one its own query), each held by
                                // the gate once admitted.
                                String asked = q.equals(".") ? ". path:" + address + "/" + i : q;
                                HttpResponse<String> r = get(trustingBase, search(asked, "&wait=false"), address);
                                JsonNode body = JSON.readTree(r.body());
                                String outcome = q + " " + r.statusCode();
                                if (r.statusCode() == 400) {
                                    if (!body.get("error")
                                            .asText()
                                            .startsWith(
                                                    "the regex matches the empty string, so every line of every file")) {
                                        surprises.add(outcome + " " + r.body());
                                    }
                                } else if (r.statusCode() == 429) {
                                    outcome += " " + body.get("error").asText().replaceAll(" \\(.*", "");
                                    if (!"1"
                                            .equals(r.headers()
                                                    .firstValue("Retry-After")
                                                    .orElse(null))) {
                                        surprises.add(outcome + " without Retry-After");
                                    }
                                }
                                outcomes.computeIfAbsent(outcome, k -> new AtomicInteger())
                                        .incrementAndGet();
                            } catch (Exception e) {
                                surprises.add(q + " " + e);
                            }
                            flooding.countDown();
                        }
                    },
                    "flood-" + c);
            t.setDaemon(true);
            flood.add(t);
            t.start();
        }
        assertThat(flooding.await(30, TimeUnit.SECONDS)).isTrue();

        // During the flood: the cached query answers at once, even to a client at its share.
        long started = System.nanoTime();
        HttpResponse<String> cached = get(trustingBase, search("return", ""), "203.0.113.7");
        long cachedNanos = System.nanoTime() - started;
        assertThat(cached.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(cached.body()).get("total_results").asInt()).isEqualTo(cachedTotal);

        // One client's excess is refused; another client is admitted.
        assertThat(get(trustingBase, search("static", "&wait=false"), "203.0.113.7")
                        .statusCode())
                .isEqualTo(200);
        assertThat(get(trustingBase, search("define", "&wait=false"), "203.0.113.7")
                        .statusCode())
                .isEqualTo(200);
        HttpResponse<String> excess = get(trustingBase, search("lua_State", "&wait=false"), "203.0.113.7");
        assertThat(excess.statusCode()).isEqualTo(429);
        assertThat(excess.headers().firstValue("Retry-After")).contains("1");
        assertThat(excess.body()).contains("share per client");
        // What the client writes to the left of the proxy's entry is not believed: still the same client.
        assertThat(get(trustingBase, search("lua_State", "&wait=false"), "203.0.113.99, 203.0.113.7")
                        .statusCode())
                .isEqualTo(429);
        // Its cached query still answers.
        assertThat(get(trustingBase, search("return", ""), "203.0.113.7").statusCode())
                .isEqualTo(200);
        HttpResponse<String> other = get(trustingBase, search("lua_State", "&wait=false"), "203.0.113.8");
        assertThat(other.statusCode()).isEqualTo(200);
        long cachedDuringNanos = System.nanoTime();
        HttpResponse<String> cachedAgain = get(trustingBase, search("return", ""), "203.0.113.8");
        cachedDuringNanos = System.nanoTime() - cachedDuringNanos;
        assertThat(cachedAgain.statusCode()).isEqualTo(200);

        stop.set(true);
        for (Thread t : flood) {
            t.join();
        }
        assertThat(surprises).isEmpty();
        assertThat(outcomes.keySet())
                .contains("x? 400", "() 400", ". 429 too many searches that read every file are running");
        assertThat(metric(trustingBase, "trigrep_http_rejected_total{reason=\"expensive\"}"))
                .isPositive();
        assertThat(metric(trustingBase, "trigrep_http_rejected_total{reason=\"client_share\"}"))
                .isGreaterThanOrEqualTo(2);

        // The gate opens: the admitted searches finish; the full scan `.` is a capped answer, well inside the deadline.
        gate.open();
        HttpResponse<String> admitted = get(trustingBase, search("lua_State", ""), "203.0.113.8");
        assertThat(admitted.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(admitted.body()).get("total_results").asInt()).isPositive();
        // The full scans the gate held end now, off this thread: until they have, a scan may still
        // find both full-scan slots taken. Once they end, one must be admitted.
        HttpResponse<String> scan = eventuallyGet("a full scan admitted", PATIENCE, () -> {
            HttpResponse<String> r = get(trustingBase, search(".", "&cache=false"), "203.0.113.9");
            return r.statusCode() == 429 && r.body().contains("too many searches that read every file") ? null : r;
        });
        assertThat(scan.statusCode()).as(scan.body()).isEqualTo(200);
        JsonNode scanned = JSON.readTree(scan.body());
        assertThat(scanned.get("capped").get("reason").asText()).isEqualTo("results");
        assertThat(scanned.get("capped").get("limit").asInt()).isEqualTo(900);
        assertThat(scanned.get("total_results").asInt()).isEqualTo(900);
        assertThat(scanned.get("elapsed_seconds").asDouble()).isLessThan(10);
        System.out.printf(
                "issue 15 flood: %s; cached query during the flood %.1f ms and %.1f ms; capped full scan %.3f s%n",
                new java.util.TreeMap<>(outcomes),
                cachedNanos / 1e6,
                cachedDuringNanos / 1e6,
                scanned.get("elapsed_seconds").asDouble());
    }

    @Test
    void xForwardedForFromAnUntrustedPeerIsIgnored() throws Exception {
        gate.hold();
        try {
            // The share is 1 per client; loopback is no trusted proxy here, so both "clients" are loopback.
            assertThat(get(untrustingBase, search("adler32", "&wait=false"), "203.0.113.7")
                            .statusCode())
                    .isEqualTo(200);
            HttpResponse<String> spoofed = get(untrustingBase, search("include", "&wait=false"), "203.0.113.8");
            assertThat(spoofed.statusCode()).isEqualTo(429);
            assertThat(spoofed.headers().firstValue("Retry-After")).contains("1");
            assertThat(metric(untrustingBase, "trigrep_http_rejected_total{reason=\"client_share\"}"))
                    .isEqualTo(1);
        } finally {
            gate.open();
        }
        // Once the held search ends, the share is free again.
        assertThat(get(untrustingBase, search("adler32", ""), null).statusCode())
                .isEqualTo(200);
        assertThat(get(untrustingBase, search("include", ""), null).statusCode())
                .isEqualTo(200);
    }
}
