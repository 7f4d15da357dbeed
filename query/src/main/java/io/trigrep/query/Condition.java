package io.trigrep.query;

import java.util.List;
import java.util.function.IntPredicate;

/**
 * A boolean query's condition over one file: operands (each a regex or a {@code sym:} name
 * regex, by its index in {@link ParsedQuery#operands()}) combined with AND, OR and NOT. A file
 * matches as a whole when its condition holds; a regex operand holds when it matches somewhere
 * in the file, a {@code sym:} operand when the file defines a name it matches.
 */
public sealed interface Condition permits Condition.Operand, Condition.And, Condition.Or, Condition.Not {
    /**
     * Whether the condition holds when {@code matches} says which operands match the file. Operands
     * are asked left to right and only as far as needed (AND stops at the first false, OR at the
     * first true), so a caller may compute each on demand.
     */
    boolean holds(IntPredicate matches);

    /** Adds to {@code out} (a flag per operand) the operands under an even number of NOTs: those whose lines are shown. */
    void positives(boolean[] out, boolean negated);

    record Operand(int index) implements Condition {
        @Override
        public boolean holds(IntPredicate matches) {
            return matches.test(index);
        }

        @Override
        public void positives(boolean[] out, boolean negated) {
            out[index] |= !negated;
        }

        @Override
        public String toString() {
            return "#" + index;
        }
    }

    record And(List<Condition> operands) implements Condition {
        public And {
            operands = List.copyOf(operands);
        }

        @Override
        public boolean holds(IntPredicate matches) {
            for (Condition c : operands) {
                if (!c.holds(matches)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void positives(boolean[] out, boolean negated) {
            operands.forEach(c -> c.positives(out, negated));
        }

        @Override
        public String toString() {
            return sexp("and", operands);
        }
    }

    record Or(List<Condition> operands) implements Condition {
        public Or {
            operands = List.copyOf(operands);
        }

        @Override
        public boolean holds(IntPredicate matches) {
            for (Condition c : operands) {
                if (c.holds(matches)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void positives(boolean[] out, boolean negated) {
            operands.forEach(c -> c.positives(out, negated));
        }

        @Override
        public String toString() {
            return sexp("or", operands);
        }
    }

    record Not(Condition operand) implements Condition {
        @Override
        public boolean holds(IntPredicate matches) {
            return !operand.holds(matches);
        }

        @Override
        public void positives(boolean[] out, boolean negated) {
            operand.positives(out, !negated);
        }

        @Override
        public String toString() {
            return "(not " + operand + ")";
        }
    }

    private static String sexp(String op, List<Condition> operands) {
        StringBuilder out = new StringBuilder("(").append(op);
        for (Condition c : operands) {
            out.append(' ').append(c);
        }
        return out.append(')').toString();
    }
}
