package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

class BackendCommandTest {
    @TempDir
    Path dir;

    /**
     * A negative warm-up budget or reload interval is a usage error (exit 2, the message on the
     * running command line's error stream): a negative budget used to start the backend cold
     * without a word. The command is run as main runs it, minus the exit.
     */
    @ParameterizedTest
    @CsvSource({"--warmup-ms, -5", "--reload-interval-ms, -1"})
    void aNegativeDurationIsAUsageError(String flag, String value) {
        StringWriter err = new StringWriter();
        CommandLine line = new CommandLine(new BackendCommand());
        line.setErr(new PrintWriter(err, true));
        int code = line.execute("--shard", dir.toString(), "--port", "0", flag, value);
        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains(flag + " must be >= 0, got " + value);
    }
}
