package io.trigrep.backend.query;

import java.util.List;

/**
 * A query split into its search pattern and its filters, as Debian Code Search reads it, plus the
 * three forms it does not have: a boolean query ({@link #condition} over {@link #operands}), a
 * file-name query (filters with a {@code path:} and no pattern) and a symbol query ({@code sym:}).
 *
 * @param raw             the query as typed
 * @param pattern         what to search for, with the filters removed; empty for a file-name query
 * @param patternOffset   where {@code pattern} starts in {@code raw} (0-based), to place errors
 * @param literal         the pattern is a literal string, not a regex
 * @param caseInsensitive {@code case:no} or {@code (?i)}
 * @param filters         all must hold
 * @param operands        a boolean query's operands, in order of appearance; empty otherwise
 * @param condition       a boolean query's condition over its operands; null otherwise
 * @param symbol          a symbol query's name regex ({@code sym:REGEX}); null otherwise
 */
public record ParsedQuery(
        String raw,
        String pattern,
        int patternOffset,
        boolean literal,
        boolean caseInsensitive,
        List<Filter> filters,
        List<Operand> operands,
        Condition condition,
        Operand symbol) {
    public enum Kind {
        PACKAGE,
        PATH,
        FILETYPE
    }

    /** One filter term: {@code package:REGEX}, {@code -path:REGEX}, {@code filetype:LANG}, … */
    public record Filter(Kind kind, boolean negated, String value) {}

    /** One operand of a boolean query: a regex, and where it starts in the raw query (0-based). */
    public record Operand(String regex, int offset) {}

    public ParsedQuery {
        filters = List.copyOf(filters);
        operands = List.copyOf(operands);
    }

    /** A query of one pattern, as Debian Code Search has them. */
    public ParsedQuery(
            String raw,
            String pattern,
            int patternOffset,
            boolean literal,
            boolean caseInsensitive,
            List<Filter> filters) {
        this(raw, pattern, patternOffset, literal, caseInsensitive, filters, List.of(), null, null);
    }

    /** Whether this is a boolean query. */
    public boolean isBoolean() {
        return condition != null;
    }

    /** Whether this asks for files by name alone: filters, at least one of them {@code path:}, and no pattern. */
    public boolean filesOnly() {
        return pattern.isEmpty() && symbol == null;
    }

    /** Whether this asks for definitions: {@code sym:REGEX}, with filters or none. */
    public boolean isSymbolQuery() {
        return symbol != null;
    }
}
