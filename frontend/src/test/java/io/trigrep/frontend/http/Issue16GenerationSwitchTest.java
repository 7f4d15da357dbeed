package io.trigrep.frontend.http;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.backend.TestShards;
import io.trigrep.backend.server.BackendConfig;
import io.trigrep.backend.server.BackendServer;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16: a cached answer is never served once the frontend knows its shard moved to another
 * generation. Real backends over TCP on real shards, the frontend over HTTP: one shard's index is
 * rebuilt without a package and its backend restarted on it, while a client keeps asking; and a
 * backend that switches generation while serving, told to the frontend by a search's answer
 * alone, with no status poll in between.
 */
@Tag("integration")
class Issue16GenerationSwitchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    Path dir;

    @Test
    void aRebuiltShardsRemovedPackageIsNeverServedFromTheCacheOnceItsGenerationIsKnown() throws Exception {
        Path before = dir.resolve("corpus-a");
        write(before.resolve("keep_1.0/keep.c"), "int generation_marker = 1; /* keep */\n");
        write(before.resolve("gone_1.0/gone.c"), "int generation_marker = 2; /* gone */\n");
        Path other = dir.resolve("corpus-b");
        write(other.resolve("other_1.0/other.c"), "int generation_marker = 3; /* other */\n");
        Shard oldShard = TestShards.build(before, dir.resolve("index-a"), 1).get(0);
        Shard otherShard = TestShards.build(other, dir.resolve("index-b"), 1).get(0);
        BackendServer first = new BackendServer(oldShard, BackendConfig.defaults());
        BackendServer second = new BackendServer(otherShard, BackendConfig.defaults());
        List<InetSocketAddress> addresses = new ArrayList<>();
        addresses.add(first.start("127.0.0.1", 0));
        addresses.add(second.start("127.0.0.1", 0));
        String shard0 = "127.0.0.1:" + addresses.get(0).getPort();
        BackendServer rebuilt = null;
        AtomicBoolean stop = new AtomicBoolean();
        Thread client = null;
        try (FanOut fanOut = new FanOut(addresses, dir.resolve("data"), 2);
                FrontendServer frontend = new FrontendServer(fanOut, 8)) {
            frontend.pollStatusEvery(Duration.ofMillis(100));
            String base = "http://127.0.0.1:" + frontend.start("127.0.0.1", 0).getPort();
            long oldGeneration = generationOf(dir.resolve("index-a"));
            long otherGeneration = generationOf(dir.resolve("index-b"));
            awaitGeneration(base, 0, oldGeneration);
            awaitGeneration(base, 1, otherGeneration);

            assertThat(packages(search(base))).containsExactly("gone_1.0", "keep_1.0", "other_1.0");
            double hits = metric(base, "trigrep_cache_hits_total");
            assertThat(packages(search(base))).containsExactly("gone_1.0", "keep_1.0", "other_1.0");
            assertThat(metric(base, "trigrep_cache_hits_total"))
                    .as("served from the cache")
                    .isEqualTo(hits + 1);
            assertThat(metric(base, "trigrep_shard_generation{shard=\"" + shard0 + "\"}"))
                    .isEqualTo((double) oldGeneration);

            // A client asking all along: once the frontend has said it knows the new generation,
            // no answer to a request sent after may hold the removed package.
            AtomicBoolean learnt = new AtomicBoolean();
            AtomicInteger askedAfter = new AtomicInteger();
            List<String> violations = new CopyOnWriteArrayList<>();
            client = new Thread(
                    () -> {
                        while (!stop.get()) {
                            boolean known = learnt.get();
                            try {
                                HttpResponse<String> r = get(base + "/api/v1/search?q=generation_marker&per_page=100");
                                if (r.statusCode() == 200
                                        && known
                                        && packages(JSON.readTree(r.body())).contains("gone_1.0")) {
                                    violations.add(r.body());
                                }
                            } catch (Exception e) {
                                violations.add("request failed: " + e);
                            }
                            if (known) {
                                askedAfter.incrementAndGet();
                            }
                        }
                    },
                    "issue16-client");
            client.start();

            first.close();
            Path after = dir.resolve("corpus-a2");
            write(after.resolve("keep_1.0/keep.c"), "int generation_marker = 1; /* keep */\n");
            Shard newShard;
            do { // a build in the same millisecond would look like the same generation
                deleteTree(dir.resolve("index-a2"));
                newShard = TestShards.build(after, dir.resolve("index-a2"), 1).get(0);
            } while (generationOf(dir.resolve("index-a2")) == oldGeneration);
            long newGeneration = generationOf(dir.resolve("index-a2"));
            rebuilt = new BackendServer(newShard, BackendConfig.defaults());
            rebuilt.start("127.0.0.1", addresses.get(0).getPort());

            JsonNode status = awaitGeneration(base, 0, newGeneration);
            learnt.set(true);
            eventually(
                    "20 requests sent after the switch was known",
                    PATIENCE,
                    () -> assertThat(askedAfter.get()).isGreaterThanOrEqualTo(20));
            stop.set(true);
            client.join(PATIENCE.toMillis());
            assertThat(violations).isEmpty();

            JsonNode shard = status.get("shards").get(0);
            io.trigrep.proto.Status.Reader told = backendStatus(addresses.get(0));
            assertThat(told.getGeneration()).isEqualTo(newGeneration);
            assertThat(shard.get("segments").asLong()).isEqualTo(told.getSegments());
            assertThat(shard.get("deleted_files").asLong()).isEqualTo(told.getDeletedFiles());
            assertThat(shard.get("reachable").asBoolean()).isTrue();
            assertThat(packages(search(base))).containsExactly("keep_1.0", "other_1.0");
            assertThat(metric(base, "trigrep_shard_generation{shard=\"" + shard0 + "\"}"))
                    .isEqualTo((double) newGeneration);
            assertThat(metric(base, "trigrep_cache_stale_total"))
                    .as("the one cached answer of the old generation, dropped")
                    .isEqualTo(1.0);
            assertThat(get(base + "/").body())
                    .contains("<p id=\"generations\">index generation: shard-0 " + newGeneration + ", shard-0 "
                            + otherGeneration + "</p>");
        } finally {
            stop.set(true);
            if (client != null) {
                client.join(10_000);
            }
            first.close();
            second.close();
            if (rebuilt != null) {
                rebuilt.close();
            }
        }
    }

    /**
     * A backend that serves generation 1, then 2, told by its searches' "done" (and by its status,
     * which the frontend asks for only at start here): the first search after the switch, of
     * another query, makes every cached answer of generation 1 stale for everyone.
     */
    @Test
    void theFirstAnswerFromTheNewGenerationInvalidatesTheCacheWithoutAStatusPoll() throws Exception {
        AtomicLong serving = new AtomicLong(1);
        AtomicInteger searches = new AtomicInteger();
        try (ServerSocket fake = new ServerSocket(0)) {
            Thread serve = new Thread(() -> serve(fake, serving, searches), "issue16-backend");
            serve.setDaemon(true);
            serve.start();
            try (FanOut fanOut = new FanOut(
                            List.of(new InetSocketAddress("127.0.0.1", fake.getLocalPort())), dir.resolve("data"), 1);
                    FrontendServer frontend =
                            new FrontendServer(fanOut, 4, new QueryCache(dir.resolve("data"), 1L << 30, 0))) {
                frontend.pollStatusEvery(Duration.ofHours(1));
                String base =
                        "http://127.0.0.1:" + frontend.start("127.0.0.1", 0).getPort();
                awaitGeneration(base, 0, 1);
                assertThat(packages(search(base, "marker"))).containsExactly("pkg_gen1");
                assertThat(packages(search(base, "marker"))).containsExactly("pkg_gen1");
                assertThat(searches.get())
                        .as("the second answer came from the cache")
                        .isEqualTo(1);

                serving.set(2);
                assertThat(packages(search(base, "another"))).containsExactly("pkg_gen2");
                assertThat(metric(base, "trigrep_shard_generation{shard=\"127.0.0.1:" + fake.getLocalPort() + "\"}"))
                        .isEqualTo(2.0);
                assertThat(packages(search(base, "marker"))).containsExactly("pkg_gen2");
                assertThat(searches.get()).isEqualTo(3);
                assertThat(metric(base, "trigrep_cache_stale_total")).isEqualTo(1.0);
                assertThat(packages(search(base, "marker"))).containsExactly("pkg_gen2");
                assertThat(searches.get())
                        .as("the new answer is cached in turn")
                        .isEqualTo(3);
            }
        }
    }

    /** One request per connection: a search gets one result from package pkg_genN and a "done" saying N. */
    private static void serve(ServerSocket fake, AtomicLong serving, AtomicInteger searches) {
        while (!fake.isClosed()) {
            try (Socket socket = fake.accept()) {
                ByteBuffer frame = Framing.readFrame(Channels.newChannel(socket.getInputStream()), FrameLimits.DEFAULT);
                Request.Reader request = Messages.request(Framing.read(frame, FrameLimits.DEFAULT));
                var out = Channels.newChannel(socket.getOutputStream());
                long generation = serving.get();
                if (request.which() == Request.Which.SEARCH) {
                    searches.incrementAndGet();
                    MessageBuilder m = Messages.newBuilder();
                    m.initRoot(Response.factory)
                            .initResult()
                            .setPackage("pkg_gen" + generation)
                            .setPath("a.c")
                            .setLine(1)
                            .setContext("marker")
                            .setRanking(1);
                    Framing.write(m, out);
                    MessageBuilder done = Messages.newBuilder();
                    done.initRoot(Response.factory).initDone().setResults(1).setGeneration(generation);
                    Framing.write(done, out);
                } else {
                    MessageBuilder status = Messages.newBuilder();
                    status.initRoot(Response.factory)
                            .initStatus()
                            .setShard("fake")
                            .setGeneration(generation)
                            .setSegments(1);
                    Framing.write(status, out);
                }
            } catch (Exception e) {
                // the test is over, or the frontend hung up
            }
        }
    }

    /** The status the backend at {@code address} answers a ping with, asked directly. */
    private static io.trigrep.proto.Status.Reader backendStatus(InetSocketAddress address) throws Exception {
        MessageBuilder ping = Messages.newBuilder();
        ping.initRoot(Request.factory).setPing();
        ByteBuffer frame = io.trigrep.proto.BackendClient.ask(io.trigrep.proto.Tls.PLAIN, address, ping, 5000, 5000);
        return Messages.response(Framing.read(frame, FrameLimits.DEFAULT)).getStatus();
    }

    private JsonNode search(String base) throws Exception {
        return search(base, "generation_marker");
    }

    private JsonNode search(String base, String query) throws Exception {
        HttpResponse<String> r = get(base + "/api/v1/search?q=" + query + "&per_page=100");
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode answer = JSON.readTree(r.body());
        assertThat(answer.get("partial").asBoolean()).as(r.body()).isFalse();
        return answer;
    }

    private static Set<String> packages(JsonNode answer) {
        Set<String> out = new TreeSet<>();
        for (JsonNode result : answer.get("results")) {
            out.add(result.get("package").asText());
        }
        return out;
    }

    /** The generation a full build committed in {@code index}: its number, the build's time. */
    private static long generationOf(Path index) throws Exception {
        return io.trigrep.indexer.segments.IndexFolder.latest(index)
                .orElseThrow()
                .number();
    }

    /** The status once backend {@code shard} reports {@code generation}. */
    private JsonNode awaitGeneration(String base, int shard, long generation) throws Exception {
        return eventuallyGet("backend " + shard + " reporting generation " + generation, PATIENCE, () -> {
            JsonNode status = JSON.readTree(get(base + "/api/v1/status").body());
            assertThat(status.get("shards").get(shard).get("generation").asLong())
                    .as("%s", status)
                    .isEqualTo(generation);
            return status;
        });
    }

    private double metric(String base, String series) throws Exception {
        for (String line : get(base + "/metrics").body().split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1));
            }
        }
        throw new AssertionError("no " + series + " in /metrics");
    }

    private HttpResponse<String> get(String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private static void deleteTree(Path root) throws Exception {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
