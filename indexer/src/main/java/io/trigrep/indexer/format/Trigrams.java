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
        if (content.hasArray()) {
            return collect(content.array(), content.arrayOffset() + content.position(), content.remaining(), set, stopAfter);
        }
        byte[] copy = set.copy(content);
        return collect(copy, 0, content.remaining(), set, stopAfter);
    }

    /** Same over {@code length} bytes of an array from {@code offset}. */
    public static int collect(byte[] bytes, int offset, int length, Set set, int stopAfter) {
        if (length < 3) {
            return set.size;
        }
        int end = offset + length;
        int t = (bytes[offset] & 0xff) << 8 | bytes[offset + 1] & 0xff;
        for (int i = offset + 2; i < end; i++) {
            t = (t << 8 | bytes[i] & 0xff) & 0xffffff;
            if (set.add(t) && set.size >= stopAfter) {
                break;
            }
        }
        return set.size;
    }

    /**
     * A set of trigrams: open addressing in a table sized for one file's distinct trigrams (it
     * grows when needed), so membership tests stay in cache, plus the members in insertion order.
     * Cleared in O(size).
     */
    public static final class Set {
        private int[] slots = new int[1 << 15];
        private int mask = slots.length - 1;
        private int shift = 32 - 15;
        private int[] members = new int[4096];
        private int size;
        private byte[] copy = new byte[0];

        /** The buffer's remaining bytes in a reused array: array loops beat ByteBuffer access. */
        byte[] copy(ByteBuffer content) {
            if (copy.length < content.remaining()) {
                copy = new byte[Math.max(content.remaining(), 2 * copy.length)];
            }
            content.get(content.position(), copy, 0, content.remaining());
            return copy;
        }

        public boolean add(int trigram) {
            int stored = trigram + 1;
            int i = trigram * 0x9E3779B1 >>> shift;
            while (true) {
                int s = slots[i];
                if (s == stored) {
                    return false;
                }
                if (s == 0) {
                    break;
                }
                i = (i + 1) & mask;
            }
            slots[i] = stored;
            if (size == members.length) {
                members = Arrays.copyOf(members, size * 2);
            }
            members[size++] = trigram;
            if (size * 2 > slots.length) {
                grow();
            }
            return true;
        }

        private void grow() {
            slots = new int[slots.length * 2];
            mask = slots.length - 1;
            shift--;
            for (int k = 0; k < size; k++) {
                int t = members[k];
                int i = t * 0x9E3779B1 >>> shift;
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = t + 1;
            }
        }

        public int size() {
            return size;
        }

        /** The members, valid up to {@link #size()}, in insertion order. */
        public int[] members() {
            return members;
        }

        public void clear() {
            if (size * 8 < slots.length) {
                for (int k = 0; k < size; k++) {
                    int t = members[k];
                    int i = t * 0x9E3779B1 >>> shift;
                    while (slots[i] != 0) {
                        slots[i] = 0;
                        i = (i + 1) & mask;
                    }
                }
            } else {
                Arrays.fill(slots, 0);
            }
            size = 0;
        }
    }
}
