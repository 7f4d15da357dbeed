package io.trigrep.backend.search;

import io.trigrep.proto.MatchLines;

/**
 * The bounds of a run of consecutive lines of the file being searched, as its matches' lines and
 * context lines found them: a line that is context to two nearby matches, or one match's line and
 * another's context, is then found by one scan for its newline instead of two or three. Holds the
 * last {@link #SIZE} lines of the run; a line that does not extend it starts a new one. One per
 * worker; not thread-safe.
 */
final class KnownLines {
    /** Lines held: a match's line and its context on both sides fit, and more. A power of two. */
    static final int SIZE = Integer.highestOneBit(2 * SearchSpec.MAX_CONTEXT_LINES + 1) << 1;

    private final int[] starts = new int[SIZE];
    private final int[] ends = new int[SIZE];
    /** The run's first and last line numbers; none known while {@code last < first}. */
    private int first;

    private int last = -1;

    /** Forgets every line: the next file's lines are not this one's. */
    void clear() {
        first = 0;
        last = -1;
    }

    /** Whether line {@code number}'s bounds are known. */
    boolean has(int number) {
        return number >= first && number <= last;
    }

    /** The end of line {@code number} when it is known, else -1: what a sink answers {@link LineSink#knownEnd} with. */
    int knownEnd(int number) {
        return has(number) ? end(number) : -1;
    }

    /** The first byte of known line {@code number}. */
    int start(int number) {
        return starts[number & (SIZE - 1)];
    }

    /** The newline that ends known line {@code number} (or the file's length). */
    int end(int number) {
        return ends[number & (SIZE - 1)];
    }

    /**
     * Gives {@code w} up to {@code contextLines} lines before matching line {@code number}
     * ({@code [lineStart, lineEnd)} of {@code content[0, length)}), oldest first, the line, and up
     * to {@code contextLines} after it, each made known. Nearby matches share context lines: a
     * line's bounds found for one are taken from here for the next (on Linux {@code struct},
     * scanning for the context lines' newlines was a tenth of a backend's CPU), and the scan for
     * the next match steps over the lines after this one ({@link LineSink#knownEnd}).
     */
    void around(byte[] content, int length, int lineStart, int lineEnd, int number, int contextLines, MatchLines w) {
        put(number, lineStart, lineEnd);
        int found = 0;
        for (int cursor = lineStart; found < contextLines && cursor > 0; found++) {
            findBefore(content, number - 1 - found, cursor);
            cursor = start(number - 1 - found);
        }
        // Found backwards, each extending the run down from the match's line: all still known.
        for (int n = number - found; n < number; n++) {
            w.before(start(n), end(n) - start(n));
        }
        w.match(lineStart, lineEnd - lineStart);
        for (int i = 0, cursor = lineEnd; i < contextLines && cursor + 1 < length; i++) {
            int n = number + 1 + i;
            findAfter(content, length, n, cursor);
            w.after(start(n), end(n) - start(n));
            cursor = end(n);
        }
    }

    /** Makes line {@code number} known: it ends just before {@code nextStart}, where the line after it starts. */
    void findBefore(byte[] content, int number, int nextStart) {
        if (!has(number)) {
            int end = nextStart - 1;
            put(number, LineMatcher.lineStart(content, end), end);
        }
    }

    /** Makes line {@code number} known: it starts after {@code previousEnd}, the newline that ends the line before it. */
    void findAfter(byte[] content, int length, int number, int previousEnd) {
        if (!has(number)) {
            int start = previousEnd + 1;
            put(number, start, LineMatcher.lineEnd(content, length, start));
        }
    }

    /** Line {@code number} spans {@code [start, end)}, {@code end} its newline or the file's length. */
    void put(int number, int start, int end) {
        if (last < first || number > last + 1 || number < first - 1) {
            first = number;
            last = number;
        } else if (number == last + 1) {
            last = number;
            first = Math.max(first, last - SIZE + 1);
        } else if (number == first - 1) {
            first = number;
            last = Math.min(last, first + SIZE - 1);
        }
        starts[number & (SIZE - 1)] = start;
        ends[number & (SIZE - 1)] = end;
    }
}
