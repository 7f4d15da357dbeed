package io.trigrep.frontend.store;

import java.util.Arrays;

/**
 * The best of the results offered, at most {@link #capacity}, in the query's order (the key, then
 * the tee offset, then the index; {@link ResultOrder}): each offered with its key and offset, kept
 * beside it, so that choosing never reads the columns again. Its room grows with the offers; they
 * are kept as they come until there are {@link #capacity}, then made a heap with the worst at its
 * root, which a better offer replaces. Not thread-safe.
 */
final class BestResults {
    private final int capacity;
    private int[] results;
    private long[] keys;
    private long[] offsets;
    private int size;

    /** Room for {@code room} results at first, grown with the offers up to {@code capacity}. */
    BestResults(int capacity, int room) {
        if (capacity < 1 || room < 0 || room > capacity) {
            throw new IllegalArgumentException(
                    "need capacity >= 1 and room in [0, capacity], got " + capacity + " and " + room);
        }
        this.capacity = capacity;
        results = new int[room];
        keys = new long[room];
        offsets = new long[room];
    }

    int capacity() {
        return capacity;
    }

    /** Results there is room for now: grown with the offers, up to {@link #capacity}. */
    int room() {
        return results.length;
    }

    /** Offers result {@code i}, whose order's key and tee offset are given. */
    void offer(int i, long key, long offset) {
        if (size < capacity) {
            if (size == results.length) {
                int n = Math.min(capacity, Math.max(16, 2 * size));
                results = Arrays.copyOf(results, n);
                keys = Arrays.copyOf(keys, n);
                offsets = Arrays.copyOf(offsets, n);
            }
            place(size++, i, key, offset);
            if (size == capacity) {
                for (int at = size / 2 - 1; at >= 0; at--) {
                    down(at, results[at], keys[at], offsets[at]);
                }
            }
        } else if (key <= keys[0] && before(key, offset, i, 0)) {
            down(0, i, key, offset);
        }
    }

    /** The results kept, in no order: a copy. */
    int[] results() {
        return Arrays.copyOf(results, size);
    }

    /** Whether result {@code i} (its key and offset given) comes before the one kept at {@code at}. */
    private boolean before(long key, long offset, int i, int at) {
        int c = Long.compare(key, keys[at]);
        if (c == 0) {
            c = Long.compare(offset, offsets[at]);
        }
        return c != 0 ? c < 0 : i < results[at];
    }

    /** Puts result {@code i} at {@code at} of the heap (at the root, the worst goes) and moves it down past the worse ones below. */
    private void down(int at, int i, long key, long offset) {
        while (true) {
            int child = 2 * at + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(keys[child], offsets[child], results[child], child + 1)) {
                child++;
            }
            if (!before(key, offset, i, child)) {
                break;
            }
            place(at, results[child], keys[child], offsets[child]);
            at = child;
        }
        place(at, i, key, offset);
    }

    private void place(int at, int i, long key, long offset) {
        results[at] = i;
        keys[at] = key;
        offsets[at] = offset;
    }
}
