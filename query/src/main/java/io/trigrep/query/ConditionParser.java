package io.trigrep.query;

import io.trigrep.re2j.Pattern;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a boolean query's pattern terms: operands (regexes, or {@code sym:REGEX} for the names of
 * the file's definitions) joined by the uppercase words
 * {@code AND}, {@code OR} and {@code NOT}, grouped with parentheses. Only a regex query with one
 * of those words as a term of its own is boolean, so every other query keeps the meaning it had
 * (one regex, spaces literal), and a literal query is always taken verbatim. Rules, as
 * frontend/API.md states them:
 * <ul>
 *   <li>Adjacent terms that are not operators form one operand, joined by single spaces, as a
 *       plain query's pattern is; a {@code sym:} term is an operand of its own.</li>
 *   <li>NOT binds tightest, then AND, then OR; an operand, group or NOT that follows another with
 *       no operator between is ANDed with it.</li>
 *   <li>A parenthesis groups when the operand's regex leaves it unbalanced: the {@code (}s at the
 *       start of a term that close nothing in it, and the {@code )}s at its end that open nothing.
 *       So {@code (malloc\( OR calloc\() AND NOT free\(} groups, while {@code (foo|bar)} stays a
 *       regex group. An operator word with parentheses glued to it is the operator:
 *       {@code (NOT a AND b)}.</li>
 * </ul>
 */
final class ConditionParser {
    /** Each operand is a regex compiled, planned and run on every candidate (or a name regex run on the shard's names): a bound on the work one query can ask. */
    static final int MAX_OPERANDS = 16;

    /** One whitespace-separated pattern term and where it starts in the raw query (0-based). */
    record Term(String text, int offset) {}

    /** The operands in order of appearance, and the condition over them. */
    record Parsed(List<ParsedQuery.Operand> operands, Condition condition) {}

    private enum Kind {
        WORD,
        SYM,
        OPEN,
        CLOSE,
        AND,
        OR,
        NOT
    }

    private record Token(Kind kind, String text, int offset) {}

    private final List<Token> tokens;
    private final List<ParsedQuery.Operand> operands = new ArrayList<>();
    private int next;

    private ConditionParser(List<Token> tokens) {
        this.tokens = tokens;
    }

    /** Whether the terms make a boolean query: one of them is an operator word. */
    static boolean isBoolean(List<Term> terms) {
        for (Term t : terms) {
            if (operator(t.text()) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * A literal query with {@code sym:} terms: the pattern {@code literal} (verbatim, operator
     * words and all; none when empty) ANDed with the {@code sym:} operands, in order of appearance.
     */
    static Parsed symbolsAndLiteral(List<Term> terms, String literal, int literalOffset) throws QueryException {
        ConditionParser parser = new ConditionParser(List.of());
        List<Condition> parts = new ArrayList<>();
        for (Term t : terms) {
            if (isSym(t.text())) {
                parts.add(parser.operand(new Token(Kind.SYM, t.text(), t.offset())));
            }
        }
        if (!literal.isEmpty()) {
            parts.add(parser.operand(new Token(Kind.WORD, Pattern.quote(literal), literalOffset)));
        }
        return new Parsed(List.copyOf(parser.operands), parts.size() == 1 ? parts.get(0) : new Condition.And(parts));
    }

    /** Whether a term, its grouping parentheses peeled off, is {@code sym:REGEX} (the key in any case, as filters' are). */
    private static boolean isSym(String word) {
        return word.regionMatches(true, 0, "sym:", 0, 4);
    }

    static Parsed parse(List<Term> terms) throws QueryException {
        ConditionParser parser = new ConditionParser(tokens(terms));
        Condition condition = parser.or();
        if (parser.next < parser.tokens.size()) {
            Token t = parser.tokens.get(parser.next);
            throw new QueryException(
                    t.kind == Kind.CLOSE ? "unexpected ) closes no group" : "unexpected " + t.text, t.offset + 1);
        }
        return new Parsed(List.copyOf(parser.operands), condition);
    }

    private static Kind operator(String term) {
        return switch (term) {
            case "AND" -> Kind.AND;
            case "OR" -> Kind.OR;
            case "NOT" -> Kind.NOT;
            default -> null;
        };
    }

    private static List<Token> tokens(List<Term> terms) throws QueryException {
        List<Token> out = new ArrayList<>();
        for (Term term : terms) {
            Kind op = operator(term.text());
            if (op != null) {
                out.add(new Token(op, term.text(), term.offset()));
                continue;
            }
            String text = term.text();
            int opens = Math.min(leading(text, '('), unbalanced(text)[0]);
            for (int i = 0; i < opens; i++) {
                out.add(new Token(Kind.OPEN, "(", term.offset() + i));
            }
            String rest = text.substring(opens);
            int closes = Math.min(trailing(rest, ')'), unbalanced(rest)[1]);
            String word = rest.substring(0, rest.length() - closes);
            if (word.regionMatches(true, 0, "-sym:", 0, 5)) {
                throw new QueryException(
                        "-sym: is not supported: write NOT sym:REGEX to exclude files defining a name",
                        term.offset() + opens + 1);
            }
            if (operator(word) != null) {
                // A parenthesis glued to an operator word groups: "(NOT a AND b)" is NOT, not the regex "NOT a".
                out.add(new Token(operator(word), word, term.offset() + opens));
            } else if (isSym(word)) {
                out.add(new Token(Kind.SYM, word, term.offset() + opens));
            } else if (!word.isEmpty()) {
                Token previous = out.isEmpty() ? null : out.get(out.size() - 1);
                if (previous != null && previous.kind == Kind.WORD) {
                    // Terms side by side are one operand, as in a plain query.
                    out.set(out.size() - 1, new Token(Kind.WORD, previous.text + " " + word, previous.offset));
                } else {
                    out.add(new Token(Kind.WORD, word, term.offset() + opens));
                }
            }
            for (int i = 0; i < closes; i++) {
                out.add(new Token(Kind.CLOSE, ")", term.offset() + text.length() - closes + i));
            }
        }
        return out;
    }

    private static int leading(String text, char c) {
        int n = 0;
        while (n < text.length() && text.charAt(n) == c) {
            n++;
        }
        return n;
    }

    private static int trailing(String text, char c) {
        int n = 0;
        while (n < text.length() && text.charAt(text.length() - 1 - n) == c) {
            n++;
        }
        return n;
    }

    /** {@code [opens left open, closes that close nothing]} in {@code text}, read as a regex (escapes and character classes skipped). */
    static int[] unbalanced(String text) {
        int depth = 0;
        int strayCloses = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                int j = i + 1;
                if (j < text.length() && text.charAt(j) == '^') {
                    j++;
                }
                if (j < text.length() && text.charAt(j) == ']') {
                    j++;
                }
                while (j < text.length() && text.charAt(j) != ']') {
                    j += text.charAt(j) == '\\' ? 2 : 1;
                }
                i = j;
            } else if (c == '(') {
                depth++;
            } else if (c == ')') {
                if (depth == 0) {
                    strayCloses++;
                } else {
                    depth--;
                }
            }
        }
        return new int[] {depth, strayCloses};
    }

    private Condition operand(Token t) throws QueryException {
        if (operands.size() == MAX_OPERANDS) {
            throw new QueryException("too many operands: the limit is " + MAX_OPERANDS, t.offset + 1);
        }
        if (t.kind == Kind.SYM) {
            if (t.text.length() == 4) {
                throw new QueryException("sym: needs a regex for the names", t.offset + 1);
            }
            operands.add(new ParsedQuery.Operand(t.text.substring(4), t.offset + 4, true));
        } else {
            operands.add(new ParsedQuery.Operand(t.text, t.offset));
        }
        return new Condition.Operand(operands.size() - 1);
    }

    private Token peek() {
        return next < tokens.size() ? tokens.get(next) : null;
    }

    private Condition or() throws QueryException {
        List<Condition> parts = new ArrayList<>();
        parts.add(and());
        while (peek() != null && peek().kind == Kind.OR) {
            next++;
            parts.add(and());
        }
        return parts.size() == 1 ? parts.get(0) : new Condition.Or(parts);
    }

    private Condition and() throws QueryException {
        List<Condition> parts = new ArrayList<>();
        parts.add(unary());
        while (true) {
            Token t = peek();
            if (t == null || t.kind == Kind.OR || t.kind == Kind.CLOSE) {
                break;
            }
            if (t.kind == Kind.AND) {
                next++;
            }
            parts.add(unary());
        }
        return parts.size() == 1 ? parts.get(0) : new Condition.And(parts);
    }

    private Condition unary() throws QueryException {
        Token t = peek();
        Token before = next > 0 ? tokens.get(next - 1) : null;
        if (t == null) {
            int at = before == null ? 0 : before.offset + before.text.length();
            throw new QueryException(
                    before == null
                            ? "empty query"
                            : before.kind == Kind.OPEN
                                    ? "( opens an empty group"
                                    : before.text + " needs an operand after it",
                    at + 1);
        }
        next++;
        switch (t.kind) {
            case NOT -> {
                return new Condition.Not(unary());
            }
            case OPEN -> {
                Condition inner = or();
                Token close = peek();
                if (close == null || close.kind != Kind.CLOSE) {
                    throw new QueryException("missing ) to close the group opened here", t.offset + 1);
                }
                next++;
                return inner;
            }
            case WORD, SYM -> {
                return operand(t);
            }
            case CLOSE ->
                throw new QueryException(
                        before != null && before.kind == Kind.OPEN
                                ? "( opens an empty group"
                                : "unexpected ) closes no group",
                        t.offset + 1);
            default -> throw new QueryException(t.text + " needs an operand before it", t.offset + 1);
        }
    }
}
