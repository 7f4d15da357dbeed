package io.trigrep.backend.search;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.DocTable;
import java.util.List;

/**
 * The candidates of every segment of a shard as one sequence in decreasing static rank, as a
 * single shard holding the same files would list them: each segment lists its own in doc-id
 * order, which is its rank order, and this takes the best head each time (the oldest segment's
 * on a tie). A search capped at n results so finds the same best files whether the shard has one
 * segment or ten. With one segment it only passes its docs through, reading no rank.
 */
final class RankedMerge {
    private final DocIterator[] segments;
    private final DocTable[] tables;
    private final int[] heads;
    private final float[] ranks;
    private int segment;

    /** {@code candidates.get(i)} lists segment i's docs, whose doc table is {@code tables.get(i)}. */
    RankedMerge(List<DocIterator> candidates, List<DocTable> tables) throws CorruptIndexException {
        if (candidates.size() != tables.size()) {
            throw new IllegalArgumentException("one doc table per segment's candidates; got " + candidates.size()
                    + " candidates and " + tables.size() + " tables");
        }
        this.segments = candidates.toArray(new DocIterator[0]);
        this.tables = tables.toArray(new DocTable[0]);
        this.heads = new int[segments.length];
        this.ranks = new float[segments.length];
        if (segments.length > 1) {
            for (int i = 0; i < segments.length; i++) {
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
            if (heads[i] != DocIterator.NO_MORE_DOCS && (best < 0 || ranks[i] > ranks[best])) {
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

    private void advanceHead(int i) throws CorruptIndexException {
        int doc = segments[i].next();
        heads[i] = doc;
        if (doc != DocIterator.NO_MORE_DOCS) {
            ranks[i] = tables[i].rank(doc);
        }
    }
}
