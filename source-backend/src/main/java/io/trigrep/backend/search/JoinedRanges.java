package io.trigrep.backend.search;

import java.util.Arrays;

/**
 * The marks of a line that is both a definition (its name's occurrences) and a regex operand's
 * match (the regexes' ranges): one list, in order, overlaps joined, as the result writer takes
 * ranges. Buffers are reused; one per worker, not thread-safe.
 */
final class JoinedRanges {
    private long[] spans = new long[64];
    private int[] joined = new int[128];

    /**
     * Joins {@code aCount} pairs of {@code a} and {@code bCount} pairs of {@code b} (absolute
     * {@code [start, end)} offsets); the result is in {@link #ranges()}. Returns how many pairs.
     */
    int join(int[] a, int aCount, int[] b, int bCount) {
        int total = aCount + bCount;
        if (total > spans.length) {
            spans = new long[Integer.highestOneBit(total) << 1];
        }
        for (int i = 0; i < aCount; i++) {
            spans[i] = (long) a[2 * i] << 32 | a[2 * i + 1];
        }
        for (int i = 0; i < bCount; i++) {
            spans[aCount + i] = (long) b[2 * i] << 32 | b[2 * i + 1];
        }
        Arrays.sort(spans, 0, total);
        if (2 * total > joined.length) {
            joined = new int[Integer.highestOneBit(2 * total) << 1];
        }
        int n = 0;
        for (int i = 0; i < total; i++) {
            int start = (int) (spans[i] >>> 32);
            int end = (int) spans[i];
            if (n > 0 && start <= joined[2 * n - 1]) {
                joined[2 * n - 1] = Math.max(joined[2 * n - 1], end);
            } else {
                joined[2 * n] = start;
                joined[2 * n + 1] = end;
                n++;
            }
        }
        return n;
    }

    /** The pairs of the last {@link #join}. */
    int[] ranges() {
        return joined;
    }
}
