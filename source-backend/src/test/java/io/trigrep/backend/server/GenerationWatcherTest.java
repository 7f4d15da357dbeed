package io.trigrep.backend.server;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.SegmentedIndex;
import io.trigrep.backend.ops.BackendMetrics;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.segments.LiveShard;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Issue 16: a new generation is noticed by the watch service alone, and by polling alone (for file systems without events). */
class GenerationWatcherTest {
    @ParameterizedTest(name = "watch {0}, poll every {1} ms")
    @CsvSource({"true, 0", "false, 100"})
    void noticesANewGeneration(boolean watch, long pollMillis, @TempDir Path dir) throws Exception {
        Path pkg = Files.createDirectories(dir.resolve("corpus/one_1.0"));
        Files.writeString(pkg.resolve("a.c"), "int a;\n");
        Files.writeString(pkg.resolve("b.c"), "int b;\n");
        Path root = Files.createDirectories(dir.resolve("index"));
        SegmentedIndex.buildSegment(dir.resolve("corpus"), root, 0, IndexBuilder.Options.defaults(1));
        SegmentedIndex.commit(root, 1, List.of(SegmentedIndex.Part.whole(0)));
        PrintStream log = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
        Path folder = root.resolve("shard-0");
        BackendMetrics metrics = new BackendMetrics("shard-0");
        try (Generations generations = new Generations(LiveShard.open(folder), log, metrics);
                GenerationWatcher watcher = new GenerationWatcher(
                        generations, folder, Duration.ofMillis(pollMillis), log, watch, () -> {})) {
            watcher.start();
            assertThat(generations.peek().generation()).isEqualTo(1);
            SegmentedIndex.commit(root, 2, List.of(new SegmentedIndex.Part(0, name -> name.endsWith("/b.c"))));
            eventually(
                    "generation 2 served",
                    PATIENCE,
                    () -> assertThat(generations.peek().generation()).isEqualTo(2));
            assertThat(generations.peek().liveDocs()).isEqualTo(1);
            assertThat(metrics.scrape())
                    .as("one reload, none failed")
                    .containsPattern("trigrep_backend_generation_reloads_total\\{[^}]*\\} 1\\.0")
                    .containsPattern("trigrep_backend_generation_reload_failures_total\\{[^}]*\\} 0\\.0");
        }
    }
}
