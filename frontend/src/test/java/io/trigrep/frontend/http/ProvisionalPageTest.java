package io.trigrep.frontend.http;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A running query asked with wait=false answers with the best results so far, marked
 * provisional, while one backend (behind a held {@link Gate}) has not answered; once every
 * backend has, the final page holds them.
 */
@Tag("integration")
class ProvisionalPageTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aRunningQueryServesItsBestResultsSoFarMarkedProvisional() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        try (LoopbackCluster cluster = new LoopbackCluster(HttpApiTest.CORPUS, dir, 2);
                Gate gate = new Gate(cluster.addresses.get(1))) {
            List<InetSocketAddress> backends = List.of(cluster.addresses.get(0), gate.address());
            try (FanOut fanOut = new FanOut(backends, dir.resolve("data"), 2);
                    FrontendServer server =
                            new FrontendServer(fanOut, 8, new QueryCache(dir.resolve("data"), 1L << 30, 0))) {
                String base = "http://127.0.0.1:" + server.start("127.0.0.1", 0).getPort();
                gate.hold();
                String running = base + "/api/v1/search?q=int&per_page=5&wait=false";
                // The free backend's answer arrives while the gated one holds the query open.
                JsonNode page = eventuallyGet("results from the free backend", PATIENCE, () -> {
                    JsonNode now = JSON.readTree(http.send(
                                    HttpRequest.newBuilder(URI.create(running)).build(),
                                    HttpResponse.BodyHandlers.ofString())
                            .body());
                    return now.get("results_so_far").asInt() > 0 ? now : null;
                });
                assertThat(page.get("status").asText()).isEqualTo("running");
                assertThat(page.get("provisional").asBoolean()).isTrue();
                assertThat(page.get("results_so_far").asInt()).isPositive();
                assertThat(page.get("results"))
                        .hasSize(Math.min(5, page.get("results_so_far").asInt()));
                Set<String> provisional = new HashSet<>();
                page.get("results")
                        .forEach(r -> provisional.add(
                                r.get("path").asText() + ":" + r.get("line").asInt()));

                gate.open();
                JsonNode done = JSON.readTree(http.send(
                                HttpRequest.newBuilder(URI.create(base + "/api/v1/search?q=int&per_page=1000"))
                                        .build(),
                                HttpResponse.BodyHandlers.ofString())
                        .body());
                assertThat(done.get("status").asText()).isEqualTo("done");
                assertThat(done.has("provisional")).isFalse();
                Set<String> all = new HashSet<>();
                done.get("results")
                        .forEach(r -> all.add(
                                r.get("path").asText() + ":" + r.get("line").asInt()));
                assertThat(all).containsAll(provisional);
            }
        }
    }
}
