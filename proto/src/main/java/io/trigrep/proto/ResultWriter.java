package io.trigrep.proto;

import io.netty.buffer.ByteBuf;

/**
 * Writes framed {@code Response{result}} messages straight into a {@link ByteBuf}, without a
 * MessageBuilder and without allocating: the backend's hot path, once per matching line. The
 * output is the single-segment encoding the reference implementation produces for the same
 * values (ResultWriterTest compares it byte for byte with {@code capnp encode}).
 *
 * <p>Use: {@link #start}, then the lines in order ({@link #before}, {@link #match}, {@link #after}),
 * {@link #range} for each match on the line, then {@link #writeTo}. Lines are spans (absolute
 * indices) of one source buffer, normally the file's contents wrapped once per file; the writer
 * copies them and keeps no reference after {@code writeTo}. One instance per thread.
 */
public final class ResultWriter {
    private static final long ROOT = structPointer(0, 1, 1);
    private static final long RESULT = structPointer(0, 1, 6);
    private static final int RESULT_POINTERS = 6;
    /** Words before the first blob: root pointer, Response data and pointer, Result data and pointers. */
    private static final int FIXED_WORDS = 4 + RESULT_POINTERS;

    private final int maxContext;
    private final int[] beforeOffsets;
    private final int[] beforeLengths;
    private final int[] afterOffsets;
    private final int[] afterLengths;
    private int[] ranges = new int[16];

    private byte[] pkg;
    private byte[] path;
    private ByteBuf source;
    private int line;
    private float ranking;
    private int matchOffset = -1;
    private int matchLength;
    private int beforeCount;
    private int afterCount;
    private int rangeCount;

    /** @param maxContext most context lines on each side of a match */
    public ResultWriter(int maxContext) {
        if (maxContext < 0) {
            throw new IllegalArgumentException("maxContext must be >= 0, got " + maxContext);
        }
        this.maxContext = maxContext;
        beforeOffsets = new int[maxContext];
        beforeLengths = new int[maxContext];
        afterOffsets = new int[maxContext];
        afterLengths = new int[maxContext];
    }

    /** Begins a result. {@code pkg} and {@code path} are UTF-8 and typically encoded once per file. */
    public ResultWriter start(byte[] pkg, byte[] path, ByteBuf source, int line, float ranking) {
        this.pkg = pkg;
        this.path = path;
        this.source = source;
        this.line = line;
        this.ranking = ranking;
        matchOffset = -1;
        matchLength = 0;
        beforeCount = 0;
        afterCount = 0;
        rangeCount = 0;
        return this;
    }

    public ResultWriter before(int offset, int length) {
        if (beforeCount == maxContext) {
            throw new IllegalStateException("more than " + maxContext + " lines before the match");
        }
        beforeOffsets[beforeCount] = offset;
        beforeLengths[beforeCount++] = length;
        return this;
    }

    public ResultWriter match(int offset, int length) {
        matchOffset = offset;
        matchLength = length;
        return this;
    }

    public ResultWriter after(int offset, int length) {
        if (afterCount == maxContext) {
            throw new IllegalStateException("more than " + maxContext + " lines after the match");
        }
        afterOffsets[afterCount] = offset;
        afterLengths[afterCount++] = length;
        return this;
    }

    /** One match on the line, as byte offsets into the matching line. */
    public ResultWriter range(int start, int end) {
        if (2 * rangeCount == ranges.length) {
            ranges = java.util.Arrays.copyOf(ranges, ranges.length * 2);
        }
        ranges[2 * rangeCount] = start;
        ranges[2 * rangeCount + 1] = end;
        rangeCount++;
        return this;
    }

    /** Frame size in bytes of the result as it stands. */
    public int frameBytes() {
        return 8 + 8 * words();
    }

    private int words() {
        int words = FIXED_WORDS + textWords(pkg.length) + textWords(path.length) + textWords(matchLength)
                + beforeCount + afterCount + 1 + rangeCount;
        for (int i = 0; i < beforeCount; i++) {
            words += textWords(beforeLengths[i]);
        }
        for (int i = 0; i < afterCount; i++) {
            words += textWords(afterLengths[i]);
        }
        return words;
    }

    /** Appends the framed message to {@code out}. */
    public void writeTo(ByteBuf out) {
        if (matchOffset < 0) {
            throw new IllegalStateException("match(offset, length) was not called for this result");
        }
        int words = words();
        out.ensureWritable(8 + 8 * words);
        out.writeIntLE(0);
        out.writeIntLE(words);
        out.writeLongLE(ROOT);
        out.writeLongLE(0);
        out.writeLongLE(RESULT);
        out.writeLongLE(Integer.toUnsignedLong(line) | (long) Float.floatToRawIntBits(ranking) << 32);

        // The six pointers, each aimed at where its object will land in write order.
        int next = FIXED_WORDS;
        int pointer = 4;
        next = pointTo(out, pointer++, next, textPointer(pkg.length), textWords(pkg.length));
        next = pointTo(out, pointer++, next, textPointer(path.length), textWords(path.length));
        next = pointTo(out, pointer++, next, listOfPointers(beforeCount), beforeCount + linesWords(beforeLengths, beforeCount));
        next = pointTo(out, pointer++, next, textPointer(matchLength), textWords(matchLength));
        next = pointTo(out, pointer++, next, listOfPointers(afterCount), afterCount + linesWords(afterLengths, afterCount));
        pointTo(out, pointer, next, 1L | 7L << 32 | (long) rangeCount << 35, 1 + rangeCount);

        text(out, pkg, 0, pkg.length);
        text(out, path, 0, path.length);
        lines(out, beforeOffsets, beforeLengths, beforeCount);
        text(out, source, matchOffset, matchLength);
        lines(out, afterOffsets, afterLengths, afterCount);
        // Inline-composite list: a tag word (element count, element size), then one word per range.
        out.writeLongLE((long) rangeCount << 2 | 1L << 32);
        for (int i = 0; i < rangeCount; i++) {
            out.writeLongLE(Integer.toUnsignedLong(ranges[2 * i]) | (long) ranges[2 * i + 1] << 32);
        }
        source = null;
    }

    /** Writes the pointer at word {@code at} to an object at word {@code target}; returns the word after the object. */
    private static int pointTo(ByteBuf out, int at, int target, long pointerWithoutOffset, int objectWords) {
        long offset = target - (at + 1);
        out.writeLongLE(pointerWithoutOffset | (offset << 2 & 0xffffffffL));
        return target + objectWords;
    }

    private void lines(ByteBuf out, int[] offsets, int[] lengths, int count) {
        // The list's pointers first, then the texts they point at, in order.
        int at = 0;
        int target = count;
        for (int i = 0; i < count; i++) {
            long offset = target - (at + 1);
            out.writeLongLE(textPointer(lengths[i]) | (offset << 2 & 0xffffffffL));
            target += textWords(lengths[i]);
            at++;
        }
        for (int i = 0; i < count; i++) {
            text(out, source, offsets[i], lengths[i]);
        }
    }

    private static int linesWords(int[] lengths, int count) {
        int words = 0;
        for (int i = 0; i < count; i++) {
            words += textWords(lengths[i]);
        }
        return words;
    }

    private static void text(ByteBuf out, byte[] bytes, int offset, int length) {
        out.writeBytes(bytes, offset, length);
        out.writeZero(textWords(length) * 8 - length);
    }

    private static void text(ByteBuf out, ByteBuf source, int offset, int length) {
        out.writeBytes(source, offset, length);
        out.writeZero(textWords(length) * 8 - length);
    }

    /** Words a text of {@code length} bytes takes: the bytes, the NUL, padding to a word. */
    private static int textWords(int length) {
        return (length + 8) >>> 3;
    }

    private static long textPointer(int length) {
        return 1L | 2L << 32 | (long) (length + 1) << 35;
    }

    private static long listOfPointers(int count) {
        return 1L | 6L << 32 | (long) count << 35;
    }

    private static long structPointer(int offset, int dataWords, int pointers) {
        return ((long) offset << 2 & 0xffffffffL) | (long) dataWords << 32 | (long) pointers << 48;
    }
}
