package io.trigrep.query;

import java.util.List;

/**
 * A query split into its search pattern and its filters, as Debian Code Search reads it, plus the
 * three forms it does not have: a boolean query ({@link #condition} over {@link #operands}), a
 * file-name query (filters with a {@code path:} and no pattern) and a symbol query ({@code sym:}
 * alone, with filters or none). A {@code sym:} next to a pattern, another {@code sym:} or an
 * operator word is an operand of a boolean query.
 *
 * @param raw             the query as typed
 * @param pattern         what to search for, with the filters removed (a boolean query's {@code sym:}
 *                        terms kept); empty for a file-name query and a symbol query
 * @param patternOffset   where {@code pattern} starts in {@code raw} (0-based), to place errors
 * @param literal         the pattern is a literal string, not a regex
 * @param caseInsensitive {@code case:no} or {@code (?i)}
 * @param filters         all must hold
 * @param operands        a boolean query's operands, in order of appearance; empty otherwise
 * @param condition       a boolean query's condition over its operands; null otherwise
 * @param symbol          a symbol query's name regex ({@code sym:REGEX}); null otherwise
 * @param count           the results to keep at most ({@code count:N}); 0 when the query sets none
 * @param positions       where each character of {@code pattern} is in {@code raw} (0-based), when the
 *                        pattern is not one run of it (terms with filters or several blanks between
 *                        them, joined by one blank); empty when it is the run at {@code patternOffset}
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
        Operand symbol,
        int count,
        List<Integer> positions) {
    public enum Kind {
        PACKAGE,
        PATH,
        FILETYPE,
        /** A git repository package's branch (or tag) holding the file; no other package's files match. */
        BRANCH
    }

    /** One filter term: {@code package:REGEX}, {@code -path:REGEX}, {@code filetype:LANG}, … */
    public record Filter(Kind kind, boolean negated, String value) {}

    /**
     * One operand of a boolean query: a regex, and where it starts in the raw query (0-based). A
     * {@code sym} operand ({@code sym:REGEX}) matches the names of the file's definitions, not its
     * lines; {@code offset} is then where REGEX starts, after {@code sym:}.
     */
    public record Operand(String regex, int offset, boolean sym) {
        /** A regex operand, or a symbol query's name regex. */
        public Operand(String regex, int offset) {
            this(regex, offset, false);
        }
    }

    public ParsedQuery {
        filters = List.copyOf(filters);
        operands = List.copyOf(operands);
        positions = List.copyOf(positions);
        if (count < 0) {
            throw new IllegalArgumentException("count must be >= 0, got " + count);
        }
    }

    /** A query of one pattern, as Debian Code Search has them. */
    public ParsedQuery(
            String raw,
            String pattern,
            int patternOffset,
            boolean literal,
            boolean caseInsensitive,
            List<Filter> filters) {
        this(raw, pattern, patternOffset, literal, caseInsensitive, filters, List.of(), null, null, 0, List.of());
    }

    /** Where character {@code i} of {@code pattern} is in {@code raw} (0-based); past its end, after its last. */
    public int rawIndex(int i) {
        if (positions.isEmpty()) {
            return Math.max(0, patternOffset) + i;
        }
        int last = positions.size() - 1;
        return i <= last ? positions.get(i) : positions.get(last) + i - last;
    }

    /** Whether this is a boolean query. */
    public boolean isBoolean() {
        return condition != null;
    }

    /** Whether this asks for files by name alone: filters, at least one of them {@code path:}, and no pattern. */
    public boolean filesOnly() {
        return pattern.isEmpty() && symbol == null && condition == null;
    }

    /** Where the first {@code sym:} of the query starts (0-based), a symbol query's or a boolean query's operand; -1 when none. */
    public int symbolOffset() {
        if (symbol != null) {
            return symbol.offset() - 4;
        }
        for (Operand o : operands) {
            if (o.sym()) {
                return o.offset() - 4;
            }
        }
        return -1;
    }

    /** Whether this asks for definitions: {@code sym:REGEX}, with filters or none. */
    public boolean isSymbolQuery() {
        return symbol != null;
    }
}
