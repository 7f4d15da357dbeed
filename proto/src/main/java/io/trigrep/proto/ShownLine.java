package io.trigrep.proto;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Where a result cuts a long line (see package-info, "Long lines"), for both result writers. A
 * context line is cut to its prefix ({@link #prefix}). A matching line is cut to a window of at
 * most {@code maxLineBytes} that starts {@code maxLineBytes / 4} bytes before its first match, so
 * the match is in sight; its matches ({@link #range}) are clipped to the window and shifted into it,
 * those outside dropped. Cuts fall on UTF-8 boundaries. Reused line after line: no allocation once
 * the range array has grown to the most matches a line had.
 */
final class ShownLine {
    private final int maxLineBytes;
    private final int lead;
    private ByteBuf source;
    private int offset;
    private int full;
    private boolean windowSet;
    private int windowStart;
    private int windowEnd;
    private boolean pastWindow;
    private int[] ranges = new int[16];
    private int rangeCount;

    ShownLine(int maxLineBytes) {
        if (maxLineBytes < 8) {
            throw new IllegalArgumentException("maxLineBytes must be >= 8, got " + maxLineBytes);
        }
        this.maxLineBytes = maxLineBytes;
        this.lead = maxLineBytes / 4;
    }

    /** Begins a matching line: {@code full} bytes at {@code offset} of {@code source}, no match yet. */
    void start(ByteBuf source, int offset, int full) {
        this.source = source;
        this.offset = offset;
        this.full = full;
        windowSet = false;
        pastWindow = false;
        rangeCount = 0;
    }

    /** Forgets the source, which the caller may release. */
    void clear() {
        source = null;
    }

    /** Whether a line is being shown (since {@link #start}). */
    boolean started() {
        return source != null;
    }

    /** Where the line starts in the source. */
    int offset() {
        return offset;
    }

    /** The full line's length. */
    int full() {
        return full;
    }

    /**
     * One match on the line, as byte offsets into the whole line; matches come left to right. On a
     * cut line the range is clipped to the window (dropped when outside it). Once a range starts past
     * the window's end, {@link #pastWindow} says so: no later one can be shown.
     */
    void range(int start, int end) {
        if (!windowSet) {
            window(start);
        }
        if (full > maxLineBytes) {
            if (windowEnd < full ? start >= windowEnd : start > windowEnd) {
                pastWindow = true; // at or past the cut (an empty match at the line's very end is still shown)
                return;
            }
            int clippedStart = Math.max(start, windowStart);
            int clippedEnd = Math.min(end, windowEnd);
            if (clippedEnd < clippedStart || (clippedEnd == clippedStart && end > start)) {
                return; // entirely before the window
            }
            start = clippedStart - windowStart;
            end = clippedEnd - windowStart;
        }
        if (2 * rangeCount == ranges.length) {
            ranges = Arrays.copyOf(ranges, ranges.length * 2);
        }
        ranges[2 * rangeCount] = start;
        ranges[2 * rangeCount + 1] = end;
        rangeCount++;
    }

    boolean pastWindow() {
        return pastWindow;
    }

    /** Where the shown window starts in the full line. */
    int windowStart() {
        if (!windowSet) {
            window(0);
        }
        return windowStart;
    }

    /** The shown window's length. */
    int shown() {
        if (!windowSet) {
            window(0);
        }
        return windowEnd - windowStart;
    }

    int rangeCount() {
        return rangeCount;
    }

    /** The ranges as pairs of byte offsets into the shown window, {@link #rangeCount} of them; not to be changed. */
    int[] ranges() {
        return ranges;
    }

    /** Places the window: whole when short, else around {@code firstMatch} on UTF-8 boundaries. */
    private void window(int firstMatch) {
        windowSet = true;
        if (full <= maxLineBytes) {
            windowStart = 0;
            windowEnd = full;
            return;
        }
        int at = Math.max(0, Math.min(firstMatch - lead, full - maxLineBytes));
        for (int k = 0; k < 3 && inside(source, offset, full, at); k++) {
            at++;
        }
        windowStart = at;
        windowEnd = end(source, offset, full, at + maxLineBytes);
    }

    /** The shown length of a context line: whole, or its longest prefix of at most maxLineBytes that ends on a UTF-8 boundary. */
    int prefix(ByteBuf source, int offset, int length) {
        return length <= maxLineBytes ? length : end(source, offset, length, maxLineBytes);
    }

    /** A window's end at most {@code at} on a line of {@code full} bytes, moved back (at most 3 bytes) out of a UTF-8 sequence. */
    private static int end(ByteBuf source, int lineStart, int full, int at) {
        if (at >= full) {
            return full;
        }
        for (int k = 0; k < 3 && inside(source, lineStart, full, at); k++) {
            at--;
        }
        return at;
    }

    /**
     * Whether a cut before byte {@code at} of the line would split a well-formed UTF-8 sequence (a
     * lead byte within the 3 bytes before, followed by all its continuation bytes). Stray bytes of
     * text in other encodings are not sequences: a cut may fall next to any of them.
     */
    private static boolean inside(ByteBuf source, int lineStart, int full, int at) {
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
}
