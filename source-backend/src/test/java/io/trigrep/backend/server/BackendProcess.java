package io.trigrep.backend.server;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.segments.ServingBackends;
import io.trigrep.proto.BackendClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A backend in a child JVM of the test's class path, on a free loopback port; where it listens is
 * what it announces in its index folder's {@code serving/} file, as updates read it.
 */
public final class BackendProcess {
    private BackendProcess() {}

    /** Starts a backend of {@code shard} with a heap of {@code heap} (512m, say) and {@code options}. */
    public static Process start(String heap, Path shard, String... options) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap,
                "-cp",
                System.getProperty("java.class.path"),
                BackendCommand.class.getName(),
                "--shard",
                shard.toString(),
                "--port",
                "0"));
        command.addAll(List.of(options));
        return new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    /**
     * Where {@code backend}, serving a shard of the index in {@code index}, listens: the address
     * its file among the index's {@link ServingBackends} names (the file's name ends with its pid).
     */
    public static InetSocketAddress announced(Process backend, Path index) throws InterruptedException {
        String pid = "-" + backend.pid();
        Optional<String> address = eventuallyGet(
                "backend " + backend.pid() + " announced in " + ServingBackends.folder(index), PATIENCE, () -> {
                    boolean ended = !backend.isAlive();
                    for (ServingBackends.Entry e : ServingBackends.alive(index, Instant.now())) {
                        if (e.name().endsWith(pid)) {
                            return Optional.of(e.address());
                        }
                    }
                    return ended ? Optional.empty() : null;
                });
        assertThat(address)
                .as("backend %d announced before it exited", backend.pid())
                .isPresent();
        int colon = address.get().lastIndexOf(':');
        return new InetSocketAddress(
                address.get().substring(0, colon),
                Integer.parseInt(address.get().substring(colon + 1)));
    }

    /** Waits until the backend at {@code address} answers a ping as ready; fails if it died meanwhile. */
    public static void awaitReady(InetSocketAddress address, Process backend, Duration timeout)
            throws InterruptedException {
        eventually("the backend on " + address + " ready, or ended", timeout, () -> {
            if (backend.isAlive()) {
                assertThat(BackendClient.ping(address, 5000))
                        .as("why not ready")
                        .isNull();
            }
        });
        assertThat(backend.isAlive()).as("backend on %s alive", address).isTrue();
    }
}
