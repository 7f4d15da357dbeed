package io.trigrep.frontend.store;

import io.trigrep.proto.ResultPeek;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * What the frontend keeps in memory per result of a query: where its frame is in the query's tee
 * file, its ranking, a hash of its package and path (the stable tie-breaker) and its interned package, as
 * columns of primitives in fixed-size chunks (no object per result, no copy when growing).
 * 24 bytes per result, plus 4 for the sorted order. Single writer; {@link #sort} once complete.
 */
public final class ResultIndex {
    static final int CHUNK_BITS = 14;
    static final int CHUNK = 1 << CHUNK_BITS;

    private long[][] offsets = new long[16][];
    private int[][] lengths = new int[16][];
    private float[][] rankings = new float[16][];
    private int[][] pathHashes = new int[16][];
    private int[][] packages = new int[16][];
    private final PackagePool pool = new PackagePool();
    private final ResultPeek peek = new ResultPeek();
    /** Results added, read by the writer only. */
    private int count;
    /**
     * {@link #count} as other threads may see it: published by {@link #publish} (after each batch
     * of frames) and {@link #sort}, not per result, because a volatile write per result cost as much
     * as the rest of {@link #add} together.
     */
    private volatile int size;
    private long lastOffset = Long.MIN_VALUE;
    /** The full order, once {@link #sort} ran; null while results are being added. */
    private volatile int[] order;
    /**
     * The first ranks, computed without sorting everything ({@link #selectFirst}); while set and
     * {@link #order} is not, a {@link #sort} is promised, so {@link #sorted} may wait for it.
     */
    private volatile int[] first;
    /** Whether offsets never decreased with arrival: then arrival order breaks ties as offsets do. */
    private boolean offsetsInArrivalOrder = true;
    /**
     * Per stream (a backend's), its previous result's path and package bytes, hash and id. A
     * backend streams a file's matches one after another, so most results repeat both: comparing
     * eight bytes at a time costs a fraction of hashing byte by byte (the path hash and the
     * interning were a third of the ingest's samples on 5 million results). Per stream, because
     * the streams' reads interleave.
     */
    private RecentBytes[] recentPaths = new RecentBytes[0];
    private RecentBytes[] recentPackages = new RecentBytes[0];

    /** Results as of the last {@link #publish} or {@link #sort}: exact once the query is complete. */
    public int size() {
        return size;
    }

    /** Makes every result added so far count in {@link #size} for other threads. */
    public void publish() {
        size = count;
    }

    public PackagePool packages() {
        return pool;
    }

    /**
     * Records the result whose frame was teed at {@code offset}, from stream {@code stream} (a
     * small number, such as a shard's index); returns false when the frame is not a result this
     * path can read (the caller then reads it fully or treats it as corrupt).
     */
    public boolean add(int stream, ByteBuffer frame, long offset) {
        if (!peek.peek(frame)) {
            return false;
        }
        ByteBuffer f = peek.frame();
        int chunk = count >>> CHUNK_BITS;
        int slot = count & (CHUNK - 1);
        if (slot == 0) {
            grow(chunk);
        }
        if (offset < lastOffset) {
            offsetsInArrivalOrder = false;
        }
        lastOffset = offset;
        offsets[chunk][slot] = offset;
        lengths[chunk][slot] = f.limit() - f.position();
        rankings[chunk][slot] = peek.ranking();
        if (stream >= recentPaths.length) {
            growStreams(stream + 1);
        }
        RecentBytes path = recentPaths[stream];
        int po = peek.pathOffset();
        int pl = peek.pathLength();
        int pathHash = path.sameAs(f, po, pl) ? path.value() : path.set(f, po, pl, hash(f, po, pl));
        RecentBytes pkg = recentPackages[stream];
        int ko = peek.packageOffset();
        int kl = peek.packageLength();
        int id = pkg.sameAs(f, ko, kl) ? pkg.value() : pkg.set(f, ko, kl, pool.intern(f, ko, kl));
        packages[chunk][slot] = id;
        pathHashes[chunk][slot] = fileHash(pool.hash(id), pathHash);
        count++;
        if (order != null || first != null) {
            voidOrder();
        }
        if (counts != null) {
            counts = null;
        }
        return true;
    }

    private void growStreams(int n) {
        int old = recentPaths.length;
        recentPaths = Arrays.copyOf(recentPaths, n);
        recentPackages = Arrays.copyOf(recentPackages, n);
        for (int i = old; i < n; i++) {
            recentPaths[i] = new RecentBytes();
            recentPackages[i] = new RecentBytes();
        }
    }

    private void grow(int chunk) {
        if (chunk == offsets.length) {
            int n = chunk * 2;
            offsets = Arrays.copyOf(offsets, n);
            lengths = Arrays.copyOf(lengths, n);
            rankings = Arrays.copyOf(rankings, n);
            pathHashes = Arrays.copyOf(pathHashes, n);
            packages = Arrays.copyOf(packages, n);
        }
        offsets[chunk] = new long[CHUNK];
        lengths[chunk] = new int[CHUNK];
        rankings[chunk] = new float[CHUNK];
        pathHashes[chunk] = new int[CHUNK];
        packages[chunk] = new int[CHUNK];
    }

    /**
     * The tie-breaker of results of equal ranking: a hash of the package's name and the path in it.
     * Of the path alone it was not enough: packages share paths ({@code debian/control},
     * {@code src/main.c}), and results of two such files on different shards then tied, to be
     * ordered by arrival, which changed from run to run (issue 15: capped pages that differed).
     */
    public static int fileHash(int packageHash, int pathHash) {
        return packageHash * 0x01000193 ^ pathHash;
    }

    /** FNV-1a over the path bytes: stable across runs and JVMs, unlike String.hashCode salting concerns. */
    static int hash(ByteBuffer frame, int offset, int length) {
        int h = 0x811c9dc5;
        for (int i = 0; i < length; i++) {
            h ^= frame.get(offset + i) & 0xff;
            h *= 0x01000193;
        }
        return h;
    }

    public long offset(int result) {
        return offsets[result >>> CHUNK_BITS][result & (CHUNK - 1)];
    }

    public int length(int result) {
        return lengths[result >>> CHUNK_BITS][result & (CHUNK - 1)];
    }

    public float ranking(int result) {
        return rankings[result >>> CHUNK_BITS][result & (CHUNK - 1)];
    }

    public int pathHash(int result) {
        return pathHashes[result >>> CHUNK_BITS][result & (CHUNK - 1)];
    }

    public int packageId(int result) {
        return packages[result >>> CHUNK_BITS][result & (CHUNK - 1)];
    }

    /**
     * Orders the results by ranking (best first), then path hash, then tee offset: the same order on
     * every run of the same query, whatever order the backends' streams interleaved in, as long as
     * the tee offsets order results of one backend (they do) and backends are teed in a fixed order
     * within equal ranking and path (the caller's merge guarantees that).
     */
    public void sort() {
        publish();
        int size = count;
        // Sorting packed primitive keys with Arrays.sort is about ten times faster than the indirect
        // quicksort below (measured on 600,000 results: it was most of the frontend's time per query),
        // at the price of a transient 8 bytes per result. Pass 1 orders by ranking; pass 2 orders each
        // run of equal ranking by path hash; the index in the low half breaks the remaining ties,
        // which is the offset order whenever offsets grow with the index (the tee's append order).
        // Results added out of offset order (not from a tee) take the exact comparison instead.
        if (!offsetsInArrivalOrder) {
            int[] o = new int[size];
            for (int i = 0; i < size; i++) {
                o[i] = i;
            }
            sort(o, 0, size - 1);
            ordered(o);
            return;
        }
        long[] keys = new long[size];
        for (int i = 0; i < size; i++) {
            keys[i] = ((long) descending(ranking(i)) << 32) | i;
        }
        Arrays.sort(keys);
        int[] o = new int[size];
        int start = 0;
        while (start < size) {
            int high = (int) (keys[start] >>> 32);
            int end = start + 1;
            while (end < size && (int) (keys[end] >>> 32) == high) {
                end++;
            }
            if (end - start > 1) {
                for (int k = start; k < end; k++) {
                    int i = (int) keys[k];
                    keys[k] = ((long) pathHash(i) << 32) | i;
                }
                Arrays.sort(keys, start, end);
            }
            for (int k = start; k < end; k++) {
                o[k] = (int) keys[k];
            }
            start = end;
        }
        ordered(o);
    }

    /** A result came after the order was made: it no longer holds, and nobody may wait for it. */
    private synchronized void voidOrder() {
        order = null;
        first = null;
        notifyAll();
    }

    private synchronized void ordered(int[] o) {
        order = o;
        notifyAll();
    }

    /** An int whose signed order is the descending order of {@link Float#compare}. */
    private static int descending(float ranking) {
        int bits = Float.floatToIntBits(ranking);
        return ~(bits ^ ((bits >> 31) & 0x7fffffff));
    }

    /**
     * Selects the first {@code k} ranks without sorting everything (one pass, about a fifth of a
     * full sort's time for 5 million results) and promises a {@link #sort} to follow: the query can
     * answer its first pages as soon as its last backend is done, and the sort (the last 0.1 s
     * of a 5-million-result query, while users waited) runs after. On the writer's thread.
     */
    public void selectFirst(int k) {
        publish();
        first = best(k);
    }

    /**
     * The result at {@code rank} in sorted order. A rank past the ones {@link #selectFirst} chose
     * waits for the promised {@link #sort}.
     */
    public int sorted(int rank) {
        int[] o = order;
        if (o != null) {
            return o[rank];
        }
        int[] f = first;
        if (f != null && rank < f.length) {
            return f[rank];
        }
        o = f == null ? null : awaitSort();
        if (o == null) {
            throw new IllegalStateException("sort() first: results were added after the last sort");
        }
        return o[rank];
    }

    /** The full order once the promised sort is done; null when results were added meanwhile. */
    private synchronized int[] awaitSort() {
        boolean interrupted = false;
        while (order == null && first != null) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return order;
    }

    /**
     * The {@code k} best results (ranking, then path hash, then offset), best first, without
     * sorting all. On the writer's thread, or once the query is complete.
     */
    public int[] best(int k) {
        int total = count;
        int n = Math.min(k, total);
        int[] top = new int[n];
        int filled = 0;
        for (int i = 0; i < total; i++) {
            if (filled < n) {
                top[filled++] = i;
            } else if (compare(i, top[n - 1]) < 0) {
                top[n - 1] = i;
            } else {
                continue;
            }
            for (int j = filled - 1; j > 0 && compare(top[j], top[j - 1]) < 0; j--) {
                int t = top[j];
                top[j] = top[j - 1];
                top[j - 1] = t;
            }
        }
        return top;
    }

    /**
     * Results per package id, counted once and kept until a result is added: every page of a
     * finished query's web UI shows them. Callers must not change the array.
     */
    public int[] packageCounts() {
        if (counts == null) {
            int[] c = new int[pool.size()];
            int total = size;
            for (int i = 0; i < total; i++) {
                c[packageId(i)]++;
            }
            counts = c;
        }
        return counts;
    }

    // Volatile: page renderers on several threads may count at once; each sees a whole array.
    private volatile int[] counts;

    /** Ids of the packages with results, most results first, then by name. */
    public int[] packagesByCount() {
        int[] counts = packageCounts();
        return java.util.stream.IntStream.range(0, counts.length).filter(id -> counts[id] > 0).boxed()
                .sorted((a, b) -> counts[a] != counts[b] ? Integer.compare(counts[b], counts[a]) : pool.name(a).compareTo(pool.name(b)))
                .mapToInt(Integer::intValue).toArray();
    }

    /** Packages in the order of their best result, each with its count and its first results in sorted order. */
    public record Grouped(int[] packages, int[] counts, int[][] top) {}

    /** The grouped view (after {@link #sort}): at most {@code perPackage} results of each package. */
    public Grouped grouped(int perPackage) {
        int[] counts = packageCounts();
        int[] order = new int[counts.length];
        int[][] top = new int[counts.length][];
        int[] filled = new int[counts.length];
        int packagesSeen = 0;
        int total = size;
        for (int rank = 0; rank < total; rank++) {
            int r = sorted(rank);
            int p = packageId(r);
            if (top[p] == null) {
                top[p] = new int[Math.min(perPackage, counts[p])];
                order[packagesSeen++] = p;
            }
            if (filled[p] < top[p].length) {
                top[p][filled[p]++] = r;
            }
        }
        int[] packagesInOrder = Arrays.copyOf(order, packagesSeen);
        int[] countsInOrder = new int[packagesSeen];
        int[][] topInOrder = new int[packagesSeen][];
        for (int i = 0; i < packagesSeen; i++) {
            countsInOrder[i] = counts[packagesInOrder[i]];
            topInOrder[i] = top[packagesInOrder[i]];
        }
        return new Grouped(packagesInOrder, countsInOrder, topInOrder);
    }

    private int compare(int a, int b) {
        int c = Float.compare(ranking(b), ranking(a));
        if (c != 0) {
            return c;
        }
        c = Integer.compare(pathHash(a), pathHash(b));
        return c != 0 ? c : Long.compare(offset(a), offset(b));
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
