package io.trigrep.backend.search;

import io.trigrep.indexer.bytes.Swar;

/**
 * Where the line search may jump to while its DFA is idle (no match begun): the next byte that
 * leads out of the idle states, eight bytes at a time, as RE2 jumps with memchr to a match's
 * first byte. The exits are a few byte ranges (so {@code [A-Z]{8}}, whose 26 exits are one range,
 * jumps too), or a pair of bytes when one byte leads out and only one byte after it leads on.
 * A byte of 0x80 or more always stops the jump: the DFA reads non-ASCII characters itself.
 * Immutable; made by {@link LineDfa} from its idle states, anew after each cache reset.
 */
final class Prefilter {
    /** At most this many exit ranges are tested per word: more would stop the jump too often to pay. */
    static final int MAX_EXIT_RANGES = 3;

    /** Per range, the words of {@link Swar#inRange}: {@code below(hi)}, {@code above(lo)}. */
    private final long[] exits;
    /** Per range, its exclusive bounds {@code lo, hi}, for the bytes after the last whole word. */
    private final int[] bounds;
    /** The pair's bytes, each repeated in a word; {@code pairFirst} 0 when the exits are ranges. */
    private final long pairFirst;

    private final long pairSecond;

    private Prefilter(int[] bounds, long pairFirst, long pairSecond) {
        this.bounds = bounds;
        this.exits = new long[bounds.length];
        for (int r = 0; r < bounds.length; r += 2) {
            exits[r] = Swar.below(bounds[r + 1]);
            exits[r + 1] = Swar.above(bounds[r]);
        }
        this.pairFirst = pairFirst;
        this.pairSecond = pairSecond;
    }

    /**
     * Jumps to the bytes {@code x} with {@code lo < x < hi}, for each {@code lo, hi} in
     * {@code bounds}: at most {@link #MAX_EXIT_RANGES} ranges within {@code [1, 127]}.
     */
    static Prefilter ranges(int[] bounds) {
        if (bounds.length % 2 != 0 || bounds.length > 2 * MAX_EXIT_RANGES) {
            throw new IllegalArgumentException("exit ranges must be at most " + MAX_EXIT_RANGES + " lo, hi pairs, got "
                    + bounds.length + " bounds");
        }
        return new Prefilter(bounds.clone(), 0, 0);
    }

    /** Jumps to the ASCII byte {@code first} (not NUL) when the byte after it is {@code second} or not ASCII. */
    static Prefilter pair(int first, int second) {
        if (first <= 0 || first >= 128 || second < 0 || second >= 128) {
            throw new IllegalArgumentException(
                    "a pair is of ASCII bytes, the first not NUL, got " + first + ", " + second);
        }
        return new Prefilter(new int[0], Swar.broadcast(first), Swar.broadcast(second));
    }

    /** The first index from {@code i} where the DFA must look, or {@code length}. */
    int next(byte[] content, int i, int length) {
        return pairFirst != 0 ? nextPair(content, i, length) : nextExit(content, i, length);
    }

    /**
     * The first index from {@code i} holding an exit byte or a byte of 0x80 or more, or
     * {@code length}. The range test is exact in every byte ({@link Swar#inRange}), so the lowest
     * flagged byte is the first hit.
     */
    private int nextExit(byte[] content, int i, int length) {
        long[] exits = this.exits;
        while (i + 8 <= length) {
            long v = Swar.word(content, i);
            long hits = Swar.nonAscii(v);
            for (int r = 0; r < exits.length; r += 2) {
                hits |= Swar.inRange(v, exits[r], exits[r + 1]);
            }
            if (hits != 0) {
                return i + Swar.firstByte(hits);
            }
            i += 8;
        }
        for (; i < length; i++) {
            int b = content[i];
            if (b < 0) {
                return i;
            }
            for (int r = 0; r < bounds.length; r += 2) {
                if (b > bounds[r] && b < bounds[r + 1]) {
                    return i;
                }
            }
        }
        return length;
    }

    /**
     * The first index from {@code i} holding the pair's first byte followed by its second (or by a
     * byte of 0x80 or more), or a byte of 0x80 or more, or {@code length}. The tests are exact
     * in every byte, so the lowest flagged byte is the first hit, as in the byte loop after.
     */
    private int nextPair(byte[] content, int i, int length) {
        long first = pairFirst;
        long second = pairSecond;
        while (i + 9 <= length) {
            long v = Swar.word(content, i);
            long w = Swar.word(content, i + 1);
            long hits =
                    Swar.nonAscii(v) | (Swar.equalBytes(v, first) & (Swar.equalBytes(w, second) | Swar.nonAscii(w)));
            if (hits != 0) {
                return i + Swar.firstByte(hits);
            }
            i += 8;
        }
        for (; i < length; i++) {
            int b = content[i];
            if (b < 0
                    || (b == (byte) first
                            && (i + 1 >= length || content[i + 1] == (byte) second || content[i + 1] < 0))) {
                return i;
            }
        }
        return length;
    }

    /** The first index from {@code i} holding the byte repeated in {@code want}, or {@code length}. */
    static int nextByte(byte[] content, int i, int length, long want) {
        while (i + 8 <= length) {
            long hits = Swar.equalBytes(Swar.word(content, i), want);
            if (hits != 0) {
                return i + Swar.firstByte(hits);
            }
            i += 8;
        }
        for (; i < length; i++) {
            if (content[i] == (byte) want) {
                return i;
            }
        }
        return length;
    }
}
