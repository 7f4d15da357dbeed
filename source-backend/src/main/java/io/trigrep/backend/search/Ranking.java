package io.trigrep.backend.search;

/**
 * The ranking of one result, in the spirit of Debian Code Search: the file's static rank (from
 * the indexer) scaled by how good the match on this line looks. See the module README for the
 * formula and its reasons.
 */
final class Ranking {
    /** A line defining a symbol the pattern matches outranks the lines that use it, in files of similar static rank. */
    static final float DEFINITION_BOOST = 1.5f;

    private Ranking() {}

    static float of(
            float staticRank,
            byte[] content,
            int lineStart,
            int lineEnd,
            int matchStart,
            int matchEnd,
            boolean pathMatches,
            boolean defines) {
        double word = isWordBoundary(content, lineStart, lineEnd, matchStart - 1)
                        && isWordBoundary(content, lineStart, lineEnd, matchEnd)
                ? 1.0
                : 0.0;
        int indent = 0;
        while (lineStart + indent < lineEnd
                && (content[lineStart + indent] == ' ' || content[lineStart + indent] == '\t')) {
            indent++;
        }
        int column = Math.max(0, matchStart - lineStart - indent);
        double early = 1.0 - Math.min(column, 120) / 120.0;
        double shallow = 1.0 - Math.min(indent, 32) / 32.0;
        double quality = 0.4 * word + 0.2 * early + 0.2 * shallow + 0.2 * (pathMatches ? 1.0 : 0.0);
        return (float) (staticRank * (0.5 + 0.5 * quality) * (defines ? DEFINITION_BOOST : 1.0));
    }

    /** True when the byte at {@code at} is outside the line or not a word character. */
    private static boolean isWordBoundary(byte[] content, int lineStart, int lineEnd, int at) {
        if (at < lineStart || at >= lineEnd) {
            return true;
        }
        int b = content[at] & 0xff;
        return !((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_' || b >= 0x80);
    }
}
