package io.trigrep.frontend.store;

import io.trigrep.proto.ResultPeek;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The per-result records of one query, as columns of primitives in fixed-size chunks (no object
 * per result, no copy when growing): where each result's frame is in the query's tee file, its
 * ranking, a hash of its package and path (the stable tie-breaker) and its interned package.
 * 24 bytes per result. Single writer; other threads read what {@link #publish} made visible.
 */
final class ResultColumns {
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
     * Records the result whose frame was teed at {@code offset}, from stream {@code stream} (a
     * small number, such as a shard's index); returns false when the frame is not a result this
     * path can read (the caller then reads it fully or treats it as corrupt).
     */
    boolean add(int stream, ByteBuffer frame, long offset) {
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

    long offset(int result) {
        return offsets[result >>> CHUNK_BITS][result & (CHUNK - 1)];
    }

    int length(int result) {
        return lengths[result >>> CHUNK_BITS][result & (CHUNK - 1)];
    }

    float ranking(int result) {
        return rankings[result >>> CHUNK_BITS][result & (CHUNK - 1)];
    }

    int pathHash(int result) {
        return pathHashes[result >>> CHUNK_BITS][result & (CHUNK - 1)];
    }

    int packageId(int result) {
        return packages[result >>> CHUNK_BITS][result & (CHUNK - 1)];
    }
}
