package io.trigrep.indexer.bytes;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Byte tests eight bytes at a time in one {@code long} (SIMD within a register), for the scans
 * that look for NULs, newlines, a needle's bytes or a DFA's exit bytes. Words are read little
 * endian, so byte {@code k} of the text is bits {@code 8k..8k+7} and the first flagged byte is
 * the lowest. A test returns a mask with the high bit ({@code 0x80}) of each byte that passes
 * and no other bit set. Every method is a few operations, so the JIT inlines each into its loop.
 *
 * <p>The tests here are exact: no carry or borrow ever crosses from one byte into the next. The
 * textbook zero-byte test {@code (x - ONES) & ~x & HIGH} is one operation cheaper but not exact:
 * the borrow out of a zero byte turns a 0x01 byte above it into a false hit. Its first hit is
 * still right, but counting hits ({@code bitCount}) or taking the last one would be wrong, so
 * every scan here uses {@link #zeroBytes}.
 */
public final class Swar {
    /** 0x01 in every byte: multiplying a byte by it repeats the byte in every lane. */
    public static final long ONES = 0x0101010101010101L;
    /** The high bit of every byte. */
    public static final long HIGH = 0x8080808080808080L;
    /** The low seven bits of every byte. */
    private static final long LOW7 = 0x7F7F7F7F7F7F7F7FL;

    private static final long NEWLINES = '\n' * ONES;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private Swar() {}

    /** The eight bytes {@code bytes[at, at + 8)} as a little-endian word. */
    public static long word(byte[] bytes, int at) {
        return (long) LONGS.get(bytes, at);
    }

    /** The four bytes {@code bytes[at, at + 4)} as a little-endian int. */
    public static int halfWord(byte[] bytes, int at) {
        return (int) INTS.get(bytes, at);
    }

    /** Stores {@code word} little endian into {@code bytes[at, at + 8)}. */
    public static void setWord(byte[] bytes, int at, long word) {
        LONGS.set(bytes, at, word);
    }

    /** Byte {@code b} (its low eight bits) in every lane. */
    public static long broadcast(int b) {
        return (b & 0xffL) * ONES;
    }

    /**
     * The high bit of each byte of {@code x} that is zero, exactly. {@code (x & LOW7) + LOW7} sets
     * a byte's high bit when its low seven bits are not all zero, and cannot carry out of the byte
     * (at most 0x7F + 0x7F); OR-ing {@code x} adds the bytes whose own high bit is set. What is
     * left clear in the high bit is exactly the zero bytes; the final {@code | LOW7} and
     * complement keep only those high bits.
     */
    public static long zeroBytes(long x) {
        return ~(((x & LOW7) + LOW7) | x | LOW7);
    }

    /** The high bit of each byte of {@code v} equal to the byte that {@code repeated} holds in every lane. */
    public static long equalBytes(long v, long repeated) {
        return zeroBytes(v ^ repeated);
    }

    /** The high bit of each newline byte of {@code v}. */
    public static long newlines(long v) {
        return zeroBytes(v ^ NEWLINES);
    }

    /** The high bit of each byte of {@code v} of 0x80 or more (not ASCII). */
    public static long nonAscii(long v) {
        return v & HIGH;
    }

    /** The word for {@link #inRange}'s upper bound: bytes below {@code hiExclusive} (1 to 128). */
    public static long below(int hiExclusive) {
        assert hiExclusive >= 1 && hiExclusive <= 128 : "hiExclusive " + hiExclusive;
        return (127L + hiExclusive) * ONES;
    }

    /** The word for {@link #inRange}'s lower bound: bytes above {@code loExclusive} (-1 to 127). */
    public static long above(int loExclusive) {
        assert loExclusive >= -1 && loExclusive <= 127 : "loExclusive " + loExclusive;
        return (127L - loExclusive) * ONES;
    }

    /**
     * The high bit of each ASCII byte {@code x} of {@code v} with {@code lo < x < hi}, given
     * {@code below(hi)} and {@code above(lo)}. Exact in every byte: with {@code x} its low seven
     * bits, {@code 127 + hi - x} lies in {@code [1, 255]} and has its high bit set exactly when
     * {@code x < hi}; {@code x + 127 - lo} lies in {@code [0, 255]} and has it set exactly when
     * {@code x > lo}; neither borrows nor carries across bytes. {@code ~v} drops the bytes of 0x80
     * or more, whose low seven bits the test read.
     */
    public static long inRange(long v, long below, long above) {
        long low = v & LOW7;
        return (below - low) & (low + above) & ~v & HIGH;
    }

    /** {@code v} with its ASCII upper-case letters lowered: each gets 0x20, which is the case bit. */
    public static long lowerAscii(long v) {
        return v | (inRange(v, below('Z' + 1), above('A' - 1)) >>> 2);
    }

    /** The index (0 to 7) of the first (lowest) flagged byte of a nonzero test result. */
    public static int firstByte(long hits) {
        return Long.numberOfTrailingZeros(hits) >>> 3;
    }

    /** The index (0 to 7) of the last (highest) flagged byte of a nonzero test result. */
    public static int lastByte(long hits) {
        return (63 - Long.numberOfLeadingZeros(hits)) >>> 3;
    }
}
