package io.trigrep.frontend.live;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.backend.server.BackendProcess;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.http.FrontendServer;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.testing.Ports;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 60: a backend restarted while result-heavy uncached searches arrive stays up, with the
 * launcher's own memory limits, and every answer is complete or says which shard it lacks. The
 * backends are real processes started by the launcher; the frontend runs in this JVM.
 */
@Tag("external") // starts backend processes through the launcher
@Tag("integration")
class BackendRestartUnderLoadTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final int RESTARTS = 10;
    static final int AT_ONCE = 3;
    static final Duration WAIT = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final ObjectMapper json = new ObjectMapper();
    private final List<Process> backends = new ArrayList<>();
    /** Each started backend's output, to say why one died. */
    private final Map<Process, Path> logs = new HashMap<>();

    @Test
    void aBackendRestartedUnderHeavySearchesNeverDiesAndNoAnswerIsSilentlyShort() throws Exception {
        Path corpus = dir.resolve("corpus");
        writeCorpus(corpus);
        Path index = dir.resolve("index");
        List<String> errors = new ArrayList<>();
        new IndexBuilder(IndexBuilder.Options.defaults(2), Clock.systemUTC())
                .build(Corpus.discover(List.of(corpus), dir, errors::add), index, errors::add);
        assertThat(errors).isEmpty();

        List<InetSocketAddress> addresses = List.of(Ports.restartable(), Ports.restartable());
        Path data = dir.resolve("data");
        try {
            for (int k = 0; k < 2; k++) {
                backends.add(start(index.resolve("shard-" + k), addresses.get(k), "first"));
            }
            for (InetSocketAddress a : addresses) {
                awaitReady(a, backends.get(addresses.indexOf(a)));
            }
            try (FanOut fanOut = new FanOut(addresses, data, 2);
                    FrontendServer server = new FrontendServer(fanOut, 16, new QueryCache(data, 1L << 30, 0))) {
                URI search = URI.create("http://127.0.0.1:"
                        + server.start("127.0.0.1", 0).getPort() + "/api/v1/search?q=return&cache=false");
                JsonNode whole = json.readTree(get(search).body());
                assertThat(whole.path("shards").path("failed")).isEmpty();
                long expected = whole.path("total_results").asLong();
                assertThat(expected).isGreaterThan(100_000);

                String restarted = addresses.get(0).getHostString() + ":"
                        + addresses.get(0).getPort();
                for (int r = 1; r <= RESTARTS; r++) {
                    backends.get(0).destroyForcibly().waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                    backends.set(0, start(index.resolve("shard-0"), addresses.get(0), "restart-" + r));
                    List<CompletableFuture<HttpResponse<String>>> asks = new ArrayList<>();
                    for (int i = 0; i < AT_ONCE; i++) {
                        asks.add(http.sendAsync(
                                HttpRequest.newBuilder(search).timeout(WAIT).build(),
                                HttpResponse.BodyHandlers.ofString()));
                    }
                    // Three more once the port is open: they meet the verification or the warm-up.
                    awaitListening(addresses.get(0), backends.get(0));
                    for (int i = 0; i < AT_ONCE; i++) {
                        asks.add(http.sendAsync(
                                HttpRequest.newBuilder(search).timeout(WAIT).build(),
                                HttpResponse.BodyHandlers.ofString()));
                    }
                    for (CompletableFuture<HttpResponse<String>> ask : asks) {
                        HttpResponse<String> answer = ask.get(WAIT.toSeconds(), TimeUnit.SECONDS);
                        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
                        JsonNode body = json.readTree(answer.body());
                        JsonNode failed = body.path("shards").path("failed");
                        if (failed.isEmpty()) {
                            assertThat(body.path("total_results").asLong())
                                    .as("restart %d: a complete answer", r)
                                    .isEqualTo(expected);
                        } else {
                            assertThat(failed.get(0).path("shard").asText())
                                    .as("restart %d: a partial answer names the shard", r)
                                    .isEqualTo(restarted);
                        }
                    }
                    awaitReady(addresses.get(0), backends.get(0));
                    assertThat(backends.get(1).isAlive())
                            .as("the other backend, restart %d", r)
                            .isTrue();
                }
                JsonNode after = json.readTree(get(search).body());
                assertThat(after.path("shards").path("failed")).isEmpty();
                assertThat(after.path("total_results").asLong()).isEqualTo(expected);
            }
        } finally {
            for (Process p : backends) {
                p.destroy();
                p.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    /** Starts a backend on {@code address} through the launcher, with its default memory limits. */
    private Process start(Path shard, InetSocketAddress address, String name) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(
                        ROOT.resolve("trigrep").toString(),
                        "backend",
                        "--shard",
                        shard.toString(),
                        "--bind",
                        address.getHostString(),
                        "--port",
                        Integer.toString(address.getPort()))
                .redirectErrorStream(true)
                .redirectOutput(
                        dir.resolve(shard.getFileName() + "-" + name + ".log").toFile());
        builder.environment().keySet().removeIf(k -> k.startsWith("TRIGREP_"));
        builder.environment().put("TRIGREP_CLASSPATH", System.getProperty("java.class.path"));
        Process backend = builder.start();
        logs.put(backend, dir.resolve(shard.getFileName() + "-" + name + ".log"));
        return backend;
    }

    /** Waits until the backend answers a ping as ready; a failure shows the backend's output. */
    private void awaitReady(InetSocketAddress address, Process backend) throws Exception {
        try {
            BackendProcess.awaitReady(address, backend, WAIT);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\nits output:\n" + Files.readString(logs.get(backend)), e);
        }
    }

    private void awaitListening(InetSocketAddress address, Process backend) throws Exception {
        eventually("the backend on " + address + " listening, or ended", WAIT, () -> {
            if (backend.isAlive()) {
                new Socket(address.getAddress(), address.getPort()).close();
            }
        });
        assertThat(backend.isAlive())
                .as("backend on %s alive; its output:%n%s", address, Files.readString(logs.get(backend)))
                .isTrue();
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** 12 packages of 100 files, each line of a file a `return` statement: a result-heavy corpus. */
    private static void writeCorpus(Path root) throws IOException {
        Random random = new Random(60);
        for (int p = 0; p < 12; p++) {
            for (int f = 0; f < 100; f++) {
                StringBuilder text = new StringBuilder();
                for (int line = 0; line < 120; line++) {
                    text.append("    return value_")
                            .append(random.nextInt(1_000_000))
                            .append(" + ")
                            .append(line)
                            .append(";\n");
                }
                Path file = root.resolve("pkg" + p + "_1.0").resolve("src/f" + f + ".c");
                Files.createDirectories(file.getParent());
                Files.writeString(file, text);
            }
        }
    }
}
