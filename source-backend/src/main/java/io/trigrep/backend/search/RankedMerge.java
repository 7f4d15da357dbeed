package io.trigrep.backend.search;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.DocTable;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * The candidates of every segment of a shard as one sequence in the order a single shard holding
 * the same files would list them: decreasing static rank, ties by package name, then path bytes
 * (the indexer's doc order, FORMAT.md). Each segment lists its own candidates in that order (its
 * doc-id order), and this takes the first head each time. A search capped at n results so finds
 * the same files whether the shard has one segment or ten. With one segment it only passes its
 * docs through, reading no rank.
 */
final class RankedMerge {
    private final DocIterator[] segments;
    private final DocTable[] tables;
    private final int[] heads;
    private final float[] ranks;
    /** Each head's package name, for ties of rank. */
    private final String[] packages;
    /** Each head's path, read on the first tie that needs it; null until then. */
    private final ByteBuffer[] paths;
    /** Per segment, its packages' names, read once each. */
    private final String[][] packageNames;

    private int segment;

    /** {@code candidates.get(i)} lists segment i's docs, whose doc table is {@code tables.get(i)}. */
    RankedMerge(List<DocIterator> candidates, List<DocTable> tables) throws CorruptIndexException {
        if (candidates.size() != tables.size()) {
            throw new IllegalArgumentException("one doc table per segment's candidates; got " + candidates.size()
                    + " candidates and " + tables.size() + " tables");
        }
        this.segments = candidates.toArray(new DocIterator[0]);
        this.tables = tables.toArray(new DocTable[0]);
        int n = segments.length;
        this.heads = new int[n];
        this.ranks = new float[n];
        this.packages = new String[n];
        this.paths = new ByteBuffer[n];
        this.packageNames = new String[n][];
        if (n > 1) {
            for (int i = 0; i < n; i++) {
                packageNames[i] = new String[this.tables[i].packageCount()];
                advanceHead(i);
            }
        }
    }

    /** The next candidate's doc id in its segment ({@link #segment}), or {@link DocIterator#NO_MORE_DOCS}. */
    int next() throws CorruptIndexException {
        if (segments.length == 1) {
            return segments[0].next();
        }
        int best = -1;
        for (int i = 0; i < heads.length; i++) {
            if (heads[i] != DocIterator.NO_MORE_DOCS && (best < 0 || before(i, best))) {
                best = i;
            }
        }
        if (best < 0) {
            return DocIterator.NO_MORE_DOCS;
        }
        segment = best;
        int doc = heads[best];
        advanceHead(best);
        return doc;
    }

    /** The segment (its index in the shard's live segments) of the doc {@link #next} returned last. */
    int segment() {
        return segment;
    }

    /** Whether segment {@code a}'s head comes before segment {@code b}'s in a single shard's doc order. */
    private boolean before(int a, int b) throws CorruptIndexException {
        if (ranks[a] != ranks[b]) {
            return ranks[a] > ranks[b];
        }
        int byPackage = packages[a].compareTo(packages[b]);
        if (byPackage != 0) {
            return byPackage < 0;
        }
        return compareUnsigned(path(a), path(b)) < 0;
    }

    private ByteBuffer path(int i) throws CorruptIndexException {
        if (paths[i] == null) {
            paths[i] = tables[i].pathBytes(heads[i]);
        }
        return paths[i];
    }

    /** Byte by byte, unsigned; a prefix first (as {@code Arrays.compareUnsigned} orders the indexer's docs). */
    private static int compareUnsigned(ByteBuffer a, ByteBuffer b) {
        int at = a.mismatch(b);
        if (at < 0) {
            return 0;
        }
        if (at >= a.remaining() || at >= b.remaining()) {
            return a.remaining() - b.remaining();
        }
        return Byte.toUnsignedInt(a.get(a.position() + at)) - Byte.toUnsignedInt(b.get(b.position() + at));
    }

    private void advanceHead(int i) throws CorruptIndexException {
        int doc = segments[i].next();
        heads[i] = doc;
        paths[i] = null;
        if (doc != DocIterator.NO_MORE_DOCS) {
            ranks[i] = tables[i].rank(doc);
            int pkg = tables[i].packageId(doc);
            String name = packageNames[i][pkg];
            if (name == null) {
                name = tables[i].packageName(pkg);
                packageNames[i][pkg] = name;
            }
            packages[i] = name;
        }
    }
}
