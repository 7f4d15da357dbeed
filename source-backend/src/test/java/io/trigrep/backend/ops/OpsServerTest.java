package io.trigrep.backend.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.backend.server.BackendConfig;
import io.trigrep.backend.server.BackendServer;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A backend's operator port, over real HTTP, next to a real search port. */
@Tag("integration")
class OpsServerTest {
    static final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    static HttpResponse<String> get(InetSocketAddress at, String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + at.getPort() + path))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void metricsCountSearchesAndReadinessFollowsTheSearchPort() throws Exception {
        Shard shard = TestShards.build(TestShards.CORPUS, dir, 1).get(0);
        BackendServer server = new BackendServer(shard, BackendConfig.defaults());
        InetSocketAddress search = server.start("127.0.0.1", 0);
        try (OpsServer ops = new OpsServer(server.metrics(), search)) {
            InetSocketAddress at = ops.start("127.0.0.1", 0);
            assertThat(get(at, "/healthz").statusCode()).isEqualTo(200);
            assertThat(get(at, "/readyz").body()).isEqualTo("{\"status\":\"ready\"}");

            MessageBuilder request = Messages.newBuilder();
            request.initRoot(Request.factory).initSearch().setQuery("return");
            long[] results = {0};
            BackendClient.exchange(search, request, r -> {
                results[0] += r.which() == Response.Which.RESULT ? 1 : 0;
                return true;
            });
            MessageBuilder bad = Messages.newBuilder();
            bad.initRoot(Request.factory).initSearch().setQuery("foo(bar");
            BackendClient.exchange(search, bad, r -> true);

            String metrics = get(at, "/metrics").body();
            assertThat(metrics)
                    .contains("trigrep_backend_search_duration_seconds_count{shard=\"shard-0\"} 1\n")
                    .contains("trigrep_backend_search_duration_seconds_bucket{")
                    .contains("trigrep_backend_refused_total{reason=\"bad_query\"} 1.0\n")
                    .contains("trigrep_backend_results_total " + results[0] + ".0\n")
                    .contains("trigrep_backend_searches_running 0.0\n")
                    .contains("trigrep_backend_shard_files{shard=\"shard-0\"} "
                            + shard.manifest().docs() + ".0\n")
                    .contains("jvm_memory_used_bytes");
            assertThat(results[0]).isPositive();
            assertThat(get(at, "/nope").statusCode()).isEqualTo(404);

            server.close();
            HttpResponse<String> down = get(at, "/readyz");
            assertThat(down.statusCode()).isEqualTo(503);
            assertThat(down.body()).contains("not ready");
            assertThat(get(at, "/healthz").statusCode()).isEqualTo(200);
        } finally {
            server.close();
        }
    }
}
