package io.trigrep.backend.server;

import io.trigrep.backend.ops.BackendMetrics;
import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.indexer.segments.LiveShard;
import io.trigrep.indexer.segments.Segment;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The generation of its shard a backend serves, and the switch to a newer one. Every request
 * {@link #acquire}s the current generation when it starts and releases it when it ends, so it
 * reads one generation from start to end; {@link #reload} opens a newer one (off the event
 * loops), checks the checksums of its new segments and makes it current in one step; the one it
 * replaces is unmapped when its last request releases it. A generation that does not open or
 * verify is logged, named by its path, and the current one keeps serving.
 */
final class Generations implements AutoCloseable {
    private final Path folder;
    private final PrintStream log;
    private final BackendMetrics metrics;
    private final AtomicReference<Served> current = new AtomicReference<>();
    /**
     * The newest generation number that failed to open or verify: not tried again (generations
     * are immutable once committed), the next one is.
     */
    private long failed = -1;

    private boolean closed;

    /** Serves {@code first} (which this now owns) of the shard in {@code first.folder()}. */
    Generations(LiveShard first, PrintStream log, BackendMetrics metrics) throws CorruptIndexException {
        this.folder = first.folder();
        this.log = log;
        this.metrics = metrics;
        current.set(new Served(first, this::unmapped));
    }

    /** The current generation, held for the caller, who must {@link Served#release} it exactly once. */
    Served acquire() {
        while (true) {
            Served s = current.get();
            if (s.retain()) {
                return s;
            }
            if (current.get() == s) {
                throw new IllegalStateException("the backend of " + folder + " is closed: it serves no generation");
            }
            // Replaced and released between the read and the retain: the newer one is current now.
        }
    }

    /**
     * The current generation, not held: for its names and counts only, never its mapped files,
     * which may be unmapped as soon as this returns.
     */
    LiveShard peek() {
        return current.get().live();
    }

    /**
     * The number by which {@code live} is known to frontends: its generation, or for a plain shard
     * folder, which has none, when it was built.
     */
    static long number(LiveShard live) {
        return live.generation() == 0 && !live.segments().isEmpty()
                ? live.segments().get(0).shard().manifest().builtAtMillis()
                : live.generation();
    }

    /** Content bytes of the current generation's live files. */
    long liveBytes() {
        return current.get().liveBytes();
    }

    /**
     * Serves the index's newest generation if it is newer than the one served (and not one
     * refused already); returns whether it switched. Not on an event loop: it maps files and
     * reads checksums.
     */
    synchronized boolean reload() {
        if (closed) {
            return false;
        }
        long served = current.get().live().generation();
        long newest;
        try {
            List<Long> numbers = IndexFolder.generations(folder.getParent());
            newest = numbers.isEmpty() ? 0 : numbers.get(0);
        } catch (IOException e) {
            log.println("backend " + current.get().live().name() + ": cannot list " + folder.getParent() + ": " + e);
            return false;
        }
        if (newest <= served || newest == failed) {
            return false;
        }
        LiveShard opened;
        try {
            opened = LiveShard.open(folder);
        } catch (IOException | RuntimeException e) {
            refuse(newest, e);
            return false;
        }
        if (opened.generation() <= served) {
            opened.close();
            return false;
        }
        Served next;
        try {
            verifyNewSegments(opened);
            next = new Served(opened, this::unmapped);
        } catch (CorruptIndexException | RuntimeException e) {
            opened.close();
            refuse(opened.generation(), e);
            return false;
        }
        Served old = current.getAndSet(next);
        failed = -1;
        metrics.reloaded();
        log.printf(
                "backend %s: serving generation %d (%d segments, %,d files, %d deleted), was %d%n",
                opened.name(),
                opened.generation(),
                opened.segments().size(),
                opened.liveDocs(),
                opened.deletedDocs(),
                old.live().generation());
        old.release();
        return true;
    }

    /** Reads every checksum of the segments the served generation does not have: written since it was. */
    private void verifyNewSegments(LiveShard opened) throws CorruptIndexException {
        Set<Long> known = new HashSet<>();
        for (Segment s : current.get().live().segments()) {
            known.add(s.id());
        }
        for (Segment s : opened.segments()) {
            if (!known.contains(s.id())) {
                s.verify();
            }
        }
    }

    private void refuse(long generation, Exception e) {
        failed = generation;
        metrics.reloadFailed();
        String where = e instanceof CorruptIndexException c ? c.file() + " at offset " + c.offset() + ": " : "";
        log.println("backend " + current.get().live().name() + ": generation " + generation + " refused, still serving "
                + current.get().live().generation() + ": " + where + e);
    }

    private void unmapped(Served s) {
        log.println("backend " + s.live().name() + ": generation " + s.live().generation() + " unmapped");
    }

    /** Stops reloading and lets the current generation go: unmapped once the last request ends. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        current.get().release();
    }
}
