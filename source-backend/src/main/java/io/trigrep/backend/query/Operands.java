package io.trigrep.backend.query;

import io.trigrep.backend.plan.Query;
import io.trigrep.re2j.Pattern;
import java.util.List;

/**
 * A boolean query made ready to run: its condition, and per operand the compiled regex, its
 * trigram plan and whether its lines are shown (it sits under an even number of NOTs).
 */
public record Operands(Condition condition, List<Pattern> patterns, List<Query> plans, List<Boolean> shown) {
    public Operands {
        patterns = List.copyOf(patterns);
        plans = List.copyOf(plans);
        shown = List.copyOf(shown);
    }

    public int size() {
        return patterns.size();
    }
}
