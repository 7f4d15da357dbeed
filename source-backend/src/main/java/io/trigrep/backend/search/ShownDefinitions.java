package io.trigrep.backend.search;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.symbols.Symbols;
import io.trigrep.query.Operands;
import java.util.Arrays;

/**
 * A boolean query's lines in one file when a {@code sym:} operand's lines are shown: its
 * definitions' lines (those of every such operand) merged, in line order, with the lines the
 * regex operands' matcher reports, each line once. A line that is both is one definition line,
 * the regex's matches marked on it too. Several definitions on one line make one result, the
 * first one's, as for {@code sym:} alone. One per worker, reused file after file; not thread-safe.
 */
final class ShownDefinitions implements LineSink {
    /** Where the lines go: a definition's line with its symbol, or a line only the regexes matched. */
    interface Sink extends LineSink {
        /** Writes line {@code lineNumber}, {@code content[lineStart, lineEnd)}, as {@code symbol}'s definition, {@code ranges} marked too; false to stop. */
        boolean definition(int symbol, int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount);
    }

    private static final int[] NO_RANGES = new int[0];

    private final Sink sink;
    /** Per operand: whether it is a sym: operand whose lines are shown. */
    private final boolean[] shown;
    /** The file's shown definitions from the first line on, {@code line << 32 | symbol}, sorted; one per line. */
    private long[] definitions = new long[16];

    private int count;
    private int next;
    private byte[] content;
    private int length;
    /** The cursor: byte {@code pos} starts line {@code line}. */
    private int pos;

    private int line;
    private boolean stopped;

    ShownDefinitions(Sink sink, Operands operands) {
        this.sink = sink;
        this.shown = new boolean[operands.size()];
        for (int i = 0; i < shown.length; i++) {
            shown[i] = operands.showsDefinitions(i);
        }
    }

    /**
     * Reads doc {@code doc}'s shown definitions from {@code defined} (its segment's, per operand),
     * those on line {@code fromLine} and after, which starts at byte {@code from} of the content.
     */
    void start(int doc, SymbolHits[] defined, Symbols symbols, byte[] content, int length, int from, int fromLine)
            throws CorruptIndexException {
        count = 0;
        for (int operand = 0; operand < shown.length; operand++) {
            if (!shown[operand]) {
                continue;
            }
            SymbolHits hits = defined[operand];
            for (int hit = hits.firstOf(doc); hit >= 0 && hit < hits.size() && hits.doc(hit) == doc; hit++) {
                int symbol = hits.symbol(hit);
                int at = symbols.line(symbol);
                if (at >= fromLine) {
                    if (count == definitions.length) {
                        definitions = Arrays.copyOf(definitions, 2 * count);
                    }
                    definitions[count++] = (long) at << 32 | symbol;
                }
            }
        }
        Arrays.sort(definitions, 0, count);
        int kept = 0;
        for (int i = 0; i < count; i++) {
            if (kept == 0 || definitions[i] >>> 32 != definitions[kept - 1] >>> 32) {
                definitions[kept++] = definitions[i];
            }
        }
        count = kept;
        next = 0;
        this.content = content;
        this.length = length;
        pos = from;
        line = fromLine;
        stopped = false;
    }

    @Override
    public boolean line(int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount) {
        if (!definitionsBefore(lineNumber)) {
            return false;
        }
        boolean more;
        if (next < count && definitions[next] >>> 32 == lineNumber) {
            more = sink.definition((int) definitions[next++], lineStart, lineEnd, lineNumber, ranges, rangeCount);
        } else {
            more = sink.line(lineStart, lineEnd, lineNumber, ranges, rangeCount);
        }
        pos = lineEnd + 1;
        line = lineNumber + 1;
        stopped = !more;
        return more;
    }

    /** Writes the definitions after the last line the matcher reported; false when the sink stopped. */
    boolean finish() {
        boolean more = definitionsBefore(Integer.MAX_VALUE);
        content = null;
        return more;
    }

    /** Writes the definitions on lines before {@code lineNumber}; false when the sink stopped. */
    private boolean definitionsBefore(int lineNumber) {
        while (!stopped && next < count && definitions[next] >>> 32 < lineNumber) {
            int target = (int) (definitions[next] >>> 32);
            int symbol = (int) definitions[next++];
            while (line < target && pos < length) {
                pos = LineMatcher.lineEnd(content, length, pos) + 1;
                line++;
            }
            if (line != target || pos > length) {
                next = count; // past the file's end: ctags read a line this content does not have
                return true;
            }
            int end = LineMatcher.lineEnd(content, length, pos);
            stopped = !sink.definition(symbol, pos, end, target, NO_RANGES, 0);
            pos = end + 1;
            line = target + 1;
        }
        return !stopped;
    }
}
