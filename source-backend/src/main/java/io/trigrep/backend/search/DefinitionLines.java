package io.trigrep.backend.search;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.symbols.Symbols;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Lines written as definitions: the lines of a {@code sym:} query (each line ctags found a
 * matching definition on), and the definition a line is written as, with its name's occurrences
 * marked and its rank by the definition's kind. One per worker, reused; not thread-safe.
 */
final class DefinitionLines {
    /** A definition on the line being written, read once from the symbols file. */
    @SuppressWarnings("ArrayRecordComponent") // UTF-8 carried to the writer, never compared
    record Definition(byte[] name, byte[] kind, byte[] scope, byte[] language, float ranking) {}

    private final int[] nameRanges = new int[64];
    /** A definition line's name occurrences and regex matches together. */
    private final JoinedRanges joinedRanges = new JoinedRanges();
    /** While a definition's line is written: the definition; null otherwise. */
    private Definition pending;

    /**
     * A {@code sym:} query's lines in one file: each line of {@code content} that one of
     * {@code hits}' definitions of {@code doc} is on, from line {@code fromLine} (which starts at
     * byte {@code from}) on, each to {@code sink} as a definition. Several definitions on one line
     * make one result, the first one's.
     */
    static void walk(
            SymbolHits hits,
            Symbols symbols,
            int doc,
            byte[] content,
            int length,
            int from,
            int fromLine,
            ShownDefinitions.Sink sink)
            throws CorruptIndexException {
        int pos = from;
        int lineNumber = fromLine;
        int lastLine = -1;
        for (int hit = hits.firstOf(doc); hit >= 0 && hit < hits.size() && hits.doc(hit) == doc; hit++) {
            int symbol = hits.symbol(hit);
            int target = symbols.line(symbol);
            if (target < fromLine || target == lastLine) {
                continue;
            }
            while (lineNumber < target && pos < length) {
                pos = LineMatcher.lineEnd(content, length, pos) + 1;
                lineNumber++;
            }
            if (lineNumber != target || pos > length) {
                return; // past the file's end: ctags read a line this content does not have
            }
            int end = LineMatcher.lineEnd(content, length, pos);
            boolean more = sink.definition(symbol, pos, end, target, NO_RANGES, 0);
            if (!more) {
                return;
            }
            lastLine = target;
        }
    }

    private static final int[] NO_RANGES = new int[0];

    /**
     * Writes line {@code lineNumber}, {@code content[lineStart, lineEnd)}, to {@code to} as
     * {@code symbol}'s definition: its name's occurrences are marked with {@code ranges}, and it
     * ranks as {@code staticRank} by the definition's kind, times {@code boost}. While {@code to}
     * writes it, the definition is {@link #pending}. Returns what {@code to} returned.
     */
    boolean write(
            Symbols symbols,
            int symbol,
            float staticRank,
            float boost,
            byte[] content,
            int lineStart,
            int lineEnd,
            int lineNumber,
            int[] ranges,
            int rangeCount,
            LineSink to)
            throws CorruptIndexException {
        byte[] name = utf8(symbols.nameBytes(symbols.nameId(symbol)));
        int count = occurrences(name, content, lineStart, lineEnd);
        String kind = symbols.kind(symbol);
        pending = new Definition(
                name,
                kind.getBytes(StandardCharsets.UTF_8),
                symbols.scope(symbol).getBytes(StandardCharsets.UTF_8),
                symbols.language(symbol).getBytes(StandardCharsets.UTF_8),
                staticRank * SymbolKinds.weight(kind) * boost);
        boolean more;
        if (rangeCount == 0) {
            more = to.line(lineStart, lineEnd, lineNumber, nameRanges, count);
        } else {
            int n = joinedRanges.join(nameRanges, count, ranges, rangeCount);
            more = to.line(lineStart, lineEnd, lineNumber, joinedRanges.ranges(), n);
        }
        pending = null;
        return more;
    }

    /** The definition whose line is being written; null when the line is no definition's. */
    Definition pending() {
        return pending;
    }

    /** The name's occurrences in {@code content[start, end)}, as absolute pairs in {@link #nameRanges}; how many. */
    private int occurrences(byte[] name, byte[] content, int start, int end) {
        int n = name.length;
        int count = 0;
        for (int at = start; n > 0 && at + n <= end && count < nameRanges.length / 2; at++) {
            int k = 0;
            while (k < n && content[at + k] == name[k]) {
                k++;
            }
            if (k == n) {
                nameRanges[2 * count] = at;
                nameRanges[2 * count + 1] = at + n;
                count++;
                at += n - 1;
            }
        }
        return count;
    }

    private static byte[] utf8(ByteBuffer bytes) {
        byte[] out = new byte[bytes.remaining()];
        bytes.duplicate().get(out);
        return out;
    }
}
