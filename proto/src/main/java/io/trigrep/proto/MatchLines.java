package io.trigrep.proto;

/**
 * What both result writers take of a matching line: its context lines before it (oldest first),
 * the line, the lines after it, then each match on the line. Lines are spans of the file's buffer;
 * ranges are byte offsets into the whole line, left to right.
 */
public interface MatchLines {
    MatchLines before(int offset, int length);

    MatchLines match(int offset, int length);

    MatchLines after(int offset, int length);

    MatchLines range(int start, int end);

    /** True once a range was offered that starts past the cut window: later ones cannot be shown either. */
    boolean pastWindow();
}
