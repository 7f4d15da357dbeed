package io.trigrep.frontend.fanout;

import io.trigrep.frontend.metrics.CacheCounts;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Queries by key (the normalised query and its options): a request for a query that is running
 * joins it; a finished one is served again from its tee file without touching the backends.
 * Bounded by the bytes of the tee files, by free disk and by the open files its answers hold:
 * least recently used finished queries are evicted first, never one that is running or being read.
 *
 * <p>An evicted or replaced query's file is removed on a thread of its own: unlinking a large
 * file can wait on the file system's journal, which must delay neither the request that caused
 * the eviction nor the event loop it runs on.
 */
public final class QueryCache implements CacheCounts {
    /**
     * How long a finished answer that is not {@link QueryRun#reusable() reusable} is still served:
     * long enough for the page that waited for it to be shown (the web UI reloads or swaps in the
     * finished page right after the query ends), short enough that a shard back in service is
     * searched again by the next user.
     */
    static final long UNREUSABLE_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** A query run and who is using it. */
    public static final class Entry {
        private final QueryRun run;

        private int users;
        /** Whether the entry is in the cache's map; guarded by the cache. */
        private boolean listed;
        /**
         * What the entry is charged in {@link #finishedCharge}, counted once its run has finished
         * (its tee and results no longer grow); -1 until then. Guarded by the cache.
         */
        private long charged = -1;
        /** When the run finished, by the cache's clock; Long.MIN_VALUE while it runs. */
        private volatile long finishedNanos = Long.MIN_VALUE;

        Entry(QueryRun run) {
            this.run = run;
        }

        public QueryRun run() {
            return run;
        }
    }

    /** Starts a run; may refuse with {@code E} (admission), then nothing is cached. */
    public interface Starter<E extends Exception> {
        QueryRun start() throws IOException, E;
    }

    private final long maxBytes;
    private final long minFreeBytes;
    private final int maxEntries;
    /** The least an answer is charged, whatever its file and results ({@link #ANSWER_CHARGE}, 0 in tests). */
    private final long answerCharge;

    private final Path folder;
    private final LongSupplier freeBytes;
    private final Executor remover;
    private final LongSupplier nanoTime;
    private final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>(16, 0.75f, true);
    /**
     * The listed entries whose charge is not yet in {@link #finishedCharge}: the running ones,
     * and finished ones until the next {@link #evict} counts them. As many as the queries that
     * ran since, not as the cache holds.
     */
    private final Set<Entry> uncounted = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The charges of the listed entries counted so far. */
    private long finishedCharge;

    private long hits;
    private long misses;
    private long evictions;
    private long stale;

    public QueryCache(Path folder, long maxBytes, long minFreeBytes) {
        this(
                folder,
                maxBytes,
                minFreeBytes,
                entriesFor(OpenFiles.limit()),
                ANSWER_CHARGE,
                usableSpace(folder),
                new ThreadPoolExecutor(0, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, "trigrep-cache-remover");
                    t.setDaemon(true);
                    return t;
                }),
                System::nanoTime);
    }

    /**
     * The free space of the folder's file system, asked of the file system each time (a statvfs)
     * but found once: looking the file system up reads the mount table, a tenth of a millisecond
     * on every request that released a query.
     */
    private static LongSupplier usableSpace(Path folder) {
        AtomicReference<FileStore> found = new AtomicReference<>();
        return () -> {
            try {
                FileStore store = found.get();
                if (store == null) {
                    store = Files.getFileStore(folder);
                    found.set(store);
                }
                return store.getUsableSpace();
            } catch (IOException e) {
                return Long.MAX_VALUE;
            }
        };
    }

    /**
     * Cached answers at most for a process allowed {@code descriptors} open files: each keeps its
     * tee file open, and the HTTP connections may take three quarters of the limit
     * ({@code ConnectionLimits.connectionsFor}); the cache gets the rest less 512 for shard
     * connections, running queries' files, jars and the JVM's own. Bounded by bytes alone, a
     * cache of answers that found nothing (each charged its few bytes of file) held 19,988 files
     * open after 20,000 such queries, at a limit of 20,000: the frontend then accepted no
     * connection at all.
     */
    static int entriesFor(long descriptors) {
        return (int) Math.max(16, Math.min(Integer.MAX_VALUE, descriptors / 4 - 512));
    }

    /** {@code remover} closes retired runs and removes their files; {@code nanoTime} is the clock. */
    QueryCache(
            Path folder,
            long maxBytes,
            long minFreeBytes,
            LongSupplier freeBytes,
            Executor remover,
            LongSupplier nanoTime) {
        this(folder, maxBytes, minFreeBytes, Integer.MAX_VALUE, 0, freeBytes, remover, nanoTime);
    }

    /** At most {@code maxEntries} cached answers, running ones included (those are never evicted). */
    QueryCache(
            Path folder,
            long maxBytes,
            long minFreeBytes,
            int maxEntries,
            long answerCharge,
            LongSupplier freeBytes,
            Executor remover,
            LongSupplier nanoTime) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be >= 1, got " + maxEntries);
        }
        if (maxBytes < 0 || minFreeBytes < 0) {
            throw new IllegalArgumentException("cache limits must be >= 0, got " + maxBytes + " and " + minFreeBytes);
        }
        this.folder = folder;
        this.maxBytes = maxBytes;
        this.minFreeBytes = minFreeBytes;
        this.maxEntries = maxEntries;
        this.answerCharge = answerCharge;
        this.freeBytes = freeBytes;
        this.remover = remover;
        this.nanoTime = nanoTime;
    }

    /**
     * The entry for {@code key}: joined while it runs, served again once finished, else started.
     * {@code fresh} neither joins nor reuses: it starts a run of its own, which replaces the old
     * entry (whose readers keep it until they release it). A finished run that is not
     * {@link QueryRun#reusable() reusable} (a shard failed or ran out of time) is served for
     * {@link #UNREUSABLE_NANOS} after it ended, then a request starts afresh: a cause that is
     * gone leaves no trace in later answers. An entry that is not {@link QueryRun#current()
     * current} (a shard's generation moved on since it was searched or asked) is never served or
     * joined: it is replaced. The caller must {@link #release} the entry when done reading.
     */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // a completion callback run for its effect: nothing waits on the stage it
    // returns
    public synchronized <E extends Exception> Entry acquire(String key, boolean fresh, Starter<E> starter)
            throws IOException, E {
        Entry entry = entries.get(key);
        boolean outdated = entry != null && !fresh && !expired(entry) && !entry.run.current();
        if (outdated) {
            stale++;
        }
        if (entry != null && (fresh || outdated || expired(entry))) {
            unlist(entries.remove(key));
            retire(entry);
            entry = null;
        }
        if (entry != null) {
            hits++;
        } else {
            misses++;
            Entry started = new Entry(starter.start());
            started.run.completion().whenComplete((run, failure) -> started.finishedNanos = nanoTime.getAsLong());
            entry = started;
            entries.put(key, entry);
            entry.listed = true;
            uncounted.add(entry);
        }
        entry.users++;
        return entry;
    }

    private boolean expired(Entry entry) {
        long finished = entry.finishedNanos;
        return finished != Long.MIN_VALUE
                && !entry.run.reusable()
                && nanoTime.getAsLong() - finished > UNREUSABLE_NANOS;
    }

    public synchronized void release(Entry entry) {
        entry.users--;
        if (entry.users == 0 && !entry.listed) {
            close(entry);
        }
        evict();
    }

    /**
     * What a cached query is charged against the byte bound: its tee file, or 300 bytes per result
     * held in memory, whichever is more. Each result costs the heap about 28.5 bytes of record,
     * and the launcher gives the frontend a tenth of the cache bound in heap for them
     * (deploy/README.md): a query of short lines tees about 100 bytes per result, and charged by
     * its disk bytes alone, a cache of such queries ran the heap out (bench/load.sh with an
     * abuser sending q=.).
     */
    static final long CHARGE_PER_RESULT = 300;

    /**
     * The least an answer is charged: what one costs the heap whatever its results (its run, the
     * result columns' first arrays, the shard statuses, the open file: about 2.7 KB an answer in
     * a class histogram of 20,000 cached answers that found nothing) at the ratio of {@link
     * #CHARGE_PER_RESULT}. Charged by its file alone, an answer without results cost a few bytes of
     * the budget, and a large open-file limit let a cache of them outgrow the heap.
     */
    static final long ANSWER_CHARGE = 32L << 10;

    private long charge(Entry entry) {
        return Math.max(
                answerCharge,
                Math.max(
                        entry.run.tee().size(),
                        CHARGE_PER_RESULT * entry.run.index().size()));
    }

    /** Takes an entry just removed from the map out of the charges. */
    private void unlist(Entry entry) {
        entry.listed = false;
        if (entry.charged >= 0) {
            finishedCharge -= entry.charged;
        } else {
            uncounted.remove(entry);
        }
    }

    /**
     * Evicts least recently used finished queries while over the byte or entry bound or short of
     * free disk. Runs on every release, under the cache's lock: the charges of finished entries are kept as a
     * sum and only the uncounted ones are looked at, since summing every entry (and finding a
     * released one among them) made each request walk the whole cache, which at a few kilobytes a
     * selective answer holds hundreds of thousands in the default gigabyte. Without a free-space
     * floor the file system is not asked.
     */
    private void evict() {
        List<String> victims = new ArrayList<>();
        long total = finishedCharge;
        for (Iterator<Entry> i = uncounted.iterator(); i.hasNext(); ) {
            Entry e = i.next();
            long charge = charge(e);
            if (e.run.completion().isDone()) {
                e.charged = charge;
                finishedCharge += charge;
                i.remove();
            }
            total += charge;
        }
        long free = minFreeBytes == 0 ? Long.MAX_VALUE : freeBytes.getAsLong();
        int count = entries.size();
        for (Map.Entry<String, Entry> e : entries.entrySet()) {
            if (total <= maxBytes && free >= minFreeBytes && count <= maxEntries) {
                break;
            }
            Entry entry = e.getValue();
            if (entry.users > 0 || !entry.run.completion().isDone()) {
                continue;
            }
            victims.add(e.getKey());
            count--;
            long size = entry.run.tee().size();
            total -= charge(entry);
            free = free > Long.MAX_VALUE - size ? Long.MAX_VALUE : free + size;
        }
        for (String key : victims) {
            Entry entry = entries.remove(key);
            unlist(entry);
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

    /**
     * Null while the data disk has at least the free space asked for (finished queries evicted
     * first to make it); else what is short, for readiness: a frontend that cannot store results
     * must not be sent queries.
     */
    public synchronized String diskShortage() {
        evict();
        long free = freeBytes.getAsLong();
        return free >= minFreeBytes
                ? null
                : "the frontend's data disk has " + free + " bytes free, below the " + minFreeBytes
                        + " of --min-free-bytes";
    }

    /** Bytes of all cached tee files. */
    @Override
    public synchronized long bytes() {
        long total = 0;
        for (Entry e : entries.values()) {
            total += e.run.tee().size();
        }
        return total;
    }

    @Override
    public synchronized long hits() {
        return hits;
    }

    @Override
    public synchronized long misses() {
        return misses;
    }

    @Override
    public synchronized long evictions() {
        return evictions;
    }

    @Override
    public synchronized long stale() {
        return stale;
    }

    public synchronized int size() {
        return entries.size();
    }

    /** The running query with this key, if it is {@link QueryRun#current() current}, or null. */
    public synchronized QueryRun runningQuery(String key) {
        Entry e = entries.get(key);
        return e != null && !e.run.completion().isDone() && e.run.current() ? e.run : null;
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

    /** The free bytes below which the data disk makes the cache evict ({@code --min-free-bytes}; 0: never). */
    public long minFreeBytes() {
        return minFreeBytes;
    }

    /** The byte budget of the finished queries' files ({@code --cache-bytes}). */
    public long maxBytes() {
        return maxBytes;
    }

    @Override
    public Path folder() {
        return folder;
    }
}
