package io.trigrep.frontend.store;

import java.util.Arrays;

/**
 * The result records of one backend's answer held aside until the answer is known to count: a
 * shard served by several replicas may drop an answer half-way (its replica failed, or another
 * finished first), and records once in a {@link ResultIndex} cannot be taken out. Three longs per
 * result, as {@link ResultColumns} keeps them. Single writer: the query's.
 */
public final class StagedResults {
    private long[] records = new long[0];
    private int size;

    void add(long offsetAndMatch, long key, long lengthAndPackage) {
        int at = size * 3;
        if (at == records.length) {
            records = Arrays.copyOf(records, Math.max(48, records.length * 2));
        }
        records[at] = offsetAndMatch;
        records[at + 1] = key;
        records[at + 2] = lengthAndPackage;
        size++;
    }

    long[] records() {
        return records;
    }

    /** Results held. */
    public int size() {
        return size;
    }
}
