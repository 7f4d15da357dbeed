package io.trigrep.query;

import io.trigrep.query.plan.Query;
import io.trigrep.re2j.Pattern;
import java.util.List;
import java.util.Optional;

/**
 * A boolean query made ready to run: its condition, and per operand the compiled regex, its
 * trigram plan, whether its lines are shown (it sits under an even number of NOTs) and, for an
 * operand that is a case-sensitive literal (no regex metacharacter), its UTF-8 bytes, which the
 * search finds without the regex engine, as it does a literal query's. A {@code sym:} operand's
 * regex matches definitions' names and its plan is over names (the shard's symbol index), as a
 * symbol query's; the lines it shows are its definitions'.
 */
public record Operands(
        Condition condition,
        List<Pattern> patterns,
        List<Query> plans,
        List<Boolean> shown,
        List<Optional<byte[]>> literals,
        List<Boolean> symbols) {
    public Operands {
        symbols = List.copyOf(symbols);
        patterns = List.copyOf(patterns);
        plans = List.copyOf(plans);
        shown = List.copyOf(shown);
        literals = List.copyOf(literals);
    }

    public int size() {
        return patterns.size();
    }

    /** Whether operand {@code i} is {@code sym:REGEX}. */
    public boolean sym(int i) {
        return symbols.get(i);
    }

    /** Whether operand {@code i} is {@code sym:REGEX} and its lines, its definitions', are shown. */
    public boolean showsDefinitions(int i) {
        return symbols.get(i) && shown.get(i);
    }

    /** Whether some {@code sym:} operand's lines are shown. */
    public boolean showsDefinitions() {
        for (int i = 0; i < size(); i++) {
            if (showsDefinitions(i)) {
                return true;
            }
        }
        return false;
    }

    /** Whether some operand is {@code sym:REGEX}: the shard must have its symbols. */
    public boolean hasSymbols() {
        return symbols.contains(true);
    }
}
