package io.trigrep.frontend.fanout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Queries by key (the normalised query and its options): a request for a query that is running
 * joins it; a finished one is served again from its tee file without touching the backends.
 * Bounded by the bytes of the tee files and by free disk: least recently used finished queries
 * are evicted first, never one that is running or being read.
 *
 * <p>An evicted or replaced query's file is removed on a thread of its own: unlinking a 1.6 GB
 * file written with direct I/O takes ext4 about 300 ms of waiting for its journal, which would
 * otherwise delay the request that caused the eviction (a {@code cache=false} search started
 * that much later) and block the event loop it runs on.
 */
public final class QueryCache {
    /** A query run and who is using it. */
    public static final class Entry {
        private final QueryRun run;
        private int users;

        Entry(QueryRun run) {
            this.run = run;
        }

        public QueryRun run() {
            return run;
        }
    }

    public interface Starter {
        QueryRun start() throws IOException;
    }

    private final long maxBytes;
    private final long minFreeBytes;
    private final Path folder;
    private final LongSupplier freeBytes;
    private final Executor remover;
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long hits;
    private long misses;
    private long evictions;

    public QueryCache(Path folder, long maxBytes, long minFreeBytes) {
        this(folder, maxBytes, minFreeBytes, () -> {
            try {
                return Files.getFileStore(folder).getUsableSpace();
            } catch (IOException e) {
                return Long.MAX_VALUE;
            }
        }, new ThreadPoolExecutor(0, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "trigrep-cache-remover");
            t.setDaemon(true);
            return t;
        }));
    }

    /** {@code remover} closes retired runs and removes their files. */
    QueryCache(Path folder, long maxBytes, long minFreeBytes, LongSupplier freeBytes, Executor remover) {
        if (maxBytes < 0 || minFreeBytes < 0) {
            throw new IllegalArgumentException("cache limits must be >= 0, got " + maxBytes + " and " + minFreeBytes);
        }
        this.folder = folder;
        this.maxBytes = maxBytes;
        this.minFreeBytes = minFreeBytes;
        this.freeBytes = freeBytes;
        this.remover = remover;
    }

    /**
     * The entry for {@code key}, joined or served from cache when it exists (unless {@code fresh}),
     * else started. The caller must {@link #release} it when done reading.
     */
    public synchronized Entry acquire(String key, boolean fresh, Starter starter) throws IOException {
        Entry entry = entries.get(key);
        if (entry != null && fresh && entry.run.completion().isDone()) {
            entries.remove(key);
            retire(entry);
            entry = null;
        }
        if (entry != null) {
            hits++;
        } else {
            misses++;
            entry = new Entry(starter.start());
            entries.put(key, entry);
        }
        entry.users++;
        return entry;
    }

    public synchronized void release(Entry entry) {
        entry.users--;
        if (entry.users == 0 && !entries.containsValue(entry)) {
            close(entry);
        }
        evict();
    }

    /** Evicts least recently used finished queries while over the byte bound or short of free disk. */
    private void evict() {
        List<String> victims = new ArrayList<>();
        long total = bytes();
        long free = freeBytes.getAsLong();
        for (Map.Entry<String, Entry> e : entries.entrySet()) {
            if (total <= maxBytes && free >= minFreeBytes) {
                break;
            }
            Entry entry = e.getValue();
            if (entry.users > 0 || !entry.run.completion().isDone()) {
                continue;
            }
            victims.add(e.getKey());
            long size = entry.run.tee().size();
            total -= size;
            free = free > Long.MAX_VALUE - size ? Long.MAX_VALUE : free + size;
        }
        for (String key : victims) {
            Entry entry = entries.remove(key);
            evictions++;
            retire(entry);
        }
    }

    private void retire(Entry entry) {
        if (entry.users == 0) {
            close(entry);
        }
    }

    private void close(Entry entry) {
        remover.execute(() -> {
            try {
                entry.run.close();
            } catch (IOException e) {
                // the file is gone or cannot be removed; the next start-up clears the folder
            }
        });
    }

    /** Bytes of all cached tee files. */
    public synchronized long bytes() {
        long total = 0;
        for (Entry e : entries.values()) {
            total += e.run.tee().size();
        }
        return total;
    }

    public synchronized long hits() {
        return hits;
    }

    public synchronized long misses() {
        return misses;
    }

    public synchronized long evictions() {
        return evictions;
    }

    public synchronized int size() {
        return entries.size();
    }

    /** The running query with this key, or null. */
    public synchronized QueryRun runningQuery(String key) {
        Entry e = entries.get(key);
        return e != null && !e.run.completion().isDone() ? e.run : null;
    }

    /** Queries still running, by key. */
    public synchronized List<String> running() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Entry> e : entries.entrySet()) {
            if (!e.getValue().run.completion().isDone()) {
                out.add(e.getKey());
            }
        }
        return out;
    }

    public Path folder() {
        return folder;
    }
}
