package io.trigrep.backend.search;

import io.trigrep.indexer.bytes.Swar;
import io.trigrep.proto.File;
import io.trigrep.proto.LineCut;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.capnproto.Data;
import org.capnproto.StructList;

/**
 * Answers a fetchFile: a window of a file's lines (each cut to a bound), or a byte range, read
 * straight from the mapped content. Line starts are found by scanning for newlines eight bytes at
 * a time; nothing is held but the answer itself, whose size the caller bounds. Lines end at
 * {@code \n}; a {@code \r} before it is part of the line.
 */
public final class FileWindow {
    /** A window answer larger than this is refused: it would not fit a frame with room to spare. */
    public static final int MAX_ANSWER_BYTES = 32 << 20;

    private FileWindow() {}

    /** Thrown when the answer asked for would exceed {@link #MAX_ANSWER_BYTES}. */
    public static final class TooLarge extends Exception {
        TooLarge(String message) {
            super(message);
        }
    }

    /**
     * Fills {@code file} (package and path already set) with lines {@code [firstLine, firstLine +
     * maxLines)} of {@code content} (position to limit), each cut to {@code maxLineBytes}; 0 means
     * line 1, every line, no cut. Arguments are unsigned, as on the wire.
     */
    public static void lines(ByteBuffer content, int firstLine, int maxLines, int maxLineBytes, File.Builder file)
            throws TooLarge {
        ByteBuffer le = content.slice().order(ByteOrder.LITTLE_ENDIAN);
        int n = le.remaining();
        long first = Math.max(1, Integer.toUnsignedLong(firstLine));
        long most = maxLines == 0 ? Long.MAX_VALUE : Integer.toUnsignedLong(maxLines);
        long cutAt = maxLineBytes == 0 ? Long.MAX_VALUE : Integer.toUnsignedLong(maxLineBytes);
        int pos = 0;
        for (long line = 1; line < first && pos < n; line++) {
            int newline = nextNewline(le, pos, n);
            pos = newline < 0 ? n : newline + 1;
        }
        // First pass: the window's size and how many of its lines are cut.
        int start = pos;
        long bytes = 0;
        int cuts = 0;
        long count = 0;
        for (int at = start; at < n && count < most; count++) {
            int newline = nextNewline(le, at, n);
            int end = newline < 0 ? n : newline;
            int shown = shown(le, at, end, cutAt);
            cuts += shown < end - at ? 1 : 0;
            bytes += shown + (newline < 0 ? 0 : 1);
            if (bytes > MAX_ANSWER_BYTES) {
                throw new TooLarge("the answer would exceed " + MAX_ANSWER_BYTES
                        + " bytes: ask for fewer lines (maxLines), cut them" + " (maxLineBytes), or fetch byte ranges");
            }
            at = newline < 0 ? n : newline + 1;
        }
        // Second pass: copy.
        Data.Builder out = file.initContent((int) bytes);
        StructList.Builder<LineCut.Builder> cutList = cuts == 0 ? null : file.initCuts(cuts);
        int written = 0;
        int cut = 0;
        int at = start;
        for (long i = 0; i < count; i++) {
            int newline = nextNewline(le, at, n);
            int end = newline < 0 ? n : newline;
            int shown = shown(le, at, end, cutAt);
            out.buffer.put(out.offset + written, le, at, shown);
            written += shown;
            if (newline >= 0) {
                out.buffer.put(out.offset + written++, (byte) '\n');
            }
            if (shown < end - at) {
                cutList.get(cut++).setLine((int) (first + i)).setBytes(end - at);
            }
            at = newline < 0 ? n : newline + 1;
        }
        file.setFirstLine((int) first).setTotalLines(countLines(le, n)).setTotalBytes(n);
    }

    /** Fills {@code file} with the bytes {@code [offset, offset + count)} of {@code content}, clamped to it. */
    public static void bytes(ByteBuffer content, long offset, int count, File.Builder file) throws TooLarge {
        int n = content.remaining();
        long length = Integer.toUnsignedLong(count);
        if (length > MAX_ANSWER_BYTES) {
            throw new TooLarge("byteCount " + length + " exceeds " + MAX_ANSWER_BYTES + ": fetch smaller ranges");
        }
        int from = (int) Math.min(n, Math.max(0, offset));
        int to = (int) Math.min(n, from + length);
        Data.Builder out = file.initContent(to - from);
        out.buffer.put(out.offset, content, content.position() + from, to - from);
        file.setTotalBytes(n);
    }

    /** The bytes of {@code [at, end)} shown: all, or a prefix of at most {@code cutAt} that does not split a UTF-8 sequence. */
    static int shown(ByteBuffer le, int at, int end, long cutAt) {
        int length = end - at;
        if (length <= cutAt) {
            return length;
        }
        int cut = (int) cutAt;
        for (int k = 0; k < 3 && inside(le, at, end, at + cut); k++) {
            cut--;
        }
        return cut;
    }

    /** Whether a cut before {@code p} splits a well-formed sequence of the line {@code [lineStart, lineEnd)}. */
    private static boolean inside(ByteBuffer le, int lineStart, int lineEnd, int p) {
        if (p <= lineStart || p >= lineEnd || (le.get(p) & 0xc0) != 0x80) {
            return false;
        }
        for (int back = 1; back <= 3 && p - back >= lineStart; back++) {
            int b = le.get(p - back) & 0xff;
            if ((b & 0xc0) == 0x80) {
                continue;
            }
            int need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xc2 && b <= 0xdf ? 1 : 0;
            if (need < back || p - back + need >= lineEnd) {
                return false;
            }
            for (int k = 1; k <= need; k++) {
                if ((le.get(p - back + k) & 0xc0) != 0x80) {
                    return false;
                }
            }
            return true;
        }
        return false;
    }

    /** The first newline in {@code [from, to)}, eight bytes at a time, or -1. */
    static int nextNewline(ByteBuffer le, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long newlines = Swar.newlines(le.getLong(i));
            if (newlines != 0) {
                return i + Swar.firstByte(newlines);
            }
        }
        for (; i < to; i++) {
            if (le.get(i) == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** Lines in the file: its newlines, plus a last line without one. */
    static int countLines(ByteBuffer le, int n) {
        int lines = 0;
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            lines += Long.bitCount(Swar.newlines(le.getLong(i)));
        }
        for (; i < n; i++) {
            lines += le.get(i) == '\n' ? 1 : 0;
        }
        return n > 0 && le.get(n - 1) != '\n' ? lines + 1 : lines;
    }
}
