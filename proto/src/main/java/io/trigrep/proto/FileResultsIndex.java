package io.trigrep.proto;

import java.nio.ByteBuffer;
import org.capnproto.Data;
import org.capnproto.StructList;

/**
 * A {@link FileResults} message read for showing its matches one by one: each line's text, number
 * and cut, and where each match's ranges begin. Built once per message (a pass over its lines), so
 * a page that shows several matches of one message reads its lines once. Claims that contradict the
 * message are clamped, never trusted: a line or match index past the end reads as an empty line
 * numbered 0, a run or range count past what the message holds stops at its end, a cut shorter than
 * the shown text is as long as the text. A hostile backend cannot make a page throw or read outside
 * the message.
 */
public final class FileResultsIndex {
    private final FileResults.Reader file;
    /**
     * Read once: a page shows many matches of one message through this index, and every read of a
     * text is charged to the message's one read budget (about 8 bytes read per byte of message).
     */
    private final String pkg;

    private final String path;
    private final ByteBuffer lines;
    private final int linesStart;
    /** Per line: the offset after its text (where its '\n' is), relative to {@link #linesStart}. */
    private final int[] ends;

    private final long[] numbers;
    private final long[] starts;
    private final long[] fulls;
    private final StructList.Reader<LineMatch.Reader> matches;
    /** Per match, the index of its first range, clamped to the ranges there are; one more entry at the end. */
    private final int[] firstRanges;

    private final StructList.Reader<Range.Reader> ranges;

    public FileResultsIndex(FileResults.Reader file) {
        this.file = file;
        pkg = file.getPackage().toString();
        path = file.getPath().toString();
        Data.Reader data = file.getLines();
        lines = data.asByteBuffer();
        linesStart = lines.position();
        int size = lines.remaining();
        int count = 0;
        for (int i = 0; i < size; i++) {
            count += lines.get(linesStart + i) == '\n' ? 1 : 0;
        }
        // Text after the last '\n' (a writer that left it out) is a line too.
        boolean tail = size > 0 && lines.get(linesStart + size - 1) != '\n';
        ends = new int[count + (tail ? 1 : 0)];
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (lines.get(linesStart + i) == '\n') {
                ends[n++] = i;
            }
        }
        if (tail) {
            ends[n] = size;
        }
        numbers = new long[ends.length];
        StructList.Reader<LineRun.Reader> runs = file.getRuns();
        int at = 0;
        for (int r = 0; r < runs.size() && at < ends.length; r++) {
            LineRun.Reader run = runs.get(r);
            long first = Integer.toUnsignedLong(run.getFirst());
            long k = Integer.toUnsignedLong(run.getCount());
            for (long j = 0; j < k && at < ends.length; j++) {
                numbers[at++] = first + j;
            }
        }
        starts = new long[ends.length];
        fulls = new long[ends.length];
        StructList.Reader<LineWindow.Reader> windows = file.getWindows();
        for (int w = 0; w < windows.size(); w++) {
            LineWindow.Reader window = windows.get(w);
            long line = Integer.toUnsignedLong(window.getLine());
            if (line < ends.length) {
                starts[(int) line] = Integer.toUnsignedLong(window.getStart());
                fulls[(int) line] = Integer.toUnsignedLong(window.getBytes());
            }
        }
        matches = file.getMatches();
        ranges = file.getRanges();
        firstRanges = new int[matches.size() + 1];
        long next = 0;
        for (int m = 0; m < matches.size(); m++) {
            firstRanges[m] = (int) Math.min(next, ranges.size());
            next += Integer.toUnsignedLong(matches.get(m).getRanges());
        }
        firstRanges[matches.size()] = (int) Math.min(next, ranges.size());
    }

    public FileResults.Reader file() {
        return file;
    }

    public String pkg() {
        return pkg;
    }

    public String path() {
        return path;
    }

    /** Lines in the message. */
    public int lines() {
        return ends.length;
    }

    /** Line {@code i}'s shown bytes; empty when there is no such line. */
    public byte[] text(int i) {
        if (i < 0 || i >= ends.length) {
            return new byte[0];
        }
        byte[] out = new byte[shownBytes(i)];
        lines.get(linesStart + ends[i] - out.length, out);
        return out;
    }

    /** Line {@code i}'s 1-based number; 0 when the message's runs do not say. */
    public long number(int i) {
        return i < 0 || i >= ends.length ? 0 : numbers[i];
    }

    /** Where line {@code i}'s shown text begins in the full line; 0 unless it was cut there. */
    public long start(int i) {
        return i < 0 || i >= ends.length ? 0 : starts[i];
    }

    /** How many bytes of line {@code i} the message shows; 0 when there is no such line. */
    public int shownBytes(int i) {
        return i < 0 || i >= ends.length ? 0 : ends[i] - (i == 0 ? 0 : ends[i - 1] + 1);
    }

    /** The full length of line {@code i}: at least where its shown text ends. */
    public long full(int i) {
        return i < 0 || i >= ends.length ? 0 : Math.max(fulls[i], starts[i] + shownBytes(i));
    }

    /** Matches in the message; {@link #match} of an index past them is refused. */
    public int matches() {
        return matches.size();
    }

    public LineMatch.Reader match(int m) {
        if (m < 0 || m >= matches.size()) {
            throw new IndexOutOfBoundsException("match " + m + " of a message with " + matches.size());
        }
        return matches.get(m);
    }

    /** Match {@code m}'s ranges: {@code [firstRange(m), firstRange(m + 1))} of {@link #range}. */
    public int firstRange(int m) {
        return firstRanges[Math.max(0, Math.min(m, firstRanges.length - 1))];
    }

    public Range.Reader range(int i) {
        return ranges.get(i);
    }
}
