package io.trigrep.indexer.format;

import java.nio.ByteBuffer;
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
     * Adds the distinct trigrams of {@code content} (position to limit) to {@code set}; stops once
     * the set holds {@code stopAfter}. Returns the set's size.
     */
    public static int collect(ByteBuffer content, Set set, int stopAfter) {
        int end = content.limit();
        int i = content.position();
        if (end - i < 3) {
            return set.size;
        }
        int t = (content.get(i) & 0xff) << 8 | content.get(i + 1) & 0xff;
        for (i += 2; i < end; i++) {
            t = (t << 8 | content.get(i) & 0xff) & 0xffffff;
            if (set.add(t) && set.size >= stopAfter) {
                break;
            }
        }
        return set.size;
    }

    /** A set of trigrams: a 2 MiB bitmap for membership plus the members in insertion order, cleared in O(size). */
    public static final class Set {
        private final long[] bits = new long[1 << 18];
        private int[] members = new int[4096];
        private int size;

        public boolean add(int trigram) {
            long mask = 1L << trigram;
            int word = trigram >>> 6;
            if ((bits[word] & mask) != 0) {
                return false;
            }
            bits[word] |= mask;
            if (size == members.length) {
                members = Arrays.copyOf(members, size * 2);
            }
            members[size++] = trigram;
            return true;
        }

        public int size() {
            return size;
        }

        /** The members, valid up to {@link #size()}, in insertion order. */
        public int[] members() {
            return members;
        }

        public void clear() {
            for (int i = 0; i < size; i++) {
                bits[members[i] >>> 6] = 0;
            }
            size = 0;
        }
    }
}
