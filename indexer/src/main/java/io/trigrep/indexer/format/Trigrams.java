package io.trigrep.indexer.format;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.function.IntConsumer;

/**
 * Trigrams are three consecutive bytes, packed big-endian into the low 24 bits of an int:
 * {@code "abc"} is {@code 0x616263}. Like codesearch, trigrams span line ends.
 */
public final class Trigrams {
    private Trigrams() {}

    public static int of(int b0, int b1, int b2) {
        return (b0 & 0xff) << 16 | (b1 & 0xff) << 8 | (b2 & 0xff);
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
        int t = (bytes[offset] & 0xff) << 8 | (bytes[offset + 1] & 0xff);
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
     *
     * <p>Members are recorded up to {@link #DENSE} of them (4 MiB); a file with more (a large data
     * file can hold millions of distinct trigrams, up to all 2^24) turns the set dense: only the
     * bits are kept, and the members are read back from them in increasing order. Memory stays
     * bounded at 2 MiB + 4 MiB + the grouped copy whatever the file.
     */
    public static final class Set {
        /** Bytes {@link Trigrams#collect} hands to {@link #addBlock} at once, between checks of its limit. */
        static final int BLOCK = 256;
        /** Members recorded before the set turns dense. */
        static final int DENSE = 1 << 20;

        private static final VarHandle BIG_ENDIAN_LONGS =
                MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

        private final long[] bits = new long[1 << 18];
        private int[] members = new int[4096];
        private int[] grouped = new int[4096];
        private final int[] groupStarts = new int[257];
        private int size;
        private boolean dense;

        /**
         * Adds the trigrams ending at {@code bytes[from, to)}, {@code t} holding the two bytes
         * before {@code from}; returns the last trigram. (A branch-free variant, which stores
         * every trigram and advances the size by the bit's absence, measured 20% slower in
         * TrigramCollectBenchmark.)
         */
        int addBlock(byte[] bytes, int from, int to, int t) {
            if (!dense && members.length < size + BLOCK) {
                if (size + BLOCK > DENSE) {
                    dense = true;
                } else {
                    members = Arrays.copyOf(members, Math.min(DENSE, Math.max(2 * members.length, size + BLOCK)));
                }
            }
            long[] bits = this.bits;
            if (dense) {
                int n = size;
                for (int i = from; i < to; i++) {
                    t = (t << 8 | (bytes[i] & 0xff)) & 0xffffff;
                    int word = t >>> 6;
                    long w = bits[word];
                    long bit = 1L << t;
                    if ((w & bit) == 0) {
                        bits[word] = w | bit;
                        n++;
                    }
                }
                size = n;
                return t;
            }
            int[] members = this.members;
            int n = size;
            int i = from;
            // Six trigrams per eight-byte load, each cut out of the word on its own: no trigram
            // waits for the one before it, as shifting a byte at a time into t makes them.
            for (; i + 6 <= to; i += 6) {
                long eight = (long) BIG_ENDIAN_LONGS.get(bytes, i - 2);
                for (int shift = 40; shift >= 0; shift -= 8) {
                    int trigram = (int) (eight >>> shift) & 0xffffff;
                    int word = trigram >>> 6;
                    long w = bits[word];
                    long bit = 1L << trigram;
                    if ((w & bit) == 0) {
                        bits[word] = w | bit;
                        members[n++] = trigram;
                    }
                }
            }
            if (i > from) {
                t = (bytes[i - 2] & 0xff) << 8 | (bytes[i - 1] & 0xff);
            }
            for (; i < to; i++) {
                t = (t << 8 | (bytes[i] & 0xff)) & 0xffffff;
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

        /** True when the members were too many to record: read them with {@link #forEachByFirstByte}. */
        public boolean dense() {
            return dense;
        }

        /** Every member grouped by first byte (for a dense set: in increasing order). */
        public void forEachByFirstByte(IntConsumer sink) {
            if (!dense) {
                int[] ordered = membersByFirstByte();
                for (int k = 0; k < size; k++) {
                    sink.accept(ordered[k]);
                }
                return;
            }
            for (int word = 0; word < bits.length; word++) {
                for (long w = bits[word]; w != 0; w &= w - 1) {
                    sink.accept(word << 6 | Long.numberOfTrailingZeros(w));
                }
            }
        }

        /**
         * The members, valid up to {@link #size()}, grouped by their first byte in increasing
         * order (a counting sort; in insertion order within a group). The index build fills the
         * trigram space range by range, and grouped trigrams let it read only the groups a range
         * covers.
         */
        public int[] membersByFirstByte() {
            if (dense) {
                throw new IllegalStateException(
                        "a dense set of " + size + " trigrams has no member array: use forEachByFirstByte");
            }
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
            if (!dense && size < bits.length / 4) {
                // every set bit belongs to a member, so zeroing each member's whole word is exact
                for (int k = 0; k < size; k++) {
                    bits[members[k] >>> 6] = 0;
                }
            } else {
                Arrays.fill(bits, 0);
            }
            size = 0;
            dense = false;
        }
    }
}
