package io.trigrep.backend.server;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.SegmentedIndex;
import io.trigrep.backend.StreamClient;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.format.ShardFiles;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.proto.Done;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.Tls;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16: a backend switches to each new generation committed while it serves. A query held
 * by backpressure when the switch comes ends on the generation it started on, complete; new
 * queries see the new one; queries running through the switch never fail nor mix generations;
 * once the old query ends the old generation is unmapped (no deleted file stays mapped); a
 * generation with a corrupt segment is refused, its path logged, the old one serving on.
 */
@Tag("integration")
class GenerationSwitchTest {
    private static final String EVERY_LINE = ".";

    @Test
    void switchesWhileServingAndUnmapsTheOldGenerationAfterItsLastQuery(@TempDir Path dir) throws Exception {
        Path root = Files.createDirectories(dir.resolve("index"));
        // A large package, so that one query's answer is many times what socket buffers hold.
        Path alpha = Files.createDirectories(dir.resolve("c0/alpha_1.0"));
        for (int f = 0; f < 30; f++) {
            StringBuilder text = new StringBuilder();
            for (int line = 1; line <= 1000; line++) {
                text.append("alpha line ")
                        .append(line)
                        .append(" of file ")
                        .append(f)
                        .append(" with filler words\n");
            }
            Files.writeString(alpha.resolve("f" + f + ".txt"), text);
        }
        SegmentedIndex.buildSegment(dir.resolve("c0"), root, 0, IndexBuilder.Options.defaults(1));
        beta(dir, root, 3, "old-only-marker");
        SegmentedIndex.commit(root, 1, List.of(SegmentedIndex.Part.whole(0), SegmentedIndex.Part.whole(3)));

        ByteArrayOutputStream logBytes = new ByteArrayOutputStream();
        PrintStream log = new PrintStream(logBytes, true, StandardCharsets.UTF_8);
        try (BackendServer server = new BackendServer(
                root.resolve("shard-0"), BackendConfig.defaults(), ShardCheck.none("shard-0"), Tls.PLAIN, log)) {
            InetSocketAddress at = server.start("127.0.0.1", 0);
            server.watch(Duration.ofMillis(200));
            assertThat(server.generation()).isEqualTo(1);
            Answer complete = collect(at, EVERY_LINE, 10);
            assertThat(complete.generation).isEqualTo(1);
            assertThat(complete.lines).hasSize(30_002);

            // Queries through the switch: each ends with done, and sees one generation's files.
            AtomicBoolean running = new AtomicBoolean(true);
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            Set<Long> seen = java.util.concurrent.ConcurrentHashMap.newKeySet();
            Thread steady = new Thread(() -> {
                while (running.get()) {
                    try {
                        Answer a = collect(at, "(old-only|generation-two)-marker|beta common", 0);
                        String marker = a.generation == 1 ? "old.c" : "new.c";
                        if (a.lines.size() != 2 || a.lines.stream().noneMatch(l -> l.contains(marker))) {
                            problems.add("generation " + a.generation + ": " + a.lines);
                        }
                        seen.add(a.generation);
                        Thread.sleep(5);
                    } catch (Exception | AssertionError e) {
                        problems.add(e.toString());
                    }
                }
            });
            steady.start();

            try (StreamClient slow = new StreamClient(at, 16 << 10)) {
                slow.send(search(EVERY_LINE, 10));
                List<String> lines = new ArrayList<>();
                take(slow.next(), lines);

                beta(dir, root, 4, "generation-two-marker");
                Generation second = SegmentedIndex.commit(
                        root, 2, List.of(SegmentedIndex.Part.whole(0), SegmentedIndex.Part.whole(4)));
                // What an update does after committing: the old generation's files go, mapped or not.
                assertThat(IndexFolder.removeUnreferenced(root, second)).contains(root.resolve("shard-0/seg-3"));
                eventually(
                        "the backend serves generation 2",
                        PATIENCE,
                        () -> assertThat(server.generation()).isEqualTo(2));
                assertThat(server.queriesInFlight())
                        .as("the slow query still runs, held by backpressure")
                        .isGreaterThanOrEqualTo(1);
                assertThat(deletedMappings(root))
                        .as("the old generation stays mapped while its query runs")
                        .anyMatch(m -> m.contains("seg-3/"));

                Answer fresh = collect(at, "generation-two-marker|old-only-marker", 0);
                assertThat(fresh.generation).isEqualTo(2);
                assertThat(fresh.lines).containsExactly("beta_1.0/new.c:1");

                // Now read the slow answer to its end: complete, on generation 1.
                Response.Reader r;
                while ((r = slow.next()).which() != Response.Which.DONE) {
                    assertThat(r.which()).isNotEqualTo(Response.Which.ERROR);
                    take(r, lines);
                }
                Done.Reader done = r.getDone();
                assertThat(done.getGeneration()).isEqualTo(1);
                assertThat(done.getTruncation()).isEqualTo(Done.Truncation.NONE);
                assertThat(lines).hasSize(complete.lines.size());
                assertThat(new HashSet<>(lines)).isEqualTo(new HashSet<>(complete.lines));
            }
            running.set(false);
            steady.join(PATIENCE.toMillis());
            assertThat(problems).isEmpty();
            assertThat(seen).contains(2L);

            // Generation 1 unmapped once its last query ended: none of its deleted files stays mapped.
            eventually(
                    "no deleted file of the index mapped",
                    PATIENCE,
                    () -> assertThat(deletedMappings(root)).isEmpty());
            assertThat(server.metrics().scrape())
                    .containsPattern("trigrep_backend_generation\\{[^}]*\\} 2\\.0")
                    .containsPattern("trigrep_backend_generation_reloads_total\\{[^}]*\\} 1\\.0");

            // A generation with a corrupt segment is refused, named; generation 2 serves on.
            beta(dir, root, 6, "generation-three-marker");
            Path contents = root.resolve("shard-0/seg-6").resolve(ShardFiles.CONTENTS);
            try (FileChannel file = FileChannel.open(contents, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
                long at2 = file.size() / 2;
                ByteBuffer b = ByteBuffer.allocate(1);
                file.read(b, at2);
                b.put(0, (byte) (b.get(0) ^ 0x55)).rewind();
                file.write(b, at2);
            }
            SegmentedIndex.commit(root, 3, List.of(SegmentedIndex.Part.whole(0), SegmentedIndex.Part.whole(6)));
            eventually(
                    "generation 3 refused",
                    PATIENCE,
                    () -> assertThat(server.metrics().scrape())
                            .containsPattern("trigrep_backend_generation_reload_failures_total\\{[^}]*\\} 1\\.0"));
            // The operator's one pointer to the corrupt file: the refusal names its path (the log
            // line may follow the counter).
            eventually(
                    "the refusal naming the corrupt segment",
                    PATIENCE,
                    () -> assertThat(logBytes.toString(StandardCharsets.UTF_8))
                            .contains(root.resolve("shard-0/seg-6").toString()));
            assertThat(server.generation()).isEqualTo(2);
            assertThat(collect(at, "generation-two-marker", 0).generation).isEqualTo(2);

            // The next generation is tried again, and served.
            beta(dir, root, 8, "generation-three-marker");
            SegmentedIndex.commit(root, 4, List.of(SegmentedIndex.Part.whole(0), SegmentedIndex.Part.whole(8)));
            eventually(
                    "the backend serves generation 4",
                    PATIENCE,
                    () -> assertThat(server.generation()).isEqualTo(4));
            Answer third = collect(at, "generation-(two|three)-marker", 0);
            assertThat(third.generation).isEqualTo(4);
            assertThat(third.lines).containsExactly("beta_1.0/new.c:1");
        }
    }

    /** Builds the beta package, a file {@code marker.c} naming its version and a common file, as segment {@code id}. */
    private static void beta(Path dir, Path root, long id, String marker) throws Exception {
        Path pkg = Files.createDirectories(dir.resolve("c" + id + "/beta_1.0"));
        Files.writeString(pkg.resolve(marker.startsWith("old") ? "old.c" : "new.c"), marker + "\n");
        Files.writeString(pkg.resolve("common.c"), "beta common line\n");
        SegmentedIndex.buildSegment(dir.resolve("c" + id), root, id, IndexBuilder.Options.defaults(1));
    }

    /** Lines of this process's memory map that map a deleted file of the index. */
    private static List<String> deletedMappings(Path root) {
        try {
            return Files.readAllLines(Path.of("/proc/self/maps")).stream()
                    .filter(l -> l.contains(root.toString()) && l.endsWith("(deleted)"))
                    .toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static MessageBuilder search(String query, int context) {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory)
                .initSearch()
                .setQuery(query)
                .setContextLines(context)
                .setDeadlineMillis(120_000);
        return request;
    }

    private static void take(Response.Reader r, List<String> lines) {
        if (r.which() == Response.Which.RESULT) {
            lines.add(r.getResult().getPackage() + "/" + r.getResult().getPath() + ":"
                    + r.getResult().getLine());
        }
    }

    record Answer(List<String> lines, long generation) {}

    private static Answer collect(InetSocketAddress at, String query, int context) throws Exception {
        List<String> lines = new ArrayList<>();
        long[] generation = {-1};
        StreamClient.exchange(at, search(query, context), r -> {
            switch (r.which()) {
                case RESULT -> take(r, lines);
                case DONE -> generation[0] = r.getDone().getGeneration();
                case ERROR -> throw new AssertionError("error: " + r.getError().getMessage());
                default -> {}
            }
        });
        lines.sort(null);
        return new Answer(lines, generation[0]);
    }
}
