package io.trigrep.indexer.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** JGit logs through SLF4J: its warnings reach java.util.logging (and so stderr), not a no-op logger. */
class GitLoggingTest {
    @Test
    void jgitWarningsReachJavaUtilLogging() {
        Logger jgit = Logger.getLogger("org.eclipse.jgit");
        List<LogRecord> seen = new ArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                seen.add(record);
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        jgit.addHandler(handler);
        try {
            LoggerFactory.getLogger("org.eclipse.jgit.internal.storage.file.Pack")
                    .warn("pack {} is corrupt", "pack-1.pack");
        } finally {
            jgit.removeHandler(handler);
        }
        assertThat(seen).singleElement().satisfies(r -> {
            assertThat(r.getLevel()).isEqualTo(Level.WARNING);
            assertThat(r.getMessage()).isEqualTo("pack pack-1.pack is corrupt");
        });
    }
}
