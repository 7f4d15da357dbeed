package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BackendCommandTest {
    @TempDir
    Path dir;

    /** Runs the command line as main does, minus the exit; returns the exit code, the error output in {@code err}. */
    private static int run(StringWriter err, String... args) {
        CommandLine line = new CommandLine(new BackendCommand());
        line.setErr(new PrintWriter(err, true));
        return line.execute(args);
    }

    @Test
    void aNegativeWarmUpBudgetIsAUsageErrorNotAColdStart() {
        StringWriter err = new StringWriter();
        int code = run(err, "--shard", dir.toString(), "--port", "0", "--warmup-ms", "-5");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--warmup-ms must be >= 0, got -5");
    }

    @Test
    void aNegativeReloadIntervalIsAUsageError() {
        StringWriter err = new StringWriter();
        int code = run(err, "--shard", dir.toString(), "--port", "0", "--reload-interval-ms", "-1");
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--reload-interval-ms must be >= 0, got -1");
    }
}
