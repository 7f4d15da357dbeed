package io.trigrep.backend.search;

/** Receives the matching lines of one file, in order. */
interface LineSink {
    /**
     * One matching line: {@code [lineStart, lineEnd)} in the content (without its newline),
     * its 1-based number, and {@code rangeCount} matches as absolute {@code [start, end)} pairs in
     * {@code ranges}. Returns false to stop searching this file.
     */
    boolean line(int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount);
}
