package io.trigrep.frontend.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.backend.TestShards;
import io.trigrep.backend.server.BackendConfig;
import io.trigrep.backend.server.BackendServer;
import io.trigrep.frontend.http.ConnectionLimits;
import io.trigrep.frontend.http.FrontendServer;
import io.trigrep.indexer.format.Shard;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15's probe, through real backends over TCP and the frontend over HTTP: a backend dies, the
 * answer is partial and says which shard failed; the backend comes back on its port, and once the
 * short life of an unreusable answer is over (the cache's clock is the test's, so no waiting),
 * the next request is answered completely, with every result, not from the partial answer.
 */
@Tag("integration")
class PartialThenRecoveredTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aPartialAnswerGivesWayToACompleteOneOnceTheBackendIsBack(@TempDir Path dir) throws Exception {
        List<Shard> shards = TestShards.build(FanOutTest.CORPUS, dir.resolve("shards"), 2);
        BackendServer first = new BackendServer(shards.get(0), BackendConfig.defaults());
        BackendServer second = new BackendServer(shards.get(1), BackendConfig.defaults());
        List<InetSocketAddress> addresses = new ArrayList<>();
        addresses.add(first.start("127.0.0.1", 0));
        addresses.add(second.start("127.0.0.1", 0));
        AtomicLong clock = new AtomicLong();
        QueryCache cache =
                new QueryCache(dir.resolve("data"), 1L << 30, 0, () -> Long.MAX_VALUE, Runnable::run, clock::get);
        BackendServer back = null;
        try (FanOut fanOut = new FanOut(addresses, dir.resolve("data"), 2);
                FrontendServer frontend = new FrontendServer(fanOut, 8, cache, ConnectionLimits.defaults())) {
            String base = "http://127.0.0.1:" + frontend.start("127.0.0.1", 0).getPort();
            JsonNode complete = search(base, "return&cache=false");
            assertThat(complete.get("partial").asBoolean()).isFalse();

            second.close();
            JsonNode partial = search(base, "return&cache=false");
            assertThat(partial.get("partial").asBoolean()).isTrue();
            assertThat(partial.get("shards").get("failed").get(0).get("shard").asText())
                    .isEqualTo("127.0.0.1:" + addresses.get(1).getPort());
            assertThat(partial.get("total_results").asLong())
                    .isLessThan(complete.get("total_results").asLong());

            back = new BackendServer(shards.get(1), BackendConfig.defaults());
            back.start("127.0.0.1", addresses.get(1).getPort());
            clock.addAndGet(QueryCache.UNREUSABLE_NANOS + 1);
            JsonNode again = search(base, "return");
            assertThat(again.get("partial").asBoolean())
                    .as("the answer once the backend is back")
                    .isFalse();
            assertThat(again.get("total_results").asLong())
                    .isEqualTo(complete.get("total_results").asLong());
        } finally {
            first.close();
            second.close();
            if (back != null) {
                back.close();
            }
        }
    }

    private JsonNode search(String base, String query) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(base + "/api/v1/search?q=" + query))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }
}
