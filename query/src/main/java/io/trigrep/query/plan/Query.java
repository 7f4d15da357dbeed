package io.trigrep.query.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * A boolean query over trigrams: which files can possibly match. {@link All} means every file
 * (nothing could be extracted), {@link None} no file; {@link Defines} is a boolean query's
 * {@code sym:} operand among trigrams. {@code toString()} prints an s-expression,
 * e.g. {@code (and "abc" (or "bcd" "bce"))}, that tests assert on.
 */
public sealed interface Query permits Query.All, Query.None, Query.Trigram, Query.Defines, Query.And, Query.Or {
    record All() implements Query {
        @Override
        public String toString() {
            return "all";
        }
    }

    record None() implements Query {
        @Override
        public String toString() {
            return "none";
        }
    }

    /** Files containing these three bytes, packed big-endian in the low 24 bits. */
    record Trigram(int value) implements Query {
        @Override
        public String toString() {
            StringBuilder out = new StringBuilder("\"");
            for (int shift = 16; shift >= 0; shift -= 8) {
                int b = value >>> shift & 0xff;
                if (b == '"' || b == '\\') {
                    out.append('\\').append((char) b);
                } else if (b >= 0x20 && b < 0x7f) {
                    out.append((char) b);
                } else {
                    out.append(String.format("\\x%02x", b));
                }
            }
            return out.append('"').toString();
        }
    }

    /**
     * Files defining a name that a boolean query's {@code sym:} operand matches (by its index
     * among the query's operands): not a trigram, answered by the shard's symbol index. The
     * planner of a regex never makes one.
     */
    record Defines(int operand) implements Query {
        @Override
        public String toString() {
            return "sym#" + operand;
        }
    }

    record And(List<Query> operands) implements Query {
        @Override
        public String toString() {
            return sexp("and", operands);
        }
    }

    record Or(List<Query> operands) implements Query {
        @Override
        public String toString() {
            return sexp("or", operands);
        }
    }

    All ALL = new All();
    None NONE = new None();

    private static String sexp(String op, List<Query> operands) {
        StringBuilder out = new StringBuilder("(").append(op);
        for (Query q : operands) {
            out.append(' ').append(q);
        }
        return out.append(')').toString();
    }

    /** The conjunction, simplified: flattened, deduplicated, sorted; All dropped; None wins. */
    static Query and(Query a, Query b) {
        return combine(true, List.of(a, b));
    }

    /** The disjunction, simplified: flattened, deduplicated, sorted; None dropped; All wins. */
    static Query or(Query a, Query b) {
        return combine(false, List.of(a, b));
    }

    /** The conjunction of {@code operands}, simplified as {@link #and} simplifies. */
    public static Query allOf(List<Query> operands) {
        return combine(true, operands);
    }

    /** The disjunction of {@code operands}, simplified as {@link #or} simplifies. */
    public static Query anyOf(List<Query> operands) {
        return combine(false, operands);
    }

    /**
     * Absorption: in an OR, an operand that is an AND containing every conjunct of another
     * operand adds nothing ({@code a | (a & b) = a}); dually in an AND, an OR containing
     * another operand adds nothing ({@code a & (a | b) = a}).
     */
    private static void absorb(boolean and, List<Keyed> operands) {
        for (int i = operands.size() - 1; i >= 0; i--) {
            Query candidate = operands.get(i).query();
            List<Query> inner = and
                    ? (candidate instanceof Or o ? o.operands() : null)
                    : (candidate instanceof And a ? a.operands() : null);
            if (inner == null) {
                continue;
            }
            for (int j = 0; j < operands.size(); j++) {
                Query other = operands.get(j).query();
                if (j == i) {
                    continue;
                }
                List<Query> required = and ? List.of(other) : other instanceof And a ? a.operands() : List.of(other);
                boolean subsumed = and ? inner.contains(other) : inner.containsAll(required);
                if (subsumed) {
                    operands.remove(i);
                    break;
                }
            }
        }
    }

    /**
     * Operands are ordered and deduplicated by their s-expressions, each printed once here and
     * duplicates found next to each other once sorted, never printed again per comparison (a
     * literal is planned with a combine per byte, in the frontend and every backend). Absorption does
     * not depend on the order it sees the operands in, so it runs on the sorted list.
     */
    static Query combine(boolean and, List<Query> operands) {
        List<Keyed> flat = new ArrayList<>();
        for (Query q : operands) {
            List<Query> parts =
                    and && q instanceof And a ? a.operands() : !and && q instanceof Or o ? o.operands() : List.of(q);
            for (Query p : parts) {
                if (p instanceof All) {
                    if (!and) {
                        return ALL;
                    }
                    continue;
                }
                if (p instanceof None) {
                    if (and) {
                        return NONE;
                    }
                    continue;
                }
                flat.add(new Keyed(p.toString(), p));
            }
        }
        flat.sort((x, y) -> x.key().compareTo(y.key()));
        int unique = 0;
        for (Keyed k : flat) {
            if (unique == 0 || !flat.get(unique - 1).key().equals(k.key())) {
                flat.set(unique++, k);
            }
        }
        flat.subList(unique, flat.size()).clear();
        absorb(and, flat);
        if (flat.isEmpty()) {
            return and ? ALL : NONE;
        }
        if (flat.size() == 1) {
            return flat.get(0).query();
        }
        Query[] sorted = new Query[flat.size()];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = flat.get(i).query();
        }
        return and ? new And(List.of(sorted)) : new Or(List.of(sorted));
    }

    /** An operand and its s-expression, the key it is deduplicated and ordered by. */
    record Keyed(String key, Query query) {}
}
