package io.trigrep.backend.server;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.SegmentedIndex;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.segments.ServingBackends;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import io.trigrep.proto.Tls;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A backend says which generation it serves in its index folder's {@code serving/} file, and
 * says a new one only after every frontend that pings it with heartbeats has learnt it: the
 * order an update's wait relies on.
 */
@Tag("integration")
class ServingFileTest {
    private static final long FRONTEND = 42;

    @Test
    void announcesASwitchOnlyOnceTheFrontendsLearntIt(@TempDir Path dir) throws Exception {
        Path pkg = Files.createDirectories(dir.resolve("corpus/one_1.0"));
        Files.writeString(pkg.resolve("a.c"), "int a;\n");
        Files.writeString(pkg.resolve("b.c"), "int b;\n");
        Path root = Files.createDirectories(dir.resolve("index"));
        SegmentedIndex.buildSegment(dir.resolve("corpus"), root, 0, IndexBuilder.Options.defaults(1));
        SegmentedIndex.commit(root, 1, List.of(SegmentedIndex.Part.whole(0)));
        PrintStream log = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (BackendServer server = new BackendServer(
                root.resolve("shard-0"), BackendConfig.defaults(), ShardCheck.none("shard-0"), Tls.PLAIN, log)) {
            InetSocketAddress at = server.start("127.0.0.1", 0);
            server.watch(Duration.ZERO);
            eventually(
                    "generation 1 announced",
                    PATIENCE,
                    () -> assertThat(announced(root)).isEqualTo(1));
            assertThat(heartbeat(at, 1)).isEqualTo(1);
            // The frontend keeps pinging, as a live one does, saying what it learnt last.
            AtomicLong learnt = new AtomicLong(1);
            AtomicBoolean stop = new AtomicBoolean();
            Thread pings = new Thread(() -> {
                while (!stop.get()) {
                    try {
                        heartbeat(at, learnt.get());
                        Thread.sleep(50);
                    } catch (Exception e) {
                        return;
                    }
                }
            });
            pings.start();

            SegmentedIndex.commit(root, 2, List.of(new SegmentedIndex.Part(0, name -> name.endsWith("/b.c"))));
            eventually(
                    "the switch to generation 2",
                    PATIENCE,
                    () -> assertThat(server.generation()).isEqualTo(2));
            // Serving 2, but the frontend has not said it learnt it: the file still says 1, and an
            // update's wait for 2 gives up naming this backend.
            assertThat(announced(root)).isEqualTo(1);
            assertThat(ServingBackends.await(root, 2, Duration.ofMillis(200)))
                    .extracting(ServingBackends.Entry::generation)
                    .containsExactly(1L);

            learnt.set(2);
            eventually(
                    "generation 2 announced once learnt",
                    PATIENCE,
                    () -> assertThat(announced(root)).isEqualTo(2));
            assertThat(ServingBackends.await(root, 2, PATIENCE)).isEmpty();
            stop.set(true);
            pings.join();
        }
        assertThat(ServingBackends.alive(root, Instant.now()))
                .as("deleted when the backend stops")
                .isEmpty();
    }

    @Test
    void aFolderWithoutGenerationsGetsNoFile(@TempDir Path dir) throws Exception {
        Path pkg = Files.createDirectories(dir.resolve("corpus/one_1.0"));
        Files.writeString(pkg.resolve("a.c"), "int a;\n");
        Path root = Files.createDirectories(dir.resolve("index"));
        SegmentedIndex.buildSegment(dir.resolve("corpus"), root, 0, IndexBuilder.Options.defaults(1));
        PrintStream log = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        try (BackendServer server = new BackendServer(
                root.resolve("shard-0"), BackendConfig.defaults(), ShardCheck.none("shard-0"), Tls.PLAIN, log)) {
            server.start("127.0.0.1", 0);
            server.watch(Duration.ZERO);
            assertThat(Files.exists(ServingBackends.folder(root))).isFalse();
        }
    }

    /** Sends frontend {@link #FRONTEND}'s heartbeat saying it learnt {@code known}; the generation the answer says. */
    private static long heartbeat(InetSocketAddress at, long known) throws Exception {
        ByteBuffer frame = BackendClient.ask(Tls.PLAIN, at, Messages.heartbeat(FRONTEND, known), 10_000, 10_000);
        Response.Reader answer = Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
        assertThat(answer.which()).isEqualTo(Response.Which.STATUS);
        return answer.getStatus().getGeneration();
    }

    private static long announced(Path root) throws Exception {
        List<ServingBackends.Entry> alive = ServingBackends.alive(root, Instant.now());
        return alive.size() == 1 ? alive.get(0).generation() : -1;
    }
}
