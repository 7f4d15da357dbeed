package io.trigrep.query;

import java.util.List;

/**
 * A query that arrives as its parts (a search request's pattern, flags and filters) rather than
 * as text to parse. Without a pattern the text is parsed as typed; with one, the parts are taken
 * as they are, under the parser's length limit, the pattern placed where it stands in the text.
 */
public final class QueryFields {
    private QueryFields() {}

    public static ParsedQuery parse(
            String raw, String pattern, boolean literal, boolean caseInsensitive, List<ParsedQuery.Filter> filters)
            throws QueryException {
        if (pattern.isEmpty()) {
            return QueryParser.parse(raw, literal);
        }
        if (raw.length() > QueryParser.MAX_QUERY_CHARS || pattern.length() > QueryParser.MAX_QUERY_CHARS) {
            throw new QueryException("query too long: the limit is " + QueryParser.MAX_QUERY_CHARS + " characters", 0);
        }
        int offset = Math.max(0, raw.indexOf(pattern));
        return new ParsedQuery(raw.isEmpty() ? pattern : raw, pattern, offset, literal, caseInsensitive, filters);
    }
}
