package io.trigrep.frontend.http;

import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 62, metrics users can trust, as a real Prometheus server reads them from a frontend's
 * {@code /metrics}: the connection gauge is a number (after a garbage collection, which made it
 * NaN), a 408 and a 413 are counted, and the search histogram counts exactly the search answers
 * sent, cached and searched, across scrapes.
 */
@Tag("external") // drives prometheus
@Tag("integration")
class Issue62MetricsPrometheusTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient http = HttpClient.newHttpClient();
    /** Prometheus starting, scraping every second and evaluating rates over its scrapes. */
    static final Duration PROMETHEUS = Duration.ofSeconds(90);

    @TempDir
    Path dir;

    @Test
    void aRealPrometheusReadsNumericConnectionsCountedRefusalsAndEverySearchAnswer() throws Exception {
        try (LoopbackCluster cluster = new LoopbackCluster(HttpApiTest.CORPUS, dir, 2);
                FanOut fanOut = new FanOut(cluster.addresses, dir.resolve("prometheus-data"), 2);
                FrontendServer server = new FrontendServer(
                        fanOut,
                        8,
                        new QueryCache(dir.resolve("cache"), 1 << 30, 0),
                        new ConnectionLimits(
                                100, Duration.ofSeconds(1), Duration.ofSeconds(30), Duration.ofSeconds(30), 4))) {
            int port = server.start("127.0.0.1", 0).getPort();
            String base = "http://127.0.0.1:" + port;

            // Search answers: 3 searched (new searches), 5 cached (of finished queries), API and web UI.
            for (String q : new String[] {"adler32", "crc32", "inflate"}) {
                assertThat(get(base + "/api/v1/search?cache=false&q=" + q).statusCode())
                        .isEqualTo(200);
            }
            for (String path : new String[] {
                "/api/v1/search?q=adler32&page=1",
                "/api/v1/search/packages?q=crc32",
                "/api/v1/packages?q=inflate",
                "/search?q=adler32",
                "/search?q=crc32&view=list"
            }) {
                assertThat(get(base + path).statusCode()).as(path).isEqualTo(200);
            }
            // Refused before a search: counted as responses only.
            assertThat(get(base + "/api/v1/search?q=adler32&wait=maybe").statusCode())
                    .isEqualTo(400);
            // One request too slow (408) and one too large (413).
            assertThat(Issue62EdgesTest.raw(port, "GET /healthz HTTP/1.1\r\nHost: x\r\n", new byte[0]))
                    .startsWith("HTTP/1.1 408 ");
            assertThat(Issue62EdgesTest.raw(
                            port,
                            "POST /api/v1/search HTTP/1.1\r\nHost: x\r\nContent-Length: 102400\r\n\r\n",
                            new byte[100 << 10]))
                    .startsWith("HTTP/1.1 413 ");
            // The gauge read through a reference the registry held weakly: NaN once collected.
            System.gc();

            Path config = dir.resolve("prometheus.yml");
            Files.writeString(
                    config,
                    "global:\n  scrape_interval: 1s\n"
                            + "scrape_configs:\n  - job_name: trigrep-frontend\n    static_configs:\n"
                            + "      - targets: ['127.0.0.1:" + port + "']\n");
            int prometheusPort;
            try (ServerSocket free = new ServerSocket(0)) {
                prometheusPort = free.getLocalPort();
            }
            Path log = dir.resolve("prometheus.log");
            Process prometheus = new ProcessBuilder(
                            "prometheus",
                            "--config.file=" + config,
                            "--storage.tsdb.path=" + dir.resolve("tsdb"),
                            "--web.listen-address=127.0.0.1:" + prometheusPort)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            try {
                Prometheus p = new Prometheus("http://127.0.0.1:" + prometheusPort, log);
                // Everything above happened before the first scrape: its values are final.
                assertThat(p.await("sum(trigrep_http_search_duration_seconds_count)", v -> true))
                        .isEqualTo(8);
                assertThat(p.value("trigrep_http_search_duration_seconds_count{source=\"searched\"}"))
                        .isEqualTo(3);
                assertThat(p.value("trigrep_http_search_duration_seconds_count{source=\"cached\"}"))
                        .isEqualTo(5);
                assertThat(p.value("sum(trigrep_http_responses_total{status=\"408\"})"))
                        .isEqualTo(1);
                assertThat(p.value("sum(trigrep_http_responses_total{status=\"413\"})"))
                        .isEqualTo(1);
                assertThat(p.value("sum(trigrep_http_responses_total{route=\"/api/v1/search\",status=\"400\"})"))
                        .isEqualTo(1);
                double connections = p.value("trigrep_http_connections");
                assertThat(connections)
                        .as("the connection Prometheus scrapes over is open")
                        .isGreaterThanOrEqualTo(1);
                // Histogram quantiles come out of the buckets as numbers too.
                assertThat(p.value(
                                "histogram_quantile(0.99, sum by (le) (trigrep_http_search_duration_seconds_bucket))"))
                        .isPositive()
                        .isLessThan(30);

                // More answers after the first scrape: the count follows them, exactly.
                assertThat(get(base + "/api/v1/search?q=adler32").statusCode()).isEqualTo(200);
                assertThat(get(base + "/search?q=zlib").statusCode()).isEqualTo(200);
                assertThat(p.await("sum(trigrep_http_search_duration_seconds_count)", v -> v >= 10))
                        .isEqualTo(10);
                assertThat(p.value("trigrep_http_search_duration_seconds_count{source=\"cached\"}"))
                        .isEqualTo(6);
            } finally {
                prometheus.destroy();
                prometheus.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    static HttpResponse<String> get(String url) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(url))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A running Prometheus server's query API; its log is shown when a wait runs out. */
    record Prometheus(String base, Path log) {
        /** The value of a query that gives one series, or NaN when it gives none yet. */
        double value(String promql) throws Exception {
            JsonNode result = JSON.readTree(
                            get(base + "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
                                    .body())
                    .path("data")
                    .path("result");
            assertThat(result.size()).as("series of %s", promql).isLessThanOrEqualTo(1);
            return result.isEmpty()
                    ? Double.NaN
                    : Double.parseDouble(result.get(0).path("value").get(1).asText());
        }

        /** Waits until {@code promql} has a value that {@code done} accepts, and returns it. */
        double await(String promql, java.util.function.DoublePredicate done) throws Exception {
            try {
                // An IOException: Prometheus is still starting.
                return eventuallyGet(promql, PROMETHEUS, () -> {
                    double value = value(promql);
                    assertThat(value).as("%s: a series", promql).isNotNaN();
                    assertThat(value).as(promql).matches(done::test, "the awaited value");
                    return value;
                });
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; Prometheus' log:\n" + Files.readString(log), e);
            }
        }
    }
}
