package io.trigrep.frontend.store;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.trigrep.proto.ResultPeek;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The per-result records of one query, in chunks of primitives (no object per result, no copy of
 * a full chunk when growing): where each result's frame is in the query's tee file, its ranking,
 * a hash of its package and path (the stable tie-breaker) and its interned package. 24 bytes per
 * result, as three longs.
 *
 * <p>A full chunk fills one G1 region, which makes it a humongous object: G1 allocates those
 * straight into the old generation and never copies them, where smaller chunks would be young
 * objects that all survive and that every young collection copies while result-heavy queries
 * ingest, pausing the selective queries beside them. The first chunk starts
 * small and doubles up to that size, so a query with a few results allocates a few KB, not a
 * region.
 *
 * <p>Single writer; other threads read what {@link #publish} made visible, through the chunk
 * table published with the size, never one the writer is still changing.
 */
final class ResultColumns {
    /**
     * Longs per result, side by side: the offset and the match in the frame; the order's key ({@link #key}: the ranking and
     * the path hash, compared in one load as one signed long); the length and the package.
     */
    private static final int LONGS = 3;

    /** Results per full chunk: a constant once the class is loaded, so dividing by it is a multiplication. */
    static final int CHUNK = chunkResults(g1RegionBytes());
    /** Results the first chunk holds before it first doubles. */
    static final int FIRST = 256;

    static final long LOW = 0xffff_ffffL;
    /**
     * The low bits of a result's first long say which of its frame's results it is; the high bits
     * are the frame's tee offset (up to 1 TiB, far past any query's byte cap). A backend writes at
     * most 1,024 matches per frame, and the peek refuses a frame whose matches take fewer bytes
     * than their records would (24 each), so the byte cap bounds the records too.
     */
    static final int MATCH_BITS = 24;

    static final int MAX_MATCH = (1 << MATCH_BITS) - 1;

    /** The writer's chunk table: chunk 0 may be replaced by a larger copy, later chunks never. */
    private long[][] chunks = new long[16][];
    /** The chunk being filled: {@code chunks[count / CHUNK]}. */
    private long[] tail = new long[0];
    /**
     * The chunk table as of the last {@link #publish}, for readers: a table once published is never
     * written again at an index a reader may use (the writer copies it before replacing chunk 0).
     */
    private volatile long[][] published = chunks;

    private final PackagePool pool = new PackagePool();
    private final ResultPeek peek = new ResultPeek();
    /** Results added, read by the writer only. */
    private int count;
    /**
     * {@link #count} as other threads may see it: published by {@link #publish} (after each batch
     * of frames, and before an order is made), not per result, because a volatile write per
     * result cost as much as the rest of {@link #add} together.
     */
    private volatile int size;

    private long lastOffset = Long.MIN_VALUE;
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

    /**
     * Results per full chunk: as many as fill one G1 region, 24 bytes each after an array header
     * of at most 64 bytes, which makes the chunk humongous (more than half a region) with almost
     * nothing of its region left over. 16k results when the collector is not G1 or its region size
     * is unknown.
     */
    static int chunkResults(long regionBytes) {
        if (regionBytes < (1 << 20) || regionBytes > (1 << 30)) {
            return 1 << 14;
        }
        return (int) ((regionBytes - 64) / (LONGS * Long.BYTES));
    }

    /** G1's heap region size in bytes, or 0 when this JVM does not run G1 or does not say. */
    private static long g1RegionBytes() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (vm == null || !Boolean.parseBoolean(vm.getVMOption("UseG1GC").getValue())) {
                return 0;
            }
            return Long.parseLong(vm.getVMOption("G1HeapRegionSize").getValue());
        } catch (RuntimeException e) { // no such option on this VM, or not a number: the default chunks
            return 0;
        }
    }

    /** Results as of the last {@link #publish}: exact once the query is complete. */
    int size() {
        return size;
    }

    /** Results added so far; on the writer's thread only. */
    int added() {
        return count;
    }

    /** Makes every result added so far count in {@link #size} for other threads. */
    void publish() {
        published = chunks;
        size = count;
    }

    PackagePool packages() {
        return pool;
    }

    /** Whether no result was added at a smaller tee offset than the one before it. */
    boolean offsetsInArrivalOrder() {
        return offsetsInArrivalOrder;
    }

    /**
     * Records the results of the frame teed at {@code offset}, from stream {@code stream} (a small
     * number, such as a shard's index): one for a result or fileMatch, each match of a fileResults.
     * Returns false when the frame is not one this path can read (the caller then reads it fully
     * or treats it as corrupt).
     */
    boolean add(int stream, ByteBuffer frame, long offset) {
        return add(stream, frame, offset, null);
    }

    /**
     * As {@link #add}, but into {@code staged} when it is not null: the records wait there until
     * {@link #addStaged} takes them in, or are dropped with it.
     */
    boolean add(int stream, ByteBuffer frame, long offset, StagedResults staged) {
        if (!peek.peek(frame) || offset >>> (Long.SIZE - MATCH_BITS) != 0 || peek.results() > MAX_MATCH) {
            return false;
        }
        int results = peek.results();
        if (results == 0) {
            return true;
        }
        ByteBuffer f = peek.frame();
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
        int hash = fileHash(pool.hash(id), pathHash);
        long lengthAndPackage = (long) (f.limit() - f.position()) << 32 | (id & LOW);
        if (staged != null) {
            for (int m = 0; m < results; m++) {
                staged.add(offset << MATCH_BITS | m, key(peek.ranking(m), hash), lengthAndPackage);
            }
            return true;
        }
        noteOffset(offset);
        for (int m = 0; m < results; m++) {
            int slot = count % CHUNK * LONGS;
            if (slot == 0 || slot == tail.length) {
                grow(slot);
            }
            long[] c = tail;
            c[slot] = offset << MATCH_BITS | m;
            c[slot + 1] = key(peek.ranking(m), hash);
            c[slot + 2] = lengthAndPackage;
            count++;
        }
        return true;
    }

    /** Takes in the records {@code staged} holds, in the order they were staged. */
    void addStaged(StagedResults staged) {
        long[] r = staged.records();
        for (int i = 0; i < staged.size() * LONGS; i += LONGS) {
            noteOffset(r[i] >>> MATCH_BITS);
            int slot = count % CHUNK * LONGS;
            if (slot == 0 || slot == tail.length) {
                grow(slot);
            }
            tail[slot] = r[i];
            tail[slot + 1] = r[i + 1];
            tail[slot + 2] = r[i + 2];
            count++;
        }
    }

    private void noteOffset(long offset) {
        if (offset < lastOffset) {
            offsetsInArrivalOrder = false;
        }
        lastOffset = offset;
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

    /**
     * Makes room for result {@link #count}, whose longs start at {@code slot} of its chunk: a new
     * chunk when the slot is a chunk's first, else a doubled copy of chunk 0. The copy goes into a
     * new table, since readers may hold the published one.
     */
    private void grow(int slot) {
        int chunk = count / CHUNK;
        if (slot == 0) {
            if (chunk == chunks.length) {
                chunks = Arrays.copyOf(chunks, chunk * 2);
            }
            tail = new long[(chunk == 0 ? Math.min(FIRST, CHUNK) : CHUNK) * LONGS];
        } else {
            tail = Arrays.copyOf(tail, Math.min(tail.length * 2, CHUNK * LONGS));
            chunks = chunks.clone();
        }
        chunks[chunk] = tail;
    }

    /**
     * The order's key of a result: best ranking first, then the lower path hash, as one signed
     * long, so that a selection compares two results with one load and one comparison each. The
     * high half is the ranking's bits made to sort as integers, inverted (best first); all NaNs are
     * one value, as {@link Float#compare} has them. The low half is the path hash with its sign bit
     * flipped, so that its unsigned order, which the long's comparison sees, is the hash's signed one.
     */
    static long key(float ranking, int pathHash) {
        return (long) descending(ranking) << 32 | ((pathHash ^ Integer.MIN_VALUE) & LOW);
    }

    /** A ranking's bits as an int that sorts ascending where the rankings sort descending. */
    static int descending(float ranking) {
        return ~signedOrder(Float.floatToIntBits(ranking));
    }

    /**
     * A float's bits made to sort as a signed int does (the negative ones' magnitude bits
     * inverted), and back: the mapping is its own inverse.
     */
    private static int signedOrder(int bits) {
        return bits ^ ((bits >> 31) & 0x7fffffff);
    }

    /**
     * The tie-breaker of results of equal ranking: a hash of the package's name and the path in it.
     * Of the path alone it was not enough: packages share paths ({@code debian/control},
     * {@code src/main.c}), and results of two such files on different shards then tied, to be
     * ordered by arrival, which changes from run to run.
     */
    static int fileHash(int packageHash, int pathHash) {
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

    /** Where the result's frame is in the tee. */
    long offset(int result) {
        return offset(published, result);
    }

    /** Which of its frame's results it is: 0 but for the matches of a fileResults after its first. */
    int match(int result) {
        return (int) (published[result / CHUNK][result % CHUNK * LONGS] & MAX_MATCH);
    }

    int length(int result) {
        return (int) (published[result / CHUNK][result % CHUNK * LONGS + 2] >>> 32);
    }

    /** The order's key, as {@link #key} makes it. */
    long key(int result) {
        return key(published, result);
    }

    /** {@link #key} of a result added, published or not: on the writer's thread only. */
    long addedKey(int result) {
        return key(chunks, result);
    }

    /** {@link #offset} of a result added, published or not: on the writer's thread only. */
    long addedOffset(int result) {
        return offset(chunks, result);
    }

    private static long key(long[][] table, int result) {
        return table[result / CHUNK][result % CHUNK * LONGS + 1];
    }

    private static long offset(long[][] table, int result) {
        return table[result / CHUNK][result % CHUNK * LONGS] >>> MATCH_BITS;
    }

    float ranking(int result) {
        return Float.intBitsToFloat(signedOrder(~(int) (key(result) >>> 32)));
    }

    int pathHash(int result) {
        return (int) key(result) ^ Integer.MIN_VALUE;
    }

    int packageId(int result) {
        return (int) published[result / CHUNK][result % CHUNK * LONGS + 2];
    }
}
