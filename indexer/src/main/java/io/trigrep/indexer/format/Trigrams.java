package io.trigrep.indexer.format;

import java.util.Arrays;

/**
 * Trigrams are three consecutive bytes, packed big-endian into the low 24 bits of an int:
 * {@code "abc"} is {@code 0x616263}. Like codesearch, trigrams span line ends.
 */
public final class Trigrams {
    private Trigrams() {}

    public static int of(int b0, int b1, int b2) {
        return (b0 & 0xff) << 16 | (b1 & 0xff) << 8 | b2 & 0xff;
    }

    /**
     * Adds the distinct trigrams of {@code bytes[offset, offset + length)} to {@code set}; stops
     * once the set holds at least {@code stopAfter} (it may then hold up to {@link Set#BLOCK}
     * more). Returns the set's size.
     */
    public static int collect(byte[] bytes, int offset, int length, Set set, int stopAfter) {
        if (length < 3) {
            return set.size;
        }
        int end = offset + length;
        int t = (bytes[offset] & 0xff) << 8 | bytes[offset + 1] & 0xff;
        for (int from = offset + 2; from < end && set.size < stopAfter; from += Set.BLOCK) {
            t = set.addBlock(bytes, from, Math.min(end, from + Set.BLOCK), t);
        }
        return set.size;
    }

    /**
     * A set of trigrams: one bit per possible trigram (2^24 bits, 2 MiB), plus the members in
     * insertion order. Source text touches few of the words (ASCII trigrams fall in about 18,000
     * of the 262,144), so the bits in use stay in cache; an add is one load and one store, where
     * the open-addressing table it replaced hashed and probed (measured: the indexer's hottest
     * method before, about 30% of its CPU samples). Cleared in O(size).
     */
    public static final class Set {
        /** Bytes {@link Trigrams#collect} hands to {@link #addBlock} at once, between checks of its limit. */
        static final int BLOCK = 256;

        private final long[] bits = new long[1 << 18];
        private int[] members = new int[4096];
        private int[] grouped = new int[4096];
        private final int[] groupStarts = new int[257];
        private int size;

        /**
         * Adds the trigrams ending at {@code bytes[from, to)}, {@code t} holding the two bytes
         * before {@code from}; returns the last trigram. (A branch-free variant, which stores
         * every trigram and advances the size by the bit's absence, measured 20% slower in
         * TrigramCollectBenchmark.)
         */
        int addBlock(byte[] bytes, int from, int to, int t) {
            if (members.length < size + BLOCK) {
                members = Arrays.copyOf(members, Math.max(2 * members.length, size + BLOCK));
            }
            long[] bits = this.bits;
            int[] members = this.members;
            int n = size;
            for (int i = from; i < to; i++) {
                t = (t << 8 | bytes[i] & 0xff) & 0xffffff;
                int word = t >>> 6;
                long w = bits[word];
                long bit = 1L << t;
                if ((w & bit) == 0) {
                    bits[word] = w | bit;
                    members[n++] = t;
                }
            }
            size = n;
            return t;
        }

        public int size() {
            return size;
        }

        /**
         * The members, valid up to {@link #size()}, grouped by their first byte in increasing
         * order (a counting sort; in insertion order within a group). The index build fills the
         * trigram space range by range, and grouped trigrams let it read only the groups a range
         * covers.
         */
        public int[] membersByFirstByte() {
            if (grouped.length < size) {
                grouped = new int[Math.max(size, 2 * grouped.length)];
            }
            int[] starts = groupStarts;
            Arrays.fill(starts, 0);
            for (int k = 0; k < size; k++) {
                starts[(members[k] >>> 16) + 1]++;
            }
            for (int g = 1; g < starts.length; g++) {
                starts[g] += starts[g - 1];
            }
            for (int k = 0; k < size; k++) {
                int t = members[k];
                grouped[starts[t >>> 16]++] = t;
            }
            return grouped;
        }

        public void clear() {
            if (size < bits.length / 4) {
                // every set bit belongs to a member, so zeroing each member's whole word is exact
                for (int k = 0; k < size; k++) {
                    bits[members[k] >>> 6] = 0;
                }
            } else {
                Arrays.fill(bits, 0);
            }
            size = 0;
        }
    }
}
