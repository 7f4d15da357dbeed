package io.trigrep.frontend.http;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 62, points 5 and 6 against real backends and a frontend on loopback: every refusal is
 * JSON and counted (408, 413, 414, 431, 417, 505), the connection gauge is a number, every search
 * answer is in one histogram labelled cached or searched, and boolean and page parameters are
 * checked on every route (400 with a message), the web UI's pages included.
 */
@Tag("integration")
class Issue62EdgesTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final ConnectionLimits LIMITS =
            new ConnectionLimits(500, Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(30), 4);

    @TempDir
    static Path dir;

    static LoopbackCluster cluster;
    /** A fan-out of its own: the cluster's frontend registered the cluster's fan-out's metrics already. */
    static FanOut fanOut;

    static FrontendServer server;
    static String base;
    static int port;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        cluster = new LoopbackCluster(HttpApiTest.CORPUS, dir, 2);
        fanOut = new FanOut(cluster.addresses, dir.resolve("edges-data"), 2);
        server = new FrontendServer(fanOut, 8, new QueryCache(dir.resolve("edges"), 1 << 30, 0), LIMITS);
        InetSocketAddress address = server.start("127.0.0.1", 0);
        port = address.getPort();
        base = "http://127.0.0.1:" + port;
    }

    @AfterAll
    static void stop() {
        server.close();
        fanOut.close();
        cluster.close();
    }

    static HttpResponse<String> get(String pathAndQuery) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                        .timeout(PATIENCE)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    static String raw(String head, byte[] body) throws Exception {
        return raw(port, head, body);
    }

    /** What the server on {@code port} answers to {@code head} then {@code body} sent as is, until it closes. */
    static String raw(int port, String head, byte[] body) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout((int) PATIENCE.toMillis());
            OutputStream out = socket.getOutputStream();
            try {
                out.write(head.getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                out.flush();
            } catch (SocketException closedWhileSending) {
                // the answer is read below all the same
            }
            return new String(ConnectionAbuseTest.readToEnd(socket.getInputStream()), StandardCharsets.UTF_8);
        }
    }

    static int status(String answer) {
        assertThat(answer).startsWith("HTTP/1.1 ");
        return Integer.parseInt(answer.substring(9, 12));
    }

    /** The answer's body as JSON with an error message, or fails. */
    static String jsonError(String answer) throws Exception {
        assertThat(answer).containsIgnoringCase("content-type: application/json");
        JsonNode body = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertThat(body.path("error").asText()).as(answer).isNotBlank();
        return body.get("error").asText();
    }

    /** The sum of the samples of {@code metric} that carry every label of {@code labels} ({@code k="v"}). */
    static double sample(String scrape, String metric, String... labels) {
        double sum = 0;
        boolean found = false;
        for (String line : scrape.split("\n")) {
            if (line.startsWith(metric + "{") || line.startsWith(metric + " ")) {
                boolean all = true;
                for (String label : labels) {
                    all &= line.contains(label);
                }
                if (all) {
                    sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                    found = true;
                }
            }
        }
        return found ? sum : 0;
    }

    static String metrics() throws Exception {
        return get("/metrics").body();
    }

    static double responses(String scrape, int status) {
        return sample(scrape, "trigrep_http_responses_total", "status=\"" + status + "\"");
    }

    @Test
    void aLargeBodyIs413InJsonAndTheClientReadsIt() throws Exception {
        double before = responses(metrics(), 413);
        byte[] body = new byte[100 << 10];
        // Declared too large: refused before the body is read, which the server reads and drops.
        String declared =
                raw("POST /api/v1/search?q=x HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n", body);
        assertThat(status(declared)).isEqualTo(413);
        assertThat(jsonError(declared)).contains("65536");
        // Chunked: found too large once 64 KiB arrived.
        StringBuilder chunks = new StringBuilder();
        for (int i = 0; i < 10; i++) {
            chunks.append("2800\r\n").append("a".repeat(0x2800)).append("\r\n");
        }
        chunks.append("0\r\n\r\n");
        String chunked = raw(
                "POST /api/v1/search?q=x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
                chunks.toString().getBytes(StandardCharsets.US_ASCII));
        assertThat(status(chunked)).isEqualTo(413);
        jsonError(chunked);
        // Expect: 100-continue with a body too large: refused at once, no 100 first.
        String expecting = raw(
                "POST /api/v1/search?q=x HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 200000\r\n\r\n",
                new byte[0]);
        assertThat(status(expecting)).isEqualTo(413);
        jsonError(expecting);
        // A real client sending its whole body reads the answer, not a reset.
        HttpResponse<String> client = http.send(
                HttpRequest.newBuilder(URI.create(base + "/api/v1/search?q=x"))
                        .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[1 << 20]))
                        .timeout(PATIENCE)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(client.statusCode()).isEqualTo(413);
        assertThat(JSON.readTree(client.body()).path("error").asText()).contains("65536");
        assertThat(responses(metrics(), 413) - before).isEqualTo(4);
    }

    @Test
    void unsupportedHttpVersionsAndExpectationsAreRefusedInJson() throws Exception {
        double before505 = responses(metrics(), 505);
        double before417 = responses(metrics(), 417);
        for (String version : List.of("HTTP/9.9", "HTTP/2.0", "HTTP/1.2", "HTTP/0.9")) {
            String answer = raw("GET /healthz " + version + "\r\nHost: x\r\n\r\n", new byte[0]);
            assertThat(status(answer)).as(version).isEqualTo(505);
            assertThat(jsonError(answer)).contains(version);
        }
        // Not HTTP at all: malformed.
        String other = raw("GET /healthz FOO/1.1\r\nHost: x\r\n\r\n", new byte[0]);
        assertThat(status(other)).isEqualTo(400);
        jsonError(other);
        String answer = raw("GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: magic\r\n\r\n", new byte[0]);
        assertThat(status(answer)).isEqualTo(417);
        assertThat(jsonError(answer)).contains("magic");
        // The versions that are spoken still are.
        assertThat(status(raw("GET /healthz HTTP/1.0\r\n\r\n", new byte[0]))).isEqualTo(200);
        assertThat(status(raw("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", new byte[0])))
                .isEqualTo(200);
        String scrape = metrics();
        assertThat(responses(scrape, 505) - before505).isEqualTo(4);
        assertThat(responses(scrape, 417) - before417).isEqualTo(1);
    }

    @Test
    void everyRefusalIsCountedByStatus() throws Exception {
        String before = metrics();
        String slow = raw("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ", new byte[0]);
        assertThat(status(slow)).isEqualTo(408);
        jsonError(slow);
        String longLine = raw("GET /healthz?q=" + "a".repeat(10_000) + " HTTP/1.1\r\nHost: x\r\n\r\n", new byte[0]);
        assertThat(status(longLine)).isEqualTo(414);
        jsonError(longLine);
        String longHeaders =
                raw("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(20_000) + "\r\n\r\n", new byte[0]);
        assertThat(status(longHeaders)).isEqualTo(431);
        jsonError(longHeaders);
        String malformed = raw("GET /healthz HTTP/1.1\r\nHost x\r\n\r\n", new byte[0]);
        assertThat(status(malformed)).isEqualTo(400);
        jsonError(malformed);
        String after = metrics();
        for (int code : new int[] {408, 414, 431, 400}) {
            assertThat(responses(after, code) - responses(before, code))
                    .as("responses with status %d", code)
                    .isEqualTo(1);
        }
        assertThat(sample(after, "trigrep_http_responses_total", "route=\"other\"", "status=\"408\""))
                .isPositive();
        // Each refused connection closes: none is held lingering once its client has gone.
        eventually(
                "the refused connections closed",
                PATIENCE,
                () -> assertThat(server.openConnections()).isLessThanOrEqualTo(1)); // the client's keep-alive one
    }

    @Test
    void theConnectionGaugeIsANumberAfterACollection() throws Exception {
        // The gauge read through a method reference the registry holds weakly: NaN once collected.
        System.gc();
        String scrape = metrics();
        double open = sample(scrape, "trigrep_http_connections");
        assertThat(scrape).containsPattern("(?m)^trigrep_http_connections [0-9]");
        assertThat(open).as("the connection scraping counts itself").isGreaterThanOrEqualTo(1);
        assertThat(scrape).containsPattern("(?m)^trigrep_http_connections_evicted_total [0-9]");
    }

    @Test
    void everySearchAnswerIsInOneHistogramByCachedOrSearched() throws Exception {
        String histogram = "trigrep_http_search_duration_seconds_count";
        String before = metrics();
        String query = "q=adler32&per_page=3";
        // One new search, then answers of the finished query from each view, API and UI.
        assertThat(get("/api/v1/search?cache=false&" + query).statusCode()).isEqualTo(200);
        assertThat(get("/api/v1/search?" + query).statusCode()).isEqualTo(200);
        assertThat(get("/api/v1/search?wait=false&" + query).statusCode()).isEqualTo(200);
        assertThat(get("/api/v1/search/packages?" + query).statusCode()).isEqualTo(200);
        assertThat(get("/api/v1/packages?" + query).statusCode()).isEqualTo(200);
        assertThat(get("/search?q=adler32").statusCode()).isEqualTo(200);
        assertThat(get("/search?q=adler32&view=packages&page=1").statusCode()).isEqualTo(200);
        // A new search from the web UI.
        assertThat(get("/search?q=crc32_combine").statusCode()).isEqualTo(200);
        // Refused before any search: in no histogram.
        assertThat(get("/api/v1/search?q=adler32&cache=maybe").statusCode()).isEqualTo(400);
        assertThat(get("/api/v1/search?q=%28").statusCode()).isEqualTo(400);
        String after = metrics();
        assertThat(sample(after, histogram, "source=\"cached\"") - sample(before, histogram, "source=\"cached\""))
                .isEqualTo(6);
        assertThat(sample(after, histogram, "source=\"searched\"") - sample(before, histogram, "source=\"searched\""))
                .isEqualTo(2);
    }

    @Test
    void booleanAndPageParametersAreCheckedOnEveryRoute() throws Exception {
        Map<String, String> api = Map.of(
                "/api/v1/search?q=adler32&cache=maybe", "cache must be true or false, got 'maybe'",
                "/api/v1/search?q=adler32&wait=maybe", "wait must be true or false, got 'maybe'",
                "/api/v1/search?q=adler32&wait=", "wait must be true or false, got ''",
                "/api/v1/search?q=adler32&page=-1", "page must be an integer in [0, 2147483647], got '-1'",
                "/api/v1/search?q=adler32&page=abc", "page must be an integer in [0, 2147483647], got 'abc'",
                "/api/v1/search/packages?q=adler32&cache=1", "cache must be true or false, got '1'",
                "/api/v1/packages?q=adler32&page=1.5", "page must be an integer",
                "/api/v1/search/events?q=adler32&cache=no", "cache must be true or false, got 'no'",
                "/readyz?partial=maybe", "partial must be true or false, got 'maybe'");
        for (Map.Entry<String, String> bad : api.entrySet()) {
            HttpResponse<String> r = get(bad.getKey());
            assertThat(r.statusCode()).as(bad.getKey()).isEqualTo(400);
            assertThat(r.headers().firstValue("content-type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("application/json"));
            assertThat(JSON.readTree(r.body()).path("error").asText())
                    .as(bad.getKey())
                    .contains(bad.getValue());
        }
        Map<String, String> pages = Map.of(
                "/search?q=adler32&page=-1", "page must be an integer in [1, 2147483647], got &#39;-1&#39;",
                "/search?q=adler32&page=abc", "page must be an integer in [1, 2147483647], got &#39;abc&#39;",
                "/search?q=adler32&page=0", "page must be an integer in [1, 2147483647], got &#39;0&#39;",
                "/search?q=adler32&mode=maybe", "mode must be regexp or literal, got &#39;maybe&#39;",
                "/search?q=adler32&view=maybe", "view must be rank or packages or list, got &#39;maybe&#39;",
                "/show?package=p&path=f&line=abc", "line must be an integer in [0, 2147483647], got &#39;abc&#39;",
                "/show?package=p&path=f&from=-3", "from must be an integer in [0, 2147483647], got &#39;-3&#39;");
        for (Map.Entry<String, String> bad : pages.entrySet()) {
            HttpResponse<String> r = get(bad.getKey());
            assertThat(r.statusCode()).as(bad.getKey()).isEqualTo(400);
            assertThat(r.headers().firstValue("content-type"))
                    .hasValueSatisfying(t -> assertThat(t).startsWith("text/html"));
            assertThat(r.body()).as(bad.getKey()).contains(bad.getValue());
        }
        // What is valid still works.
        for (String good : List.of(
                "/api/v1/search?q=adler32&cache=false&wait=true&page=0",
                "/api/v1/search?q=adler32&cache=true&wait=false",
                "/readyz?partial=true",
                "/search?q=adler32&mode=literal&view=list&page=2",
                "/search?q=adler32&mode=regexp")) {
            assertThat(get(good).statusCode()).as(good).isEqualTo(200);
        }
    }
}
