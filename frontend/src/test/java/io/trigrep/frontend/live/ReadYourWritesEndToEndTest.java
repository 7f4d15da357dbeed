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
import io.trigrep.indexer.cli.UpdateCommand;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.segments.ServingBackends;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Read your writes, end to end: two backends (child JVMs) and a frontend with its cache on serve
 * an index while 50 rounds of {@code update --add} and {@code update --remove} run through the
 * update command, and clients ask the same query all along (so most answers come from the
 * cache). No answer to a query sent after an update returned holds a package it removed, and
 * every complete one holds each package an update had added by then.
 */
@Tag("integration")
class ReadYourWritesEndToEndTest {
    private static final int ROUNDS = 50;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private String base;

    /** An answer: when its query was sent, whether it was partial, and the packages it holds. */
    private record Answer(long sentNanos, boolean partial, Set<String> packages) {}

    @Test
    void noAnswerAfterAnUpdateReturnedMissesItsChange() throws Exception {
        Path corpus = dir.resolve("corpus");
        writePackage(corpus.resolve("stable0_1.0"));
        writePackage(corpus.resolve("stable1_1.0"));
        Path index = dir.resolve("index");
        List<String> errors = new ArrayList<>();
        new IndexBuilder(IndexBuilder.Options.defaults(2), Clock.systemUTC())
                .build(Corpus.discover(List.of(corpus), dir, errors::add), index, errors::add);
        assertThat(errors).isEmpty();

        List<Process> backends = new ArrayList<>();
        List<InetSocketAddress> addresses = new ArrayList<>();
        try {
            for (int k = 0; k < 2; k++) {
                Process p = BackendProcess.start("128m", index.resolve("shard-" + k));
                backends.add(p);
                addresses.add(BackendProcess.announced(p, index));
            }
            Path data = dir.resolve("data");
            try (FanOut fanOut = new FanOut(addresses, data, 2);
                    FrontendServer server = new FrontendServer(fanOut, 16, new QueryCache(data, 1L << 30, 0))) {
                base = "http://127.0.0.1:" + server.start("127.0.0.1", 0).getPort();
                run(index, corpus);
            }
        } finally {
            for (Process p : backends) {
                p.destroy();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private void run(Path index, Path corpus) throws Exception {
        eventually(
                "both backends announced",
                PATIENCE,
                () -> assertThat(ServingBackends.alive(index, Instant.now())).hasSize(2));
        eventually(
                "the frontend answers in full",
                PATIENCE,
                () -> assertThat(ask().packages()).isEqualTo(Set.of("stable0_1.0", "stable1_1.0")));

        // Per package: when the update that added it returned, and when the one that removed it began and returned.
        Map<String, Long> added = new ConcurrentHashMap<>();
        Map<String, Long> removing = new ConcurrentHashMap<>();
        Map<String, Long> removed = new ConcurrentHashMap<>();
        List<Answer> answers = new CopyOnWriteArrayList<>();
        List<String> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean done = new AtomicBoolean();
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 2; c++) {
            Thread t = new Thread(() -> {
                while (!done.get()) {
                    try {
                        answers.add(ask());
                    } catch (Exception e) {
                        failures.add(e.toString());
                    }
                }
            });
            t.start();
            clients.add(t);
        }
        try {
            for (int round = 0; round < ROUNDS; round++) {
                String name = "churn" + (round / 2);
                if (round % 2 == 0) {
                    Path pkg = corpus.resolve(name + "_1.0");
                    writePackage(pkg);
                    assertThat(update(index, "--add", pkg.toString()))
                            .as("round %d", round)
                            .isZero();
                    added.put(name + "_1.0", System.nanoTime());
                } else {
                    removing.put(name + "_1.0", System.nanoTime());
                    assertThat(update(index, "--remove", name))
                            .as("round %d", round)
                            .isZero();
                    removed.put(name + "_1.0", System.nanoTime());
                }
            }
        } finally {
            done.set(true);
            for (Thread t : clients) {
                t.join(PATIENCE.toMillis());
            }
        }

        for (Answer a : answers) {
            for (Map.Entry<String, Long> r : removed.entrySet()) {
                if (a.sentNanos() > r.getValue() && a.packages().contains(r.getKey())) {
                    failures.add(r.getKey() + " answered " + (a.sentNanos() - r.getValue()) / 1_000_000
                            + " ms after its removal returned");
                }
            }
            for (Map.Entry<String, Long> n : added.entrySet()) {
                Long gone = removing.get(n.getKey());
                boolean present = a.sentNanos() > n.getValue() && (gone == null || a.sentNanos() < gone);
                if (present && !a.partial() && !a.packages().contains(n.getKey())) {
                    failures.add(n.getKey() + " missing " + (a.sentNanos() - n.getValue()) / 1_000_000
                            + " ms after its addition returned");
                }
            }
            if (a.partial()) {
                failures.add("a partial answer");
            }
        }
        assertThat(failures).as("of %d answers", answers.size()).isEmpty();
        assertThat(answers.size()).isGreaterThan(ROUNDS);
    }

    private static int update(Path index, String... change) {
        List<String> args = new ArrayList<>(List.of("--index", index.toString()));
        args.addAll(List.of(change));
        return new CommandLine(new UpdateCommand()).execute(args.toArray(String[]::new));
    }

    private Answer ask() throws IOException, InterruptedException {
        long sent = System.nanoTime();
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(base + "/api/v1/search?per_page=100&q=ryw_marker"))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        JsonNode body = JSON.readTree(response.body());
        Set<String> packages = new HashSet<>();
        for (JsonNode result : body.path("results")) {
            packages.add(result.path("package").asText());
        }
        return new Answer(sent, body.path("partial").asBoolean(), packages);
    }

    private static void writePackage(Path folder) throws IOException {
        Path file = folder.resolve("src/main.c");
        Files.createDirectories(file.getParent());
        Files.writeString(file, "int x;\n/* ryw_marker */\nint y;\n");
    }
}
