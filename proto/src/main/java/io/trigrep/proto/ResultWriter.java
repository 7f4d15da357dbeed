package io.trigrep.proto;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Writes framed {@code Response{result}} messages straight into a {@link ByteBuf}, without a
 * MessageBuilder and without allocating: the backend's hot path, once per matching line. The
 * output is the single-segment encoding the reference implementation produces for the same
 * values (ResultWriterTest compares it byte for byte with {@code capnp encode}).
 *
 * <p>Use: {@link #start}, then the lines in order ({@link #before}, {@link #match}, {@link #after}),
 * {@link #range} for each match on the line, in order, then {@link #writeTo}. Lines are spans
 * (absolute indices) of one source buffer, normally the file's contents wrapped once per file; the
 * writer copies them and keeps no reference after {@code writeTo}. One instance per thread.
 *
 * <p>A line longer than {@code maxLineBytes} is cut to a window of at most that many bytes (see
 * package-info, "Long lines"): a context line to its prefix; the matching line to a window that
 * starts {@code maxLineBytes / 4} bytes before the first match, so the match is in sight. Ranges
 * are clipped to the window and shifted into it; those outside are dropped, and {@link #range}
 * says when no later one can fall inside, so a line with a million matches costs a few hundred.
 */
public final class ResultWriter {
    /** The default window: a few hundred bytes of a line is what a result page can show. */
    public static final int MAX_LINE_BYTES = 400;

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ROOT = structPointer(0, 1, 1);
    private static final long RESULT = structPointer(0, 2, 9);
    private static final int RESULT_POINTERS = 9;
    private static final int SYMBOL_POINTERS = 4;
    /** Words before the first blob: root pointer, Response data and pointer, Result data (2) and pointers. */
    private static final int FIXED_WORDS = 5 + RESULT_POINTERS;

    private final int maxContext;
    private final int maxLineBytes;
    private final int lead;
    private final int[] beforeOffsets;
    private final int[] beforeLengths;
    private final int[] beforeFull;
    private final int[] afterOffsets;
    private final int[] afterLengths;
    private final int[] afterFull;
    private int[] ranges = new int[16];

    private byte[] pkg;
    private byte[] path;
    private ByteBuf source;
    private int line;
    private float ranking;
    private int matchOffset = -1;
    private int matchFull;
    /** The shown window of the matching line, relative to its start; set by the first range or by writeTo. */
    private int windowStart;

    private int windowEnd;
    private boolean windowSet;
    private boolean pastWindow;
    private int beforeCount;
    private int afterCount;
    private boolean beforeCut;
    private boolean afterCut;
    private int rangeCount;
    /** A sym: query's result: the definition's name, kind, scope and language (UTF-8), when {@link #hasSymbol}. */
    private final byte[][] symbol = new byte[SYMBOL_POINTERS][];

    private boolean hasSymbol;
    /** The frame being encoded, reused (it grows to the largest frame written) and its write position. */
    private byte[] frame = new byte[1024];

    private int at;

    /** @param maxContext most context lines on each side of a match; lines are cut at {@link #MAX_LINE_BYTES} */
    public ResultWriter(int maxContext) {
        this(maxContext, MAX_LINE_BYTES);
    }

    /**
     * @param maxContext most context lines on each side of a match
     * @param maxLineBytes longest line written whole; longer ones are cut to a window of at most this many bytes
     */
    public ResultWriter(int maxContext, int maxLineBytes) {
        if (maxContext < 0) {
            throw new IllegalArgumentException("maxContext must be >= 0, got " + maxContext);
        }
        if (maxLineBytes < 8) {
            throw new IllegalArgumentException("maxLineBytes must be >= 8, got " + maxLineBytes);
        }
        this.maxContext = maxContext;
        this.maxLineBytes = maxLineBytes;
        this.lead = maxLineBytes / 4;
        beforeOffsets = new int[maxContext];
        beforeLengths = new int[maxContext];
        beforeFull = new int[maxContext];
        afterOffsets = new int[maxContext];
        afterLengths = new int[maxContext];
        afterFull = new int[maxContext];
    }

    /** Begins a result. {@code pkg} and {@code path} are UTF-8 and typically encoded once per file. */
    public ResultWriter start(byte[] pkg, byte[] path, ByteBuf source, int line, float ranking) {
        this.pkg = pkg;
        this.path = path;
        this.source = source;
        this.line = line;
        this.ranking = ranking;
        matchOffset = -1;
        matchFull = 0;
        windowSet = false;
        pastWindow = false;
        beforeCount = 0;
        afterCount = 0;
        beforeCut = false;
        afterCut = false;
        rangeCount = 0;
        hasSymbol = false;
        return this;
    }

    /** Marks the result as a sym: query's, naming the definition on its line; the arrays are read by {@link #writeTo}. */
    public ResultWriter symbol(byte[] name, byte[] kind, byte[] scope, byte[] language) {
        symbol[0] = name;
        symbol[1] = kind;
        symbol[2] = scope;
        symbol[3] = language;
        hasSymbol = true;
        return this;
    }

    public ResultWriter before(int offset, int length) {
        if (beforeCount == maxContext) {
            throw new IllegalStateException("more than " + maxContext + " lines before the match");
        }
        int shown = prefix(offset, length);
        beforeCut |= shown < length;
        beforeOffsets[beforeCount] = offset;
        beforeLengths[beforeCount] = shown;
        beforeFull[beforeCount++] = length;
        return this;
    }

    public ResultWriter match(int offset, int length) {
        matchOffset = offset;
        matchFull = length;
        windowSet = false;
        return this;
    }

    public ResultWriter after(int offset, int length) {
        if (afterCount == maxContext) {
            throw new IllegalStateException("more than " + maxContext + " lines after the match");
        }
        int shown = prefix(offset, length);
        afterCut |= shown < length;
        afterOffsets[afterCount] = offset;
        afterLengths[afterCount] = shown;
        afterFull[afterCount++] = length;
        return this;
    }

    /**
     * One match on the line, as byte offsets into the whole matching line, after {@link #match};
     * matches come left to right. On a cut line the range is clipped to the window (dropped when
     * outside it). Once a range starts past the window's end, {@link #pastWindow} says so: no later
     * one can be shown, and the caller may stop.
     */
    public ResultWriter range(int start, int end) {
        if (!windowSet) {
            window(start);
        }
        if (matchFull > maxLineBytes) {
            if (windowEnd < matchFull ? start >= windowEnd : start > windowEnd) {
                pastWindow = true; // at or past the cut (an empty match at the line's very end is still shown)
                return this;
            }
            int clippedStart = Math.max(start, windowStart);
            int clippedEnd = Math.min(end, windowEnd);
            if (clippedEnd < clippedStart || (clippedEnd == clippedStart && end > start)) {
                return this; // entirely before the window
            }
            start = clippedStart - windowStart;
            end = clippedEnd - windowStart;
        }
        if (2 * rangeCount == ranges.length) {
            ranges = java.util.Arrays.copyOf(ranges, ranges.length * 2);
        }
        ranges[2 * rangeCount] = start;
        ranges[2 * rangeCount + 1] = end;
        rangeCount++;
        return this;
    }

    /** True once a range was offered that starts past the cut window: later ones cannot be shown either. */
    public boolean pastWindow() {
        return pastWindow;
    }

    /** Places the matching line's window: whole when short, else around {@code firstMatch} on UTF-8 boundaries. */
    private void window(int firstMatch) {
        windowSet = true;
        if (matchFull <= maxLineBytes) {
            windowStart = 0;
            windowEnd = matchFull;
            return;
        }
        int at = Math.max(0, Math.min(firstMatch - lead, matchFull - maxLineBytes));
        for (int k = 0; k < 3 && inside(matchOffset, matchFull, at); k++) {
            at++;
        }
        windowStart = at;
        windowEnd = end(matchOffset, matchFull, at + maxLineBytes);
    }

    /** The shown length of a context line: whole, or its longest prefix of at most maxLineBytes that ends on a UTF-8 boundary. */
    private int prefix(int offset, int length) {
        return length <= maxLineBytes ? length : end(offset, length, maxLineBytes);
    }

    /** A window's end at most {@code at} on a line of {@code full} bytes, moved back (at most 3 bytes) out of a UTF-8 sequence. */
    private int end(int lineStart, int full, int at) {
        if (at >= full) {
            return full;
        }
        for (int k = 0; k < 3 && inside(lineStart, full, at); k++) {
            at--;
        }
        return at;
    }

    /**
     * Whether a cut before byte {@code at} of the line would split a well-formed UTF-8 sequence (a
     * lead byte within the 3 bytes before, followed by all its continuation bytes). Stray bytes of
     * text in other encodings are not sequences: a cut may fall next to any of them.
     */
    private boolean inside(int lineStart, int full, int at) {
        if (at <= 0 || at >= full || (source.getByte(lineStart + at) & 0xc0) != 0x80) {
            return false;
        }
        for (int back = 1; back <= 3 && at - back >= 0; back++) {
            int b = source.getByte(lineStart + at - back) & 0xff;
            if ((b & 0xc0) == 0x80) {
                continue;
            }
            int need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xc2 && b <= 0xdf ? 1 : 0;
            if (need < back || at - back + need >= full) {
                return false;
            }
            for (int k = 1; k <= need; k++) {
                if ((source.getByte(lineStart + at - back + k) & 0xc0) != 0x80) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** Frame size in bytes of the result as it stands. */
    public int frameBytes() {
        return 8 + 8 * words();
    }

    private int words() {
        if (!windowSet) {
            window(0);
        }
        int words = FIXED_WORDS
                + textWords(pkg.length)
                + textWords(path.length)
                + textWords(windowEnd - windowStart)
                + beforeCount
                + afterCount
                + 1
                + rangeCount
                + intsWords(beforeCut, beforeCount)
                + intsWords(afterCut, afterCount);
        for (int i = 0; i < beforeCount; i++) {
            words += textWords(beforeLengths[i]);
        }
        for (int i = 0; i < afterCount; i++) {
            words += textWords(afterLengths[i]);
        }
        return words + symbolWords();
    }

    private int symbolWords() {
        if (!hasSymbol) {
            return 0;
        }
        int words = SYMBOL_POINTERS;
        for (byte[] text : symbol) {
            words += textWords(text.length);
        }
        return words;
    }

    /**
     * Appends the framed message to {@code out}: encoded into this writer's own array first, then
     * copied with one call. Writing its twenty-odd words and seven texts into the {@code ByteBuf}
     * one call each cost an index and capacity check per call through Netty's buffer classes.
     */
    public void writeTo(ByteBuf out) {
        if (matchOffset < 0) {
            throw new IllegalStateException("match(offset, length) was not called for this result");
        }
        int words = words();
        int size = 8 + 8 * words;
        if (frame.length < size) {
            frame = new byte[Math.max(size, 2 * frame.length)];
        }
        at = 0;
        putInt(0);
        putInt(words);
        putLong(ROOT);
        putLong(0);
        putLong(RESULT);
        putLong(Integer.toUnsignedLong(line) | (long) Float.floatToRawIntBits(ranking) << 32);
        putLong(Integer.toUnsignedLong(windowStart) | (long) matchFull << 32);

        // The nine pointers, each aimed at where its object will land in write order.
        int shown = windowEnd - windowStart;
        int next = FIXED_WORDS;
        int pointer = 5;
        next = pointTo(pointer++, next, textPointer(pkg.length), textWords(pkg.length));
        next = pointTo(pointer++, next, textPointer(path.length), textWords(path.length));
        next = pointTo(
                pointer++, next, listOfPointers(beforeCount), beforeCount + linesWords(beforeLengths, beforeCount));
        next = pointTo(pointer++, next, textPointer(shown), textWords(shown));
        next = pointTo(pointer++, next, listOfPointers(afterCount), afterCount + linesWords(afterLengths, afterCount));
        next = pointTo(pointer++, next, 1L | 7L << 32 | (long) rangeCount << 35, 1 + rangeCount);
        next = intsPointer(pointer++, next, beforeCut, beforeCount);
        next = intsPointer(pointer++, next, afterCut, afterCount);
        if (!hasSymbol) {
            putLong(0);
        } else {
            pointTo(pointer, next, structPointer(0, 0, SYMBOL_POINTERS), symbolWords());
        }

        text(pkg, 0, pkg.length);
        text(path, 0, path.length);
        lines(beforeOffsets, beforeLengths, beforeCount);
        text(source, matchOffset + windowStart, shown);
        lines(afterOffsets, afterLengths, afterCount);
        // Inline-composite list: a tag word (element count, element size), then one word per range.
        putLong((long) rangeCount << 2 | 1L << 32);
        for (int i = 0; i < rangeCount; i++) {
            putLong(Integer.toUnsignedLong(ranges[2 * i]) | (long) ranges[2 * i + 1] << 32);
        }
        if (beforeCut) {
            ints(beforeFull, beforeCount);
        }
        if (afterCut) {
            ints(afterFull, afterCount);
        }
        if (hasSymbol) {
            int target = SYMBOL_POINTERS;
            for (int i = 0; i < SYMBOL_POINTERS; i++) {
                putLong(textPointer(symbol[i].length) | ((long) (target - (i + 1)) << 2 & 0xffffffffL));
                target += textWords(symbol[i].length);
            }
            for (byte[] text : symbol) {
                text(text, 0, text.length);
            }
        }
        source = null;
        if (at != size) {
            throw new IllegalStateException("wrote " + at + " bytes of a " + size + "-byte frame");
        }
        out.writeBytes(frame, 0, size);
    }

    private void putLong(long value) {
        LONG.set(frame, at, value);
        at += Long.BYTES;
    }

    private void putInt(int value) {
        INT.set(frame, at, value);
        at += Integer.BYTES;
    }

    /** A List(UInt32) of the full line lengths when some line was cut, else a null pointer (an empty list). */
    private int intsPointer(int pointer, int target, boolean cut, int count) {
        if (!cut) {
            putLong(0);
            return target;
        }
        return pointTo(pointer, target, 1L | 4L << 32 | (long) count << 35, intsWords(true, count));
    }

    private static int intsWords(boolean cut, int count) {
        return cut ? (count + 1) >>> 1 : 0;
    }

    private void ints(int[] values, int count) {
        for (int i = 0; i < count; i++) {
            putInt(values[i]);
        }
        if ((count & 1) == 1) {
            putInt(0);
        }
    }

    /** Writes the pointer at word {@code pointer} to an object at word {@code target}; returns the word after the object. */
    private int pointTo(int pointer, int target, long pointerWithoutOffset, int objectWords) {
        long offset = target - (pointer + 1L);
        putLong(pointerWithoutOffset | (offset << 2 & 0xffffffffL));
        return target + objectWords;
    }

    private void lines(int[] offsets, int[] lengths, int count) {
        // The list's pointers first, then the texts they point at, in order.
        int target = count;
        for (int i = 0; i < count; i++) {
            long offset = target - (i + 1L);
            putLong(textPointer(lengths[i]) | (offset << 2 & 0xffffffffL));
            target += textWords(lengths[i]);
        }
        for (int i = 0; i < count; i++) {
            text(source, offsets[i], lengths[i]);
        }
    }

    private static int linesWords(int[] lengths, int count) {
        int words = 0;
        for (int i = 0; i < count; i++) {
            words += textWords(lengths[i]);
        }
        return words;
    }

    /**
     * Reserves a text's words, zeroing its last (the NUL and the padding; the array is reused),
     * and returns where its bytes go.
     */
    private int textAt(int length) {
        int words = textWords(length);
        int start = at;
        LONG.set(frame, start + 8 * (words - 1), 0L);
        at += 8 * words;
        return start;
    }

    private void text(byte[] bytes, int offset, int length) {
        System.arraycopy(bytes, offset, frame, textAt(length), length);
    }

    private void text(ByteBuf source, int offset, int length) {
        if (offset < 0 || length < 0 || offset > source.capacity() - length) {
            throw new IndexOutOfBoundsException(
                    "line at " + offset + ", " + length + " bytes, is outside the source's " + source.capacity());
        }
        int to = textAt(length);
        if (source.hasArray()) {
            // From the array itself: Netty 4.2's pooled buffers copy from another ByteBuf through
            // an NIO view of it, two objects per call, five calls per result: 90 % of a backend's
            // allocations while it streamed two million results, and its young collections with them.
            System.arraycopy(source.array(), source.arrayOffset() + offset, frame, to, length);
        } else {
            source.getBytes(offset, frame, to, length);
        }
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
