package io.trigrep.backend.query;

import io.trigrep.backend.plan.Query;
import io.trigrep.re2j.Pattern;
import java.util.List;
import java.util.Optional;

/**
 * A boolean query made ready to run: its condition, and per operand the compiled regex, its
 * trigram plan, whether its lines are shown (it sits under an even number of NOTs) and, for an
 * operand that is a case-sensitive literal (no regex metacharacter), its UTF-8 bytes, which the
 * search finds without the regex engine, as it does a literal query's.
 */
public record Operands(
        Condition condition,
        List<Pattern> patterns,
        List<Query> plans,
        List<Boolean> shown,
        List<Optional<byte[]>> literals) {
    public Operands {
        patterns = List.copyOf(patterns);
        plans = List.copyOf(plans);
        shown = List.copyOf(shown);
        literals = List.copyOf(literals);
    }

    public int size() {
        return patterns.size();
    }
}
