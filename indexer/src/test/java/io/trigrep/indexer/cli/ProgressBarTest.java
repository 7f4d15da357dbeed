package io.trigrep.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.build.IndexStats;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The progress line says what the build does once its input is read, instead of standing at 100 % without a word. */
class ProgressBarTest {
    @Test
    void namesThePhaseOnlyOnceTheInputIsRead() {
        IndexStats stats = io.trigrep.indexer.build.BuildPhases.stats();
        AtomicLong done = new AtomicLong(50);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (ProgressBar bar = new ProgressBar(
                stats, done::get, () -> 100, new PrintStream(sink, true, StandardCharsets.UTF_8), false)) {
            assertThat(bar.line()).contains(" 50%").doesNotContain("shard-");
            io.trigrep.indexer.build.BuildPhases.set(stats, "shard-0: definitions (ctags)");
            assertThat(bar.line()).as("still reading: the phase waits").doesNotContain("shard-0");
            done.set(100);
            assertThat(bar.line()).contains("100%").endsWith("  shard-0: definitions (ctags)");
        }
    }
}
