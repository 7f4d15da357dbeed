package io.trigrep.backend.search;

import io.trigrep.query.CompiledQuery;

/**
 * A compiled query and the limits this backend runs it under: at most {@code maxResults} results,
 * until {@code deadlineNanos} after it starts, {@code contextLines} lines of context per side.
 * {@code fileResults}: the matching lines go out grouped by file ({@code FileResults}, each shown
 * line once) instead of one {@code Result} per line, as a frontend that reads them asks.
 */
public record SearchSpec(
        CompiledQuery compiled, int maxResults, long deadlineNanos, int contextLines, boolean fileResults) {
    public static final int MAX_CONTEXT_LINES = 10;

    public SearchSpec {
        if (maxResults < 1) {
            throw new IllegalArgumentException("maxResults must be > 0, got " + maxResults);
        }
        if (contextLines < 0 || contextLines > MAX_CONTEXT_LINES) {
            throw new IllegalArgumentException(
                    "contextLines must be in [0, " + MAX_CONTEXT_LINES + "], got " + contextLines);
        }
    }

    /** Results one per line. */
    public SearchSpec(CompiledQuery compiled, int maxResults, long deadlineNanos, int contextLines) {
        this(compiled, maxResults, deadlineNanos, contextLines, false);
    }
}
