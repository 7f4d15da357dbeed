package io.trigrep.frontend.http;

import static io.trigrep.testing.Eventually.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.backend.TestCerts;
import io.trigrep.backend.TestShards;
import io.trigrep.backend.server.BackendConfig;
import io.trigrep.backend.server.BackendServer;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.fanout.ShardStatus;
import io.trigrep.frontend.metrics.FrontendMetrics;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.Tls;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, item 8, end to end: three backends behind mutual TLS and a frontend with a client
 * certificate, all made at test time by deploy/make-certs.sh, answer exactly what the same shards
 * answer over plain TCP (searches, file views, readiness). A frontend whose certificate another CA
 * signed, and a backend the frontend's CA did not sign, each show as shards failed with a TLS
 * reason, counted as {@code reason="tls"}.
 */
@Tag("external") // drives openssl (deploy/make-certs.sh)
@Tag("integration")
class FrontendTlsTest {
    /** A search deadline every search here meets on a busy machine. */
    static final Duration DEADLINE = Duration.ofSeconds(60);

    static final Path CORPUS = Path.of("../source-backend/src/test/resources/corpus");
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    static Path dir;

    static TestCerts certs;
    static TestCerts other;
    static LoopbackCluster plain;
    static final List<BackendServer> backends = new ArrayList<>();
    static final List<InetSocketAddress> addresses = new ArrayList<>();
    static FanOut fanOut;
    static FrontendServer frontend;
    static String base;

    @BeforeAll
    static void start() throws Exception {
        certs = TestCerts.make(dir.resolve("certs"));
        other = TestCerts.make(dir.resolve("other"));
        plain = new LoopbackCluster(CORPUS, dir.resolve("plain"), 3);
        for (Shard shard : TestShards.build(CORPUS, dir.resolve("tls-shards"), 3)) {
            BackendServer server = new BackendServer(shard, BackendConfig.defaults(), certs.backend());
            backends.add(server);
            addresses.add(server.start("127.0.0.1", 0));
        }
        fanOut = new FanOut(addresses, dir.resolve("data"), 2, new FrontendMetrics(), certs.frontend());
        frontend = new FrontendServer(fanOut, 8);
        base = "http://127.0.0.1:" + frontend.start("127.0.0.1", 0).getPort();
    }

    @AfterAll
    static void stop() {
        frontend.close();
        fanOut.close();
        backends.forEach(BackendServer::close);
        plain.close();
    }

    static HttpResponse<String> get(String base, String pathAndQuery) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + pathAndQuery)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String q(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    @Test
    void searchesAndFilesOverMutualTlsAreExactlyThePlainOnes() throws Exception {
        for (String query : List.of("return", "(?i)hello", "lua_[A-Z]\\w+", "nothing-at-all")) {
            String ask = "/api/v1/search?q=" + q(query) + "&per_page=1000&cache=false";
            HttpResponse<String> overTls = get(base, ask);
            HttpResponse<String> overPlain = get(plain.base, ask);
            assertThat(overTls.statusCode()).as(query).isEqualTo(200);
            JsonNode tlsBody = JSON.readTree(overTls.body());
            JsonNode plainBody = JSON.readTree(overPlain.body());
            assertThat(tlsBody.get("partial").asBoolean()).isFalse();
            assertThat(tlsBody.get("shards").get("successful").asInt()).isEqualTo(3);
            assertThat(tlsBody.get("total_results")).as(query).isEqualTo(plainBody.get("total_results"));
            assertThat(tlsBody.get("results")).as(query).isEqualTo(plainBody.get("results"));
        }
        assertThat(JSON.readTree(get(base, "/api/v1/search?q=return&per_page=1").body())
                        .get("total_results")
                        .asInt())
                .isGreaterThan(20);
        for (String file : List.of("zlib_1.2.13.dfsg-1/adler32.c", "lua5.4_5.4.4-3+deb12u1/src/lua.h")) {
            int slash = file.indexOf('/');
            HttpResponse<String> response = get(
                    base,
                    "/api/v1/file?package=" + q(file.substring(0, slash)) + "&path=" + q(file.substring(slash + 1)));
            assertThat(response.statusCode()).as(file).isEqualTo(200);
            assertThat(JSON.readTree(response.body()).get("content").asText())
                    .isEqualTo(Files.readString(CORPUS.resolve(file)));
        }
        assertThat(get(base, "/readyz").statusCode()).isEqualTo(200);
    }

    @Test
    void aFrontendWithAnotherCasCertificateSeesEveryShardFailForTls() throws Exception {
        Tls stranger = Tls.client(other.frontendCert(), other.frontendKey(), certs.ca(), true);
        try (FanOut refused = new FanOut(addresses, dir.resolve("data-stranger"), 1, new FrontendMetrics(), stranger);
                FrontendServer server = new FrontendServer(refused, 2)) {
            try (QueryRun run = refused.search("return", false, 0, DEADLINE)) {
                run.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                assertThat(run.failed()).hasSize(3).allSatisfy(s -> {
                    assertThat(s.outcome()).isEqualTo(ShardStatus.Outcome.TLS);
                    assertThat(s.reason()).startsWith("TLS handshake failed: ");
                });
                System.out.println(
                        "stranger's shard failure: " + run.failed().get(0).reason());
            }
            String at = "http://127.0.0.1:" + server.start("127.0.0.1", 0).getPort();
            HttpResponse<String> search = get(at, "/api/v1/search?q=return");
            assertThat(search.statusCode()).isEqualTo(502);
            assertThat(JSON.readTree(search.body()).toString()).contains("every backend failed: TLS handshake failed");
            HttpResponse<String> ready = get(at, "/readyz");
            assertThat(ready.statusCode()).isEqualTo(503);
            assertThat(ready.body()).contains("TLS handshake failed");
            assertThat(get(at, "/metrics").body())
                    .contains("trigrep_backend_failures_total{reason=\"tls\",shard=\"127.0.0.1:"
                            + addresses.get(0).getPort() + "\"}")
                    .doesNotContain("reason=\"malformed\"")
                    .doesNotContain("reason=\"closed\"");
        }
    }

    @Test
    void aBackendTheFrontendsCaDidNotSignIsAFailedShardWithATlsReason() throws Exception {
        Shard shard = TestShards.build(CORPUS, dir.resolve("impostor"), 1).get(0);
        try (BackendServer impostor = new BackendServer(
                shard, BackendConfig.defaults(), Tls.server(other.backendCert(), other.backendKey(), certs.ca()))) {
            List<InetSocketAddress> withImpostor = new ArrayList<>(addresses);
            InetSocketAddress impostorAddress = impostor.start("127.0.0.1", 0);
            withImpostor.add(impostorAddress);
            try (FanOut mixed = new FanOut(
                            withImpostor, dir.resolve("data-mixed"), 1, new FrontendMetrics(), certs.frontend());
                    FrontendServer server = new FrontendServer(mixed, 2)) {
                String at = "http://127.0.0.1:" + server.start("127.0.0.1", 0).getPort();
                JsonNode body = JSON.readTree(
                        get(at, "/api/v1/search?q=return&per_page=1000").body());
                assertThat(body.get("partial").asBoolean()).isTrue();
                assertThat(body.get("shards").get("successful").asInt()).isEqualTo(3);
                JsonNode failed = body.get("shards").get("failed");
                assertThat(failed).hasSize(1);
                assertThat(failed.get(0).get("shard").asText()).isEqualTo("127.0.0.1:" + impostorAddress.getPort());
                assertThat(failed.get(0).get("reason").asText()).startsWith("TLS handshake failed: ");
                System.out.println("impostor's shard failure: "
                        + failed.get(0).get("reason").asText());
                JsonNode expected = JSON.readTree(
                        get(plain.base, "/api/v1/search?q=return&per_page=1000").body());
                assertThat(body.get("results")).isEqualTo(expected.get("results"));
            }
        }
    }

    /** Megabytes of results: many TLS records per read, joined and split into frames without losing or doubling one. */
    @Test
    void aResultHeavyStreamOverTlsIsTheSameStream() throws Exception {
        Path corpus = dir.resolve("heavy-corpus");
        Files.createDirectories(corpus.resolve("many_1.0"));
        for (int f = 0; f < 20; f++) {
            StringBuilder text = new StringBuilder();
            for (int line = 0; line < 5000; line++) {
                text.append("match ").append(f).append(' ').append(line).append('\n');
            }
            Files.writeString(corpus.resolve("many_1.0/f" + f + ".txt"), text);
        }
        Shard shard = TestShards.build(corpus, dir.resolve("heavy"), 1).get(0);
        try (BackendServer tlsBackend = new BackendServer(shard, BackendConfig.defaults(), certs.backend());
                BackendServer plainBackend = new BackendServer(shard, BackendConfig.defaults())) {
            List<InetSocketAddress> tlsAt = List.of(tlsBackend.start("127.0.0.1", 0));
            List<InetSocketAddress> plainAt = List.of(plainBackend.start("127.0.0.1", 0));
            try (FanOut overTls = new FanOut(
                            tlsAt, dir.resolve("data-heavy-tls"), 1, new FrontendMetrics(), certs.frontend());
                    FanOut overPlain = new FanOut(plainAt, dir.resolve("data-heavy-plain"), 1);
                    QueryRun tlsRun = overTls.search("match", false, 1, DEADLINE);
                    QueryRun plainRun = overPlain.search("match", false, 1, DEADLINE)) {
                tlsRun.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                plainRun.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                assertThat(tlsRun.failed()).isEmpty();
                assertThat(tlsRun.index().size())
                        .isEqualTo(100_000)
                        .isEqualTo(plainRun.index().size());
                // Byte counts differ by a few progress frames, which follow timing; the results may not.
                assertThat(tlsRun.bytesReceived()).isGreaterThan(4L << 20);
                for (int rank = 0; rank < 100_000; rank += 997) {
                    int t = tlsRun.index().sorted(rank);
                    int p = plainRun.index().sorted(rank);
                    assertThat(tlsRun.tee()
                                    .read(
                                            tlsRun.index().offset(t),
                                            tlsRun.index().length(t)))
                            .isEqualTo(plainRun.tee()
                                    .read(
                                            plainRun.index().offset(p),
                                            plainRun.index().length(p)));
                }
            }
        }
    }
}
