package io.trigrep.frontend.store;

import java.util.Arrays;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

/**
 * The order of a query's results: ranking (best first), then the package-and-path hash, then tee
 * offset. The first ranks can be chosen before the full sort and promise it: a rank past them
 * waits on the promise, a {@link CompletableFuture} that the sort completes, or fails when the sort
 * failed or results came after it was made (then the order would not hold). Either the writer
 * {@link #sort}s, or the first reader of such a rank makes the order on its own thread, and others
 * wait for it. 4 bytes per result. Single writer, on the thread that adds results; any thread may
 * read ranks.
 */
final class ResultOrder {
    static final String NOT_SORTED = "sort() first: results were added after the last sort";

    /** Below this many results the two comparison sorts beat the radix sort's fixed cost (its count tables). */
    private static final int RADIX_FROM = 4096;

    private static final int DIGIT_BITS = 11;

    /**
     * The first ranks (null unless {@link #selectFirst} chose them) and the full order, done once
     * sorted, with whether a reader has taken on making it. One object so that a reader sees all
     * of the same moment.
     */
    @SuppressWarnings("ArrayRecordComponent") // parallel arrays by design: a carrier, never compared
    private record Ranks(int[] first, CompletableFuture<int[]> all, AtomicBoolean sortTaken) {}

    private final ResultColumns columns;
    /** Null while results are being added. */
    private volatile Ranks ranks;

    /**
     * The best results so far, kept as they are added, so that {@link #best} of as many or fewer,
     * once the last is in, orders those instead of passing over every result then, on the
     * answer's path after the last backend is done.
     * Null when none are kept, and let go once {@link #selectFirst} chose the first ranks: a
     * finished query's index may stay in the cache for long. Writer's thread only.
     */
    private BestResults running;

    /** Results {@link #running} has seen: the first this many. */
    private int seen;

    ResultOrder(ResultColumns columns) {
        this(columns, 0);
    }

    /** Keeps the {@code keep} best results as they are added ({@link #best} of up to as many is then quick). */
    ResultOrder(ResultColumns columns, int keep) {
        if (keep < 0) {
            throw new IllegalArgumentException("keep must be >= 0, got " + keep);
        }
        this.columns = columns;
        this.running = keep == 0 ? null : new BestResults(keep, 0);
    }

    /**
     * Results came (each added one after the last seen): the order made or promised before no
     * longer holds, and nobody may wait for it; the running best take them in.
     */
    void resultAdded() {
        Ranks r = ranks;
        if (r != null) {
            ranks = null;
            r.all().cancel(false);
        }
        if (running == null) {
            return;
        }
        // The results added since the last publish are the writer's alone: read through its table.
        int added = columns.added();
        for (int i = seen; i < added; i++) {
            running.offer(i, columns.addedKey(i), columns.addedOffset(i));
        }
        seen = added;
    }

    /** Results the running best have room for now: grown as results come, 0 once let go. */
    int runningCapacity() {
        return running == null ? 0 : running.room();
    }

    /**
     * Selects the first {@code k} ranks without sorting everything (the running best when they are
     * as many or more; else one selection pass) and promises the full order: the query can answer
     * its first pages as soon as its last backend is done, and the full sort is made by {@link
     * #sort}, or by the first reader of a rank past these. The running best are let go.
     */
    void selectFirst(int k) {
        columns.publish();
        Ranks before = ranks;
        boolean promised = before != null && !before.all().isCompletedExceptionally();
        int[] first = best(k);
        running = null; // chosen: not needed again (a later best passes over every result)
        CompletableFuture<int[]> all = promised ? before.all() : new CompletableFuture<>();
        ranks = new Ranks(first, all, promised ? before.sortTaken() : new AtomicBoolean());
        if (first.length == columns.added()) {
            all.complete(first); // every result was chosen: the first ranks are the full order
        }
    }

    /** Whether the full order is made and no result came after it: a {@link #sort} would change nothing. */
    boolean complete() {
        Ranks r = ranks;
        return r != null && r.all().isDone() && !r.all().isCompletedExceptionally();
    }

    /**
     * Orders the results: the same order on every run of the same query, whatever order the
     * backends' streams interleaved in, as long as the tee offsets order results of one backend
     * (they do) and backends are teed in a fixed order within equal ranking and path (the caller's
     * merge guarantees that). Keeps the promise of {@link #selectFirst}.
     */
    void sort() {
        settle(this::fullOrder);
    }

    /**
     * Completes the promised order with what {@code make} returns, or fails it with what
     * {@code make} throws (rethrown): a page waiting for a rank then fails with the cause instead
     * of waiting forever.
     */
    void settle(Supplier<int[]> make) {
        columns.publish();
        Ranks promised = ranks;
        boolean pending = promised != null && !promised.all().isDone();
        CompletableFuture<int[]> all = pending ? promised.all() : new CompletableFuture<>();
        if (!pending) {
            ranks = new Ranks(null, all, new AtomicBoolean(true));
        } else {
            promised.sortTaken().set(true);
        }
        try {
            all.complete(make.get());
        } catch (RuntimeException | Error e) {
            all.completeExceptionally(e);
            throw e;
        }
    }

    /**
     * The result at {@code rank} in sorted order. A rank past the ones {@link #selectFirst} chose
     * needs the promised full order: the first caller to need it makes it, on its own thread,
     * unless the writer's {@link #sort} is making it; others wait for it. It fails when the sort
     * failed or a result came first.
     */
    int sorted(int rank) {
        Ranks r = ranks;
        if (r == null) {
            throw new IllegalStateException(NOT_SORTED);
        }
        CompletableFuture<int[]> all = r.all();
        if (all.isDone() && !all.isCompletedExceptionally()) {
            return all.join()[rank];
        }
        // The first ranks stay answerable when the sort failed: they were made without it.
        int[] first = r.first();
        if (first != null && rank < first.length) {
            return first[rank];
        }
        if (r.sortTaken().compareAndSet(false, true)) {
            // The writer made the promise once its last result was in: read what it published. A
            // result added meanwhile cancels the promise, and this then completes nothing.
            try {
                all.complete(fullOrder(columns.size()));
            } catch (RuntimeException | Error e) {
                all.completeExceptionally(e);
                throw e;
            }
        }
        return full(all)[rank];
    }

    /** The full order, waiting for it (uninterruptibly, keeping the thread's interrupt) while it is promised. */
    private static int[] full(CompletableFuture<int[]> all) {
        try {
            return all.join();
        } catch (CancellationException e) {
            throw new IllegalStateException(NOT_SORTED, e);
        } catch (CompletionException e) {
            throw new IllegalStateException("the results' order could not be made: " + e.getCause(), e.getCause());
        }
    }

    /**
     * The {@code k} best results, best first, without sorting all. On the writer's thread, or once
     * the query is complete. When {@code k} covers every result, they are sorted; else a heap of
     * the {@code k} best so far (the worst at its root) sees each result once, and only its
     * {@code k} are sorted. Keeping them in a sorted array instead took an insertion per result:
     * n² / 4 comparisons for a query of n ≤ k results (75,000 for the 550 of a selective query),
     * which was most of the frontend's CPU under a load of selective queries.
     */
    int[] best(int k) {
        // Published first: the results are read through the published chunk table, here and by
        // whichever thread renders what this returns.
        columns.publish();
        int total = columns.added();
        int n = Math.max(0, Math.min(k, total));
        if (n == total) {
            return fullOrder();
        }
        if (n == 0) {
            return new int[0];
        }
        if (running != null && n <= running.capacity() && seen == total) {
            // The running best hold min(total, capacity) >= n results; their first n are the best n.
            int[] chosen = ordered(running.results());
            return chosen.length == n ? chosen : Arrays.copyOf(chosen, n);
        }
        BestResults best = new BestResults(n, n); // total > n: it fills
        for (int i = 0; i < total; i++) {
            best.offer(i, columns.key(i), columns.offset(i));
        }
        return ordered(best.results());
    }

    private int[] fullOrder() {
        return fullOrder(columns.added());
    }

    /** The first {@code n} results, sorted. */
    private int[] fullOrder(int n) {
        int[] all = new int[n];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return ordered(all);
    }

    /** Sorts the results {@code chosen} in place; returns it. */
    private int[] ordered(int[] chosen) {
        int n = chosen.length;
        // Results added out of offset order (not from a tee) take the exact comparison. Else the
        // order is the columns' key (ranking, then path hash) with ties in index order, which is the
        // offset order whenever offsets grow with the index (the tee's append order): sorting packed
        // primitive keys is about ten times faster than the indirect quicksort below (measured on
        // 600,000 results: it was most of the frontend's time per query).
        if (!columns.offsetsInArrivalOrder()) {
            sort(chosen, 0, n - 1);
            return chosen;
        }
        if (n < RADIX_FROM) {
            return orderedByTwoSorts(chosen);
        }
        // A stable radix sort of the keys carries the indexes along, so ties keep their order in
        // chosen, made ascending first; two comparison sorts (ranking, then path hash within runs
        // of equal ranking) would read the columns at random, and files sharing a static rank make
        // such runs many.
        if (!ascending(chosen)) {
            Arrays.sort(chosen);
        }
        long[] keys = new long[n];
        for (int k = 0; k < n; k++) {
            keys[k] = columns.key(chosen[k]);
        }
        radixSort(keys, chosen);
        return chosen;
    }

    /**
     * {@link #ordered} of a few results: Arrays.sort of ranking and index,
     * then of path hash and index within each run of equal ranking; a transient 8 bytes per result.
     */
    private int[] orderedByTwoSorts(int[] chosen) {
        int n = chosen.length;
        long[] keys = new long[n];
        for (int k = 0; k < n; k++) {
            int i = chosen[k];
            keys[k] = (columns.key(i) & ~ResultColumns.LOW) | i;
        }
        Arrays.sort(keys);
        int start = 0;
        while (start < n) {
            int high = (int) (keys[start] >>> 32);
            int end = start + 1;
            while (end < n && (int) (keys[end] >>> 32) == high) {
                end++;
            }
            if (end - start > 1) {
                for (int k = start; k < end; k++) {
                    int i = (int) keys[k];
                    keys[k] = ((long) columns.pathHash(i) << 32) | i;
                }
                Arrays.sort(keys, start, end);
            }
            for (int k = start; k < end; k++) {
                chosen[k] = (int) keys[k];
            }
            start = end;
        }
        return chosen;
    }

    /**
     * Sorts {@code keys} as signed longs and {@code values} along with them; equal keys keep their
     * order. Least significant digit first, each pass stable, a pass skipped when every key has the
     * same digit there (the rankings' top bits mostly agree). A transient 12 bytes per key.
     */
    static void radixSort(long[] keys, int[] values) {
        int n = keys.length;
        if (n < 2) {
            return;
        }
        long[] fromKeys = keys;
        int[] fromValues = values;
        long[] toKeys = new long[n];
        int[] toValues = new int[n];
        for (int shift = 0; shift < 64; shift += DIGIT_BITS) {
            int bits = Math.min(DIGIT_BITS, 64 - shift);
            int mask = (1 << bits) - 1;
            int sign = shift + bits == 64 ? 1 << (bits - 1) : 0; // the top digit holds the sign: flip it
            int[] starts = new int[mask + 2];
            for (long key : fromKeys) {
                starts[(((int) (key >>> shift) & mask) ^ sign) + 1]++;
            }
            if (starts[(((int) (fromKeys[0] >>> shift) & mask) ^ sign) + 1] == n) {
                continue;
            }
            for (int d = 1; d < starts.length; d++) {
                starts[d] += starts[d - 1];
            }
            for (int k = 0; k < n; k++) {
                long key = fromKeys[k];
                int to = starts[((int) (key >>> shift) & mask) ^ sign]++;
                toKeys[to] = key;
                toValues[to] = fromValues[k];
            }
            long[] swapKeys = fromKeys;
            fromKeys = toKeys;
            toKeys = swapKeys;
            int[] swapValues = fromValues;
            fromValues = toValues;
            toValues = swapValues;
        }
        if (fromKeys != keys) {
            System.arraycopy(fromKeys, 0, keys, 0, n);
            System.arraycopy(fromValues, 0, values, 0, n);
        }
    }

    private static boolean ascending(int[] values) {
        for (int k = 1; k < values.length; k++) {
            if (values[k - 1] > values[k]) {
                return false;
            }
        }
        return true;
    }

    /**
     * Ranking (best first), package-and-path hash, tee offset, then arrival: a total order, so a
     * result's rank never depends on which sort or selection placed it.
     */
    private int compare(int a, int b) {
        int c = Long.compare(columns.key(a), columns.key(b));
        if (c != 0) {
            return c;
        }
        c = Long.compare(columns.offset(a), columns.offset(b));
        return c != 0 ? c : Integer.compare(a, b);
    }

    /** Quicksort of a permutation with primitive comparisons: no boxing, no comparator objects. */
    private void sort(int[] o, int lo, int hi) {
        while (lo < hi) {
            if (hi - lo < 16) {
                for (int i = lo + 1; i <= hi; i++) {
                    int v = o[i];
                    int j = i - 1;
                    while (j >= lo && compare(o[j], v) > 0) {
                        o[j + 1] = o[j];
                        j--;
                    }
                    o[j + 1] = v;
                }
                return;
            }
            int mid = (lo + hi) >>> 1;
            int pivot = median(o[lo], o[mid], o[hi]);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (compare(o[i], pivot) < 0) {
                    i++;
                }
                while (compare(o[j], pivot) > 0) {
                    j--;
                }
                if (i <= j) {
                    int t = o[i];
                    o[i++] = o[j];
                    o[j--] = t;
                }
            }
            if (j - lo < hi - i) {
                sort(o, lo, j);
                lo = i;
            } else {
                sort(o, i, hi);
                hi = j;
            }
        }
    }

    private int median(int a, int b, int c) {
        if (compare(a, b) > 0) {
            int t = a;
            a = b;
            b = t;
        }
        if (compare(b, c) > 0) {
            b = c;
            if (compare(a, b) > 0) {
                b = a;
            }
        }
        return b;
    }
}
