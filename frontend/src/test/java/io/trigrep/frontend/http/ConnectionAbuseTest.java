package io.trigrep.frontend.http;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.frontend.fanout.QueryCache;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, connections with limits: idle and slowloris connections are closed within their
 * timeouts, the cap makes room for new clients instead of running out of descriptors, pipelined
 * requests are answered in order, and oversized request lines and headers get 414 and 431.
 * Against real backends and a frontend on loopback, with real sockets.
 */
@Tag("integration")
class ConnectionAbuseTest {
    static final Path CORPUS = Path.of("../source-backend/src/test/resources/corpus");
    static final ConnectionLimits LIMITS =
            new ConnectionLimits(500, Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofSeconds(30), 4);

    @TempDir
    static Path dir;

    static LoopbackCluster cluster;
    static FrontendServer server;
    static InetSocketAddress address;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        cluster = new LoopbackCluster(CORPUS, dir, 2);
        server = new FrontendServer(cluster.fanOut, 8, new QueryCache(dir.resolve("limited"), 1 << 30, 0), LIMITS);
        address = server.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        server.close();
        cluster.close();
    }

    static HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + address.getPort() + path))
                        .timeout(PATIENCE)
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void idleAndSlowlorisConnectionsAreClosedAndOthersKeepBeingAnswered() throws Exception {
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < 2000; i++) {
                Socket socket = new Socket("127.0.0.1", address.getPort());
                socket.setSoTimeout((int) PATIENCE.toMillis());
                if (i % 2 == 1) {
                    // Slowloris: a request begun and never finished.
                    socket.getOutputStream()
                            .write("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ".getBytes(StandardCharsets.US_ASCII));
                }
                sockets.add(socket);
            }
            // 2,000 connections against a cap of 500: once the server has accepted them all, it
            // holds the cap (those evicted to make room close on their own event loops).
            eventually(
                    "the open connections within the cap",
                    PATIENCE,
                    () -> assertThat(server.openConnections()).isLessThanOrEqualTo(LIMITS.maxConnections()));
            HttpResponse<String> health = get("/healthz");
            assertThat(health.statusCode()).isEqualTo(200);
            HttpResponse<String> search = get("/api/v1/search?q=hello");
            assertThat(search.statusCode()).isEqualTo(200);
            assertThat(search.body()).contains("\"total_results\"");

            // Every held connection ends: evicted at once, or cut by the idle (1 s) or request
            // (1 s, with a 408) timeout.
            int timedOutRequests = 0;
            for (Socket socket : sockets) {
                byte[] rest = readToEnd(socket.getInputStream());
                if (rest.length > 0) {
                    assertThat(new String(rest, StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 408 ");
                    timedOutRequests++;
                }
            }
            assertThat(timedOutRequests)
                    .as("slowloris connections answered 408 when their time ran out")
                    .isPositive();
            eventually(
                    "every connection closed",
                    PATIENCE,
                    () -> assertThat(server.openConnections()).isZero());
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInTheOrderSent() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", address.getPort())) {
            socket.setSoTimeout((int) PATIENCE.toMillis());
            // A search (slow: it fans out) and then two instant answers; the last closes.
            socket.getOutputStream()
                    .write(("GET /api/v1/search?q=return&cache=false HTTP/1.1\r\nHost: x\r\n\r\n"
                                    + "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                                    + "GET /api/v1/queries HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            String all = new String(readToEnd(socket.getInputStream()), StandardCharsets.UTF_8);
            int search = all.indexOf("\"total_results\"");
            int health = all.indexOf("{\"status\":\"ok\"}");
            int queries = all.indexOf("\"cached_queries\"");
            assertThat(search).as(all).isPositive();
            assertThat(health).as("health after the search: %s", all).isGreaterThan(search);
            assertThat(queries)
                    .as("the request that closed is answered too, last")
                    .isGreaterThan(health);
        }
    }

    @Test
    void anOverlongRequestLineIs414AndOverlongHeadersAre431() throws Exception {
        assertThat(rawStatus("GET /api/v1/search?q=" + "a".repeat(100_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"))
                .isEqualTo(414);
        assertThat(rawStatus("GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(20_000) + "\r\n\r\n"))
                .isEqualTo(431);
        assertThat(get("/healthz").statusCode()).as("and the server goes on").isEqualTo(200);
    }

    @Test
    void answersAreCountedByRouteAndStatusWithoutLettingClientsMintRoutes() throws Exception {
        assertThat(get("/no/such/" + System.nanoTime()).statusCode()).isEqualTo(404);
        assertThat(get("/api/v1/search").statusCode()).isEqualTo(400);
        String metrics = get("/metrics").body();
        assertThat(metrics)
                .contains("trigrep_http_responses_total{route=\"other\",status=\"404\"}")
                .contains("trigrep_http_responses_total{route=\"/api/v1/search\",status=\"400\"}")
                .contains("trigrep_http_connections ")
                .contains("trigrep_http_connections_evicted_total")
                .doesNotContain("route=\"/no/such");
    }

    @Test
    void theCapIsBelowTheDescriptorLimit() {
        assertThat(ConnectionLimits.connectionsFor(20_000)).isEqualTo(14_744);
        assertThat(ConnectionLimits.connectionsFor(1024)).isEqualTo(512);
        assertThat(ConnectionLimits.connectionsFor(100)).isEqualTo(16);
        assertThat(ConnectionLimits.defaults().maxConnections())
                .isLessThan((int) Math.min(Integer.MAX_VALUE, ConnectionLimits.descriptorLimit()));
    }

    static int rawStatus(String request) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", address.getPort())) {
            socket.setSoTimeout((int) PATIENCE.toMillis());
            try {
                socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            } catch (SocketException closedWhileSending) {
                // the server may answer and close before the rest of a huge request is sent
            }
            String head = new String(readToEnd(socket.getInputStream()), StandardCharsets.US_ASCII);
            return Integer.parseInt(head.substring(9, 12));
        }
    }

    /** Everything the server sends until it closes (a reset counts as the end). */
    static byte[] readToEnd(InputStream in) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                out.write(buffer, 0, n);
            }
        } catch (SocketException reset) {
            // closed with unread bytes on the server's side
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server kept the connection open: " + out.size() + " bytes so far", e);
        }
        return out.toByteArray();
    }
}
