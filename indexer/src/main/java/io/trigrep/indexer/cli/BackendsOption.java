package io.trigrep.indexer.cli;

import io.trigrep.indexer.segments.ServingBackends;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --wait-for-backends SECONDS}: a command that commits a generation returns only once every
 * backend serving the index serves it (and every frontend pinging them has learnt it), so that
 * no answer given after it returns comes from the generation it replaced.
 */
final class BackendsOption {
    /** The exit code of a change committed that a backend did not switch to in time. */
    static final int BEHIND = 3;

    @Option(
            names = "--wait-for-backends",
            paramLabel = "SECONDS",
            defaultValue = "${env:TRIGREP_WAIT_FOR_BACKENDS:-30}",
            description = "wait at most this long for the backends serving the index to switch to the new"
                    + " generation (env TRIGREP_WAIT_FOR_BACKENDS; default: ${DEFAULT-VALUE}; 0: do not wait)")
    long seconds;

    /**
     * Waits for the backends serving {@code index} to serve {@code generation}; says what it saw
     * and returns whether all did.
     */
    boolean await(Path index, long generation, PrintStream out, PrintStream err)
            throws IOException, InterruptedException {
        if (seconds <= 0) {
            return true;
        }
        long started = System.nanoTime();
        List<ServingBackends.Entry> behind = ServingBackends.await(index, generation, Duration.ofSeconds(seconds));
        if (behind.isEmpty()) {
            out.printf("serving    generation %d (%.2f s)%n", generation, (System.nanoTime() - started) / 1e9);
            return true;
        }
        for (ServingBackends.Entry e : behind) {
            err.println("warning: backend " + e.address() + " still serves generation " + e.generation() + " after "
                    + seconds + " s, not " + generation);
        }
        return false;
    }
}
