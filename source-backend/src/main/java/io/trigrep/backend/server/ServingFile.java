package io.trigrep.backend.server;

import io.trigrep.indexer.segments.ServingBackends;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * This backend's file among the {@link ServingBackends} of its index folder: written when it
 * starts serving, after each switch once the frontends have learnt it, and every heartbeat in
 * between; deleted when it stops. A folder it cannot write (a read-only mount) is logged once:
 * updates then do not wait for this backend.
 */
final class ServingFile implements AutoCloseable {
    private final Path root;
    private final String name;
    private final String address;
    private final PrintStream log;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "trigrep-serving-file");
        t.setDaemon(true);
        return t;
    });
    private long generation;
    private boolean failed;
    private boolean closed;

    @SuppressWarnings("FutureReturnValueIgnored") // the rewrites end when close() shuts the timer down
    ServingFile(Path root, InetSocketAddress address, long generation, PrintStream log) {
        this.root = root;
        this.address = address.getHostString() + ":" + address.getPort();
        this.name = (hostName() + "-" + address.getPort() + "-"
                        + ProcessHandle.current().pid())
                .replaceAll("[^A-Za-z0-9._-]", "_");
        this.log = log;
        this.generation = generation;
        long every = ServingBackends.HEARTBEAT.toMillis();
        timer.scheduleWithFixedDelay(this::rewrite, 0, every, TimeUnit.MILLISECONDS);
    }

    private static String hostName() {
        // "pid@host" on the JVMs we run on; the pid alone otherwise, which still tells backends apart on one host.
        String runtime = ManagementFactory.getRuntimeMXBean().getName();
        int at = runtime.indexOf('@');
        return at < 0 ? "backend" : runtime.substring(at + 1);
    }

    /** Says this backend serves {@code generation} from now on. */
    synchronized void serving(long generation) {
        this.generation = generation;
        rewrite();
    }

    private synchronized void rewrite() {
        if (closed) {
            return;
        }
        try {
            ServingBackends.write(root, name, generation, address);
            failed = false;
        } catch (IOException | RuntimeException e) {
            if (!failed) {
                log.println(
                        "backend: cannot write " + ServingBackends.folder(root).resolve(name) + " (" + e
                                + "): updates of this index do not wait for this backend");
            }
            failed = true;
        }
    }

    @Override
    public synchronized void close() {
        closed = true;
        timer.shutdownNow();
        try {
            ServingBackends.remove(root, name);
        } catch (IOException e) {
            log.println("backend: cannot delete " + ServingBackends.folder(root).resolve(name) + ": " + e);
        }
    }
}
