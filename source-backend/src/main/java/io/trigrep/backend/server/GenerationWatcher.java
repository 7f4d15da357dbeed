package io.trigrep.backend.server;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * Notices new generations of the index in the folder above the shard's: a {@link WatchService}
 * on that folder (inotify on Linux) wakes it when an update commits, and, since file systems
 * exist on which no event ever comes (NFS, some FUSE and container mounts), it also looks every
 * {@code interval} on its own. Either way it runs {@link Generations#reload} on its own thread,
 * never on an event loop, and after each switch the {@code switched} it was given.
 */
final class GenerationWatcher implements AutoCloseable {
    private final Generations generations;
    private final Path root;
    private final long intervalNanos;
    private final PrintStream log;
    private final WatchService watch;
    private final Thread thread;
    private final Runnable switched;
    private volatile boolean stopped;

    /** {@code interval} zero: no polling, the watch service alone. */
    GenerationWatcher(Generations generations, Path shardFolder, Duration interval, PrintStream log) {
        this(generations, shardFolder, interval, log, true, () -> {});
    }

    /**
     * {@code watch} false: polling alone, as on a file system without change events;
     * {@code switched} runs on the watcher's thread after each switch.
     */
    GenerationWatcher(
            Generations generations,
            Path shardFolder,
            Duration interval,
            PrintStream log,
            boolean watch,
            Runnable switched) {
        if (interval.isNegative()) {
            throw new IllegalArgumentException("the reload interval must be >= 0, got " + interval);
        }
        this.generations = generations;
        this.root = shardFolder.toAbsolutePath().normalize().getParent();
        this.intervalNanos = interval.toNanos();
        this.log = log;
        this.switched = switched;
        this.watch = watch ? register(root, log) : null;
        this.thread = new Thread(this::run, "trigrep-generations");
        thread.setDaemon(true);
    }

    private static WatchService register(Path root, PrintStream log) {
        WatchService service = null;
        try {
            service = FileSystems.getDefault().newWatchService();
            root.register(
                    service,
                    StandardWatchEventKinds.ENTRY_CREATE,
                    StandardWatchEventKinds.ENTRY_MODIFY,
                    StandardWatchEventKinds.ENTRY_DELETE);
            return service;
        } catch (IOException | UnsupportedOperationException e) {
            log.println("backend: cannot watch " + root + " (" + e + "): new generations are found by polling alone");
            if (service != null) {
                try {
                    service.close();
                } catch (IOException ignored) {
                    // it watched nothing
                }
            }
            return null;
        }
    }

    void start() {
        if (watch == null && intervalNanos == 0) {
            log.println("backend: neither watching nor polling " + root + ": new generations are not picked up");
            return;
        }
        thread.start();
    }

    private void run() {
        while (!stopped) {
            try {
                waitForChange();
            } catch (InterruptedException | ClosedWatchServiceException e) {
                return;
            }
            try {
                if (generations.reload()) {
                    switched.run();
                }
            } catch (RuntimeException e) {
                // reload logs what it refuses; anything else must not end the watching
                log.println("backend: reloading " + root + " failed: " + e);
            }
        }
    }

    /** Waits for an event in the folder or the next poll, whichever comes first. */
    private void waitForChange() throws InterruptedException {
        if (watch == null) {
            TimeUnit.NANOSECONDS.sleep(intervalNanos);
            return;
        }
        WatchKey key = intervalNanos == 0 ? watch.take() : watch.poll(intervalNanos, TimeUnit.NANOSECONDS);
        if (key != null) {
            key.pollEvents();
            key.reset();
        }
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        if (watch != null) {
            try {
                watch.close();
            } catch (IOException e) {
                log.println("backend: closing the watch of " + root + ": " + e);
            }
        }
        if (thread.isAlive()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
