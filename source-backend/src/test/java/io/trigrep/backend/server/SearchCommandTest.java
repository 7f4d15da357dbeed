package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.indexer.format.Shard;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./trigrep search} against two real backends over loopback TCP, as the benchmarks run it. */
@Tag("integration")
class SearchCommandTest {
    @TempDir
    static Path dir;

    static BackendServer first;
    static BackendServer second;
    static String backends;

    @BeforeAll
    static void start() throws Exception {
        List<Shard> shards = TestShards.build(TestShards.CORPUS, dir.resolve("index"), 2);
        first = new BackendServer(shards.get(0), BackendConfig.defaults());
        second = new BackendServer(shards.get(1), BackendConfig.defaults());
        backends = "127.0.0.1:" + first.start("127.0.0.1", 0).getPort() + ",127.0.0.1:"
                + second.start("127.0.0.1", 0).getPort();
    }

    @AfterAll
    static void stop() {
        first.close();
        second.close();
    }

    /** Runs the command as main does, minus the exit, with {@code input} as its standard input; returns its output. */
    static String run(String input, String... args) {
        SearchCommand command = new SearchCommand();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        command.out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        command.in = new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8));
        int code = new CommandLine(command).execute(args);
        assertThat(code).as("exit code").isZero();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * One timed run per line read, answered as it is read: bench/interleaved_timer.py writes a line, runs its other
     * tools, and reads the answer, so the backends' own time is taken in the same rounds as the frontend's.
     */
    @Test
    void roundsOnInputAnswersEachLineWithTheCountAndItsSeconds() {
        long count = Long.parseLong(
                run("", "--backend", backends, "--context", "2", "return").strip());
        assertThat(count).isPositive();

        List<String> rounds = run("\n\n\n", "--backend", backends, "--context", "2", "--rounds-on-input", "return")
                .lines()
                .toList();

        assertThat(rounds).hasSize(3).allSatisfy(line -> {
            String[] fields = line.split(" ");
            assertThat(fields).hasSize(2);
            assertThat(Long.parseLong(fields[0])).isEqualTo(count);
            assertThat(Double.parseDouble(fields[1])).isPositive();
        });
    }

    @Test
    void roundsOnInputWithNoInputRunsNoRound() {
        assertThat(run("", "--backend", backends, "--rounds-on-input", "return"))
                .isEmpty();
    }
}
