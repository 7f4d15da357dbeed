package io.trigrep.backend.query;

import java.util.List;

/**
 * A query split into its search pattern and its filters, as Debian Code Search reads it.
 *
 * @param raw             the query as typed
 * @param pattern         what to search for, with the filters removed
 * @param patternOffset   where {@code pattern} starts in {@code raw} (0-based), to place errors
 * @param literal         the pattern is a literal string, not a regex
 * @param caseInsensitive {@code case:no} or {@code (?i)}
 * @param filters         all must hold
 */
public record ParsedQuery(String raw, String pattern, int patternOffset, boolean literal, boolean caseInsensitive,
                          List<Filter> filters) {
    public enum Kind { PACKAGE, PATH, FILETYPE }

    /** One filter term: {@code package:REGEX}, {@code -path:REGEX}, {@code filetype:LANG}, … */
    public record Filter(Kind kind, boolean negated, String value) {}

    public ParsedQuery {
        filters = List.copyOf(filters);
    }
}
