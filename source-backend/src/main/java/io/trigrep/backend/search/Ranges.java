package io.trigrep.backend.search;

import java.util.Arrays;

/**
 * The match ranges of one line as {@code start, end} pairs in a reused array that grows as needed:
 * a line's ranges reach the sink without an allocation per line.
 */
final class Ranges {
    private int[] pairs = new int[32];

    /** The pairs; the first {@code 2 * count} entries are those added since the count was last 0. */
    int[] array() {
        return pairs;
    }

    /** Stores range {@code count} as {@code [start, end)}; returns the new count. */
    int add(int count, int start, int end) {
        if (2 * count + 2 > pairs.length) {
            pairs = Arrays.copyOf(pairs, pairs.length * 2);
        }
        pairs[2 * count] = start;
        pairs[2 * count + 1] = end;
        return count + 1;
    }
}
