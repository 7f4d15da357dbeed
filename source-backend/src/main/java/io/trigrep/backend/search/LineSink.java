package io.trigrep.backend.search;

/** Receives the matching lines of one file, in order. */
interface LineSink {
    /**
     * One matching line: {@code [lineStart, lineEnd)} in the content (without its newline),
     * its 1-based number, and {@code rangeCount} matches as absolute {@code [start, end)} pairs in
     * {@code ranges}. Returns false to stop searching this file.
     */
    boolean line(int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount);

    /**
     * The end (its newline, or the content's length) of line {@code number} of the file being
     * searched, when the sink already found that line's bounds (as context after a match), else
     * -1: a matcher need not count that line's newline again.
     */
    default int knownEnd(int number) {
        return -1;
    }
}
