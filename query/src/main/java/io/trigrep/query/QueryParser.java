package io.trigrep.query;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads Debian Code Search's query language. Whitespace-separated terms of the form
 * {@code package:X}, {@code -package:X}, {@code pkg:X}, {@code path:X}, {@code -path:X},
 * {@code file:X}, {@code -file:X}, {@code filetype:X}, {@code -filetype:X}, {@code lang:X} and
 * {@code case:yes|no} are filters, anywhere in the query, and {@code count:N} keeps the first N
 * results (as a server's cap does, in the same order); every other term is part of the
 * pattern, joined by single spaces (in a literal query, by the blanks typed between them).
 * {@code sym:REGEX} alone (with filters or none) asks for the definitions whose names match. Three forms go beyond it: a regex query with {@code AND},
 * {@code OR} or {@code NOT} as a term of its own is boolean ({@link ConditionParser}); so is a
 * {@code sym:} next to a pattern or another {@code sym:}, an operand ANDed with its neighbours as
 * operands side by side are ({@code sym:^deflate foo} is {@code sym:^deflate AND foo}); and a query
 * of filters alone with a positive {@code path:} (or {@code file:}) asks for files by name.
 * Syntax of the values (regexes, languages) is checked by {@link CompiledQuery}, which knows the engines.
 */
public final class QueryParser {
    /** Longer queries are refused outright: nobody types them, and they cost planning time. */
    public static final int MAX_QUERY_CHARS = 4096;

    private QueryParser() {}

    public static ParsedQuery parse(String raw, boolean literal) throws QueryException {
        if (raw == null) {
            throw new QueryException("empty query", 0);
        }
        if (raw.length() > MAX_QUERY_CHARS) {
            throw new QueryException(
                    "query too long: " + raw.length() + " characters, the limit is " + MAX_QUERY_CHARS,
                    MAX_QUERY_CHARS + 1);
        }
        List<ParsedQuery.Filter> filters = new ArrayList<>();
        List<ConditionParser.Term> terms = new ArrayList<>();
        ParsedQuery.Operand symbol = null;
        int symbols = 0;
        StringBuilder pattern = new StringBuilder();
        int patternOffset = -1;
        List<Integer> positions = new ArrayList<>();
        boolean caseInsensitive = false;
        int count = 0;
        // A literal pattern keeps the blanks between its words as typed (a filter between two
        // words leaves one space); a regex's words are joined by single spaces.
        boolean previousWasPattern = false;
        int previousEnd = 0;
        int i = 0;
        while (i < raw.length()) {
            while (i < raw.length() && Character.isWhitespace(raw.charAt(i))) {
                i++;
            }
            if (i >= raw.length()) {
                break;
            }
            int start = i;
            while (i < raw.length() && !Character.isWhitespace(raw.charAt(i))) {
                i++;
            }
            String term = raw.substring(start, i);
            boolean patternTerm = false;
            boolean negated = term.startsWith("-");
            String body = negated ? term.substring(1) : term;
            int colon = body.indexOf(':');
            String key = colon > 0 ? body.substring(0, colon).toLowerCase(Locale.ROOT) : "";
            String value = colon > 0 ? body.substring(colon + 1) : "";
            ParsedQuery.Kind kind = switch (key) {
                case "package", "pkg", "repo" -> ParsedQuery.Kind.PACKAGE;
                case "branch" -> ParsedQuery.Kind.BRANCH;
                case "path", "file" -> ParsedQuery.Kind.PATH;
                case "filetype", "lang" -> ParsedQuery.Kind.FILETYPE;
                default -> null;
            };
            if (kind != null) {
                if (value.isEmpty()) {
                    throw new QueryException(key + ": needs a value", start + 1);
                }
                filters.add(new ParsedQuery.Filter(kind, negated, value));
            } else if (key.equals("sym")) {
                if (negated || value.isEmpty()) {
                    throw new QueryException(
                            negated
                                    ? "-sym: is not supported: write NOT sym:REGEX to exclude files defining a name"
                                    : "sym: needs a regex for the names",
                            start + 1);
                }
                if (symbol == null) {
                    symbol = new ParsedQuery.Operand(value, start + 4);
                }
                symbols++;
                terms.add(new ConditionParser.Term(term, start));
            } else if (key.equals("count")) {
                if (negated || count != 0) {
                    throw new QueryException(
                            negated ? "-count: is not supported: count:N keeps N results" : "count: given twice",
                            start + 1);
                }
                count = countOf(value, start + 1);
            } else if (key.equals("case") && !negated) {
                switch (value.toLowerCase(Locale.ROOT)) {
                    case "no" -> caseInsensitive = true;
                    case "yes" -> caseInsensitive = false;
                    default -> throw new QueryException("case: takes yes or no, got '" + value + "'", start + 1);
                }
            } else {
                if (pattern.length() == 0) {
                    patternOffset = start;
                } else if (literal && previousWasPattern && !lineBreak(raw, previousEnd, start)) {
                    pattern.append(raw, previousEnd, start);
                    for (int k = previousEnd; k < start; k++) {
                        positions.add(k);
                    }
                } else {
                    pattern.append(' ');
                    positions.add(start - 1);
                }
                pattern.append(term);
                for (int k = start; k < i; k++) {
                    positions.add(k);
                }
                terms.add(new ConditionParser.Term(term, start));
                patternTerm = true;
            }
            previousWasPattern = patternTerm;
            previousEnd = i;
        }
        String text = pattern.toString();
        if (symbols == 1 && text.isEmpty()) {
            return new ParsedQuery(
                    raw, "", -1, false, caseInsensitive, filters, List.of(), null, symbol, count, List.of());
        }
        if (symbols > 0 || (!literal && ConditionParser.isBoolean(terms))) {
            // A literal query's pattern is verbatim, operator words and all: one operand beside the sym: ones.
            ConditionParser.Parsed parsed = literal
                    ? ConditionParser.symbolsAndLiteral(terms, text, patternOffset)
                    : ConditionParser.parse(terms);
            return new ParsedQuery(
                    raw,
                    joined(terms),
                    terms.get(0).offset(),
                    false,
                    caseInsensitive,
                    filters,
                    parsed.operands(),
                    parsed.condition(),
                    null,
                    count,
                    List.of());
        }
        if (text.isEmpty()) {
            if (filters.isEmpty()) {
                throw new QueryException("empty query", 0);
            }
            if (filters.stream().noneMatch(f -> f.kind() == ParsedQuery.Kind.PATH && !f.negated())) {
                throw new QueryException(
                        "the query has filters but nothing to search for: add a pattern, or a path: to list files by name",
                        0);
            }
            return new ParsedQuery(
                    raw, "", -1, literal, caseInsensitive, filters, List.of(), null, null, count, List.of());
        }
        if (!literal && text.startsWith("(?i)")) {
            caseInsensitive = true;
        }
        // A pattern without regex metacharacters is a literal: the fast path handles it.
        boolean plain = literal || !hasMetacharacters(text);
        boolean oneRun = true;
        for (int k = 0; k < positions.size() && oneRun; k++) {
            oneRun = positions.get(k) == patternOffset + k;
        }
        return new ParsedQuery(
                raw,
                text,
                patternOffset,
                plain,
                caseInsensitive,
                filters,
                List.of(),
                null,
                null,
                count,
                oneRun ? List.of() : positions);
    }

    /** Whether {@code text[from, to)} holds a line break: results are lines, so no pattern spans one. */
    private static boolean lineBreak(String text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
                return true;
            }
        }
        return false;
    }

    /** A {@code count:} value: a whole number of results, at least 1. */
    private static int countOf(String value, int position) throws QueryException {
        long n = value.isEmpty() ? -1 : 0;
        for (int i = 0; i < value.length() && n >= 0 && n <= Integer.MAX_VALUE; i++) {
            char c = value.charAt(i);
            n = c >= '0' && c <= '9' ? n * 10 + (c - '0') : -1;
        }
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw new QueryException(
                    "count: takes the number of results to keep, a whole number from 1 to " + Integer.MAX_VALUE
                            + ", got '" + value + "'",
                    position);
        }
        return (int) n;
    }

    /** The terms' texts joined by single spaces. */
    static String joined(List<ConditionParser.Term> terms) {
        StringBuilder out = new StringBuilder();
        for (ConditionParser.Term t : terms) {
            out.append(out.length() == 0 ? "" : " ").append(t.text());
        }
        return out.toString();
    }

    public static boolean hasMetacharacters(String text) {
        for (int i = 0; i < text.length(); i++) {
            if ("\\.+*?()|[]{}^$".indexOf(text.charAt(i)) >= 0) {
                return true;
            }
        }
        return false;
    }
}
