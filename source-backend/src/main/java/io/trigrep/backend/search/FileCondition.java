package io.trigrep.backend.search;

import io.trigrep.query.Operands;
import java.util.Arrays;
import java.util.List;

/**
 * Decides whether one file meets a boolean query's condition: each operand is searched for on
 * demand, stopping at its first matching line, and remembered for the file, so an AND stops at
 * the first operand the file lacks. A {@code sym:} operand holds when the file is among its
 * definitions' docs (a binary search, no content read). One per worker; not thread-safe.
 */
final class FileCondition {
    private static final byte UNKNOWN = 0;
    private static final byte YES = 1;
    private static final byte NO = 2;

    private final Operands operands;
    private final LineMatcher[] matchers;
    private final byte[] known;
    private final FirstLine first = new FirstLine();
    private byte[] content;
    private int length;
    private SymbolHits[] defined;
    private int doc;

    /** {@code needles.get(i)} prefilter operand i's lines, as for a plain regex query. */
    FileCondition(Operands operands, List<List<String>> needles, boolean foldNeedles) {
        this.operands = operands;
        this.matchers = new LineMatcher[operands.size()];
        for (int i = 0; i < matchers.length; i++) {
            // A literal operand is found eight bytes at a time, as a literal query is; a regex by its needles.
            matchers[i] = operands.sym(i)
                    ? null
                    : operands.literals().get(i).isPresent()
                            ? LineMatcher.literal(operands.literals().get(i).get())
                            : LineMatcher.regex(operands.patterns().get(i), needles.get(i), foldNeedles);
        }
        this.known = new byte[matchers.length];
    }

    /**
     * Whether doc {@code doc}, whose content is {@code content[0, length)}, meets the condition;
     * {@code defined} holds its segment's definitions per sym: operand (null without such operands).
     */
    boolean holds(int doc, byte[] content, int length, SymbolHits[] defined) {
        this.doc = doc;
        this.defined = defined;
        this.content = content;
        this.length = length;
        Arrays.fill(known, UNKNOWN);
        boolean holds = operands.condition().holds(this::matches);
        this.content = null;
        return holds;
    }

    private boolean matches(int operand) {
        if (known[operand] == UNKNOWN && matchers[operand] == null) {
            known[operand] = defined[operand].defines(doc) ? YES : NO;
        } else if (known[operand] == UNKNOWN) {
            first.found = false;
            matchers[operand].search(content, length, 0, 1, first);
            known[operand] = first.found ? YES : NO;
        }
        return known[operand] == YES;
    }

    /** Stops a search at its first matching line. */
    private static final class FirstLine implements LineSink {
        boolean found;

        @Override
        public boolean line(int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount) {
            found = true;
            return false;
        }
    }
}
