package io.trigrep.frontend.live;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.backend.server.BackendProcess;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.fanout.Topology;
import io.trigrep.frontend.http.FrontendServer;
import io.trigrep.frontend.metrics.FrontendMetrics;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.proto.Tls;
import io.trigrep.testing.Ports;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 62: two shards of two replicas each, real backend processes on loopback, a client
 * querying without pause. One replica of shard 0 is stopped (SIGSTOP), then killed, then
 * started again: every answer stays complete and without a duplicate. Then both replicas of
 * shard 1 are stopped: answers are partial, naming shard 1 as having no replica that answered
 * (not as having missed the deadline).
 */
@Tag("external") // starts backend processes through the launcher, and signals them
@Tag("integration")
class ReplicaFailoverEndToEndTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Duration WAIT = Duration.ofMinutes(2);
    /** Answers each phase collects, all begun after the phase's change. */
    static final int PER_PHASE = 25;

    @TempDir
    Path dir;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final ObjectMapper json = new ObjectMapper();

    /** One answer of the client's loop: when it was asked, and what it said. */
    record Answer(long askedNanos, int status, JsonNode body) {}

    @Test
    void aStoppedKilledAndRestartedReplicaCostsNoAnswerItsShard() throws Exception {
        Path corpus = dir.resolve("corpus");
        writeCorpus(corpus);
        Path index = dir.resolve("index");
        List<String> errors = new ArrayList<>();
        new IndexBuilder(IndexBuilder.Options.defaults(2), Clock.systemUTC())
                .build(Corpus.discover(List.of(corpus), dir, errors::add), index, errors::add);
        assertThat(errors).isEmpty();

        // replicas[shard][r]
        InetSocketAddress[][] addresses = new InetSocketAddress[2][2];
        Process[][] backends = new Process[2][2];
        List<List<InetSocketAddress>> shards = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            for (int r = 0; r < 2; r++) {
                addresses[s][r] = Ports.restartable();
            }
            shards.add(List.of(addresses[s]));
        }
        List<Answer> answers = new CopyOnWriteArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        Thread client = null;
        try {
            for (int s = 0; s < 2; s++) {
                for (int r = 0; r < 2; r++) {
                    backends[s][r] = start(index.resolve("shard-" + s), addresses[s][r], "r" + r);
                }
            }
            for (int s = 0; s < 2; s++) {
                for (int r = 0; r < 2; r++) {
                    BackendProcess.awaitReady(addresses[s][r], backends[s][r], WAIT);
                }
            }
            Path data = dir.resolve("data");
            FrontendMetrics metrics = new FrontendMetrics();
            try (FanOut fanOut = new FanOut(new Topology(shards), data, 2, metrics, Tls.PLAIN, false);
                    FrontendServer server = new FrontendServer(fanOut, 16, new QueryCache(data, 1L << 30, 0))) {
                URI search = URI.create("http://127.0.0.1:"
                        + server.start("127.0.0.1", 0).getPort()
                        + "/api/v1/search?q=replica_marker_%5Cd%2B&cache=false&per_page=1000");
                JsonNode whole = json.readTree(get(search).body());
                assertThat(whole.path("shards").path("failed")).isEmpty();
                long expected = whole.path("total_results").asLong();
                assertThat(expected).isBetween(100L, 1000L);
                List<String> names = fanOut.shardNames();

                client = new Thread(
                        () -> {
                            while (!stop.get()) {
                                long asked = System.nanoTime();
                                try {
                                    HttpResponse<String> a = get(search);
                                    answers.add(new Answer(asked, a.statusCode(), json.readTree(a.body())));
                                } catch (IOException | InterruptedException e) {
                                    answers.add(new Answer(asked, -1, null));
                                }
                            }
                        },
                        "replica-test-client");
                client.setDaemon(true);
                client.start();

                List<Answer> healthy = phase(answers);
                assertComplete(healthy, expected, "all replicas healthy");

                // The replica of shard 0 that answered more of the healthy phase is the one stopped:
                // the frontend is still sending it searches, which must be asked again of the other.
                int busy = answered(metrics, names.get(0), addresses[0][0])
                                >= answered(metrics, names.get(0), addresses[0][1])
                        ? 0
                        : 1;
                signal("STOP", backends[0][busy]);
                assertComplete(phase(answers), expected, "one replica of shard 0 stopped");
                assertThat(counter(metrics, "trigrep_replica_hedges_sent_total", names.get(0))
                                + counter(metrics, "trigrep_replica_failovers_total", names.get(0)))
                        .as("searches of shard 0 asked again of its other replica")
                        .isPositive();

                signal("KILL", backends[0][busy]);
                backends[0][busy].waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                assertComplete(phase(answers), expected, "one replica of shard 0 killed");

                backends[0][busy] = start(index.resolve("shard-0"), addresses[0][busy], "r" + busy + "-again");
                assertComplete(phase(answers), expected, "one replica of shard 0 restarting");
                BackendProcess.awaitReady(addresses[0][busy], backends[0][busy], WAIT);
                assertComplete(phase(answers), expected, "the replica of shard 0 back");

                signal("STOP", backends[1][0]);
                signal("STOP", backends[1][1]);
                List<Answer> noShard1 = phase(answers);
                for (Answer a : noShard1) {
                    assertThat(a.status()).as("an answer, not an error").isEqualTo(200);
                    JsonNode failed = a.body().path("shards").path("failed");
                    assertThat(failed).as("every replica of shard 1 stopped").hasSize(1);
                    assertThat(failed.get(0).path("shard").asText()).isEqualTo(names.get(1));
                    assertThat(failed.get(0).path("reason").asText()).startsWith("no replica answered");
                    assertThat(a.body().path("partial").asBoolean()).isTrue();
                    assertNoDuplicate(a.body());
                }
                signal("CONT", backends[1][0]);
                signal("CONT", backends[1][1]);
                assertComplete(phase(answers), expected, "shard 1 back");
                stop.set(true);
                client.join(WAIT.toMillis());
            }
        } finally {
            stop.set(true);
            for (Process[] shard : backends) {
                for (Process p : shard) {
                    if (p != null) {
                        p.destroyForcibly();
                        p.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                    }
                }
            }
        }
    }

    /** The next {@link #PER_PHASE} answers asked from now on, once they are in. */
    private static List<Answer> phase(List<Answer> answers) throws InterruptedException {
        long from = System.nanoTime();
        return eventuallyGet(PER_PHASE + " answers asked from now on", WAIT, () -> {
            List<Answer> in = new ArrayList<>();
            for (Answer a : answers) {
                if (a.askedNanos() - from >= 0) {
                    in.add(a);
                }
            }
            return in.size() >= PER_PHASE ? in.subList(0, PER_PHASE) : null;
        });
    }

    private static void assertComplete(List<Answer> answers, long expected, String phase) {
        for (Answer a : answers) {
            assertThat(a.status()).as("%s: an answer", phase).isEqualTo(200);
            assertThat(a.body().path("shards").path("failed"))
                    .as("%s: a complete answer", phase)
                    .isEmpty();
            assertThat(a.body().path("total_results").asLong())
                    .as("%s: every result", phase)
                    .isEqualTo(expected);
            assertThat(a.body().path("results").size())
                    .as("%s: every result on the page", phase)
                    .isEqualTo((int) expected);
            assertNoDuplicate(a.body());
        }
    }

    /** How many parts of queries of {@code shard} the replica at {@code address} answered. */
    private static double answered(FrontendMetrics metrics, String shard, InetSocketAddress address) {
        String replica = "replica=\"" + address.getHostString() + ":" + address.getPort() + "\"";
        for (String line : metrics.scrape().split("\n")) {
            if (line.startsWith("trigrep_replica_duration_seconds_count{")
                    && line.contains(replica)
                    && line.contains("shard=\"" + shard + "\"")) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    private static double counter(FrontendMetrics metrics, String name, String shard) {
        String prefix = name + "{shard=\"" + shard + "\"} ";
        for (String line : metrics.scrape().split("\n")) {
            if (line.startsWith(prefix)) {
                return Double.parseDouble(line.substring(prefix.length()).trim());
            }
        }
        return 0;
    }

    private static void assertNoDuplicate(JsonNode body) {
        Set<String> seen = new HashSet<>();
        for (JsonNode r : body.path("results")) {
            String key = r.path("package").asText() + "/" + r.path("path").asText() + ":"
                    + r.path("line").asText();
            assertThat(seen.add(key)).as("result %s once", key).isTrue();
        }
        assertThat(seen).hasSize(body.path("results").size());
    }

    private static void signal(String signal, Process backend) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(backend.pid()))
                .inheritIO()
                .start();
        assertThat(kill.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -%s", signal).isZero();
        if (signal.equals("STOP")) {
            // kill returns once the signal is sent; each thread stops when the kernel next runs it.
            eventually("every thread of " + backend.pid() + " stopped", PATIENCE, () -> {
                try (var tasks = Files.list(Path.of("/proc", Long.toString(backend.pid()), "task"))) {
                    for (Path task : tasks.toList()) {
                        String stat = Files.readAllLines(task.resolve("stat")).get(0);
                        assertThat(stat.charAt(stat.lastIndexOf(')') + 2))
                                .as("%s state", task)
                                .isEqualTo('T');
                    }
                }
            });
        }
    }

    /** Starts a backend on {@code address} through the launcher. */
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
        return builder.start();
    }

    private HttpResponse<String> get(URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).timeout(WAIT).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** 20 packages of 30 files; every tenth line of a file names a marker: a few hundred results over both shards. */
    private static void writeCorpus(Path root) throws IOException {
        for (int p = 0; p < 20; p++) {
            for (int f = 0; f < 30; f++) {
                StringBuilder text = new StringBuilder();
                for (int line = 0; line < 40; line++) {
                    if (f % 3 == 0 && line % 20 == 0) {
                        text.append("int replica_marker_")
                                .append(p * 1000 + f)
                                .append(" = ")
                                .append(line);
                    } else {
                        text.append("int value_").append(line).append(" = ").append(f);
                    }
                    text.append(";\n");
                }
                Path file = root.resolve("pkg" + p + "_1.0").resolve("src/f" + f + ".c");
                Files.createDirectories(file.getParent());
                Files.writeString(file, text);
            }
        }
    }
}
