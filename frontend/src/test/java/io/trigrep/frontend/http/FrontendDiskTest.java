package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, a full disk is the frontend's own failure: with its data folder on a 2 MiB tmpfs
 * filled up, a query is a 503 that names the frontend's disk, counted as a disk error and not
 * against the healthy backends, and /readyz is not ready; once space is freed, both recover.
 * Mounting needs root (CI runs as root).
 */
@Tag("external") // drives mount, as root
@Tag("integration")
class FrontendDiskTest {
    static final Path CORPUS = Path.of("../source-backend/src/test/resources/corpus");
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Path small;
    static LoopbackCluster cluster;
    static FanOut fanOut;
    static FrontendServer server;
    static String base;
    static final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "mounting a tmpfs needs root");
        small = dir.resolve("small");
        Files.createDirectories(small);
        run("mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", small.toString());
        cluster = new LoopbackCluster(CORPUS, dir, 2);
        fanOut = new FanOut(cluster.addresses, small.resolve("data"), 1);
        server = new FrontendServer(
                fanOut, 8, new QueryCache(small.resolve("data"), 1 << 30, 64 << 10), ConnectionLimits.defaults());
        InetSocketAddress at = server.start("127.0.0.1", 0);
        base = "http://127.0.0.1:" + at.getPort();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
            fanOut.close();
            cluster.close();
        }
        if (small != null) {
            run("umount", "-l", small.toString()); // lazily: query files still open are let go when closed
        }
    }

    static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s: %s", String.join(" ", command), out).isZero();
    }

    static HttpResponse<String> get(String path) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + path))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aFullDiskIsA503ThatBlamesTheFrontendAndServiceReturnsWhenSpaceIsFreed() throws Exception {
        assertThat(get("/readyz").statusCode()).isEqualTo(200);
        Path filler = small.resolve("filler");
        try (OutputStream out = Files.newOutputStream(filler)) {
            byte[] block = new byte[4096];
            while (true) {
                out.write(block);
                out.flush();
            }
        } catch (IOException full) {
            // No space left on device: the disk is full
        }

        HttpResponse<String> search = get("/api/v1/search?q=int&cache=false");
        assertThat(search.statusCode()).as(search.body()).isEqualTo(503);
        assertThat(JSON.readTree(search.body()).get("error").asText())
                .contains("the frontend's disk")
                .doesNotContain(small.toString());
        HttpResponse<String> ready = get("/readyz");
        assertThat(ready.statusCode()).isEqualTo(503);
        assertThat(ready.body()).contains("data disk");
        String metrics = get("/metrics").body();
        assertThat(metrics)
                .contains("trigrep_frontend_disk_errors_total 1.0")
                .doesNotContain("trigrep_backend_failures_total{reason=\"malformed\"")
                .doesNotContain("trigrep_backend_failures_total{reason=\"frontend_disk\"");

        Files.delete(filler);
        assertThat(get("/readyz").statusCode()).isEqualTo(200);
        HttpResponse<String> again = get("/api/v1/search?q=int&cache=false");
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
        assertThat(JSON.readTree(again.body()).get("total_results").asInt()).isPositive();
    }
}
