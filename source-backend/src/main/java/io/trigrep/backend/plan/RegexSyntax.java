package io.trigrep.backend.plan;

import java.util.ArrayList;
import java.util.List;

/**
 * A parser of RE2 syntax into the small tree the planner analyses. It need not accept everything
 * RE2 accepts: re2j validates every query first, and a construct this parser does not model is
 * either widened to "any character" or makes {@link #parse} throw, after which the planner falls
 * back to scanning every file. It must never narrow: a node stands for at least what it matches.
 */
final class RegexSyntax {
    /** A node of the tree. */
    sealed interface Node permits Chars, AnyChar, Empty, Concat, Alt, Repeat {}

    /** One character out of a set of code points, given as sorted inclusive ranges {@code [lo0, hi0, lo1, hi1, ...]}. */
    record Chars(int[] ranges) implements Node {
        int size() {
            int n = 0;
            for (int i = 0; i < ranges.length; i += 2) {
                n += ranges[i + 1] - ranges[i] + 1;
            }
            return n;
        }
    }

    /** Any one character, or a set too large to be worth enumerating. */
    record AnyChar() implements Node {}

    /** Matches the empty string: anchors, word boundaries, empty groups. */
    record Empty() implements Node {}

    record Concat(List<Node> parts) implements Node {}

    record Alt(List<Node> choices) implements Node {}

    /** {@code max} is -1 for unbounded. */
    record Repeat(Node node, int min, int max) implements Node {}

    static final class UnsupportedSyntax extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnsupportedSyntax(String message) {
            super(message);
        }
    }

    private static final int MAX_CLASS = 64;

    private final String pattern;
    private int at;

    private RegexSyntax(String pattern) {
        this.pattern = pattern;
    }

    static Node parse(String pattern, boolean caseInsensitive) {
        RegexSyntax parser = new RegexSyntax(pattern);
        Node node = parser.alternation(caseInsensitive);
        if (parser.at != pattern.length()) {
            throw new UnsupportedSyntax("unexpected " + pattern.charAt(parser.at) + " at " + parser.at);
        }
        return node;
    }

    /** Flags are scoped: a group's (?i) does not leak out of it. */
    private Node alternation(boolean fold) {
        boolean[] flags = {fold};
        List<Node> choices = new ArrayList<>();
        choices.add(concatenation(flags));
        while (at < pattern.length() && pattern.charAt(at) == '|') {
            at++;
            choices.add(concatenation(flags));
        }
        return choices.size() == 1 ? choices.get(0) : new Alt(choices);
    }

    private Node concatenation(boolean[] fold) {
        List<Node> parts = new ArrayList<>();
        while (at < pattern.length() && pattern.charAt(at) != '|' && pattern.charAt(at) != ')') {
            Node atom = atom(fold);
            if (atom == null) {
                continue;
            }
            parts.add(repetition(atom));
        }
        return parts.isEmpty() ? new Empty() : parts.size() == 1 ? parts.get(0) : new Concat(parts);
    }

    private Node repetition(Node atom) {
        while (at < pattern.length()) {
            char c = pattern.charAt(at);
            int min;
            int max;
            if (c == '*') {
                min = 0;
                max = -1;
                at++;
            } else if (c == '+') {
                min = 1;
                max = -1;
                at++;
            } else if (c == '?') {
                min = 0;
                max = 1;
                at++;
            } else if (c == '{' && isCount(at)) {
                int close = pattern.indexOf('}', at);
                String body = pattern.substring(at + 1, close);
                int comma = body.indexOf(',');
                min = Integer.parseInt(comma < 0 ? body : body.substring(0, comma));
                max = comma < 0 ? min : comma == body.length() - 1 ? -1 : Integer.parseInt(body.substring(comma + 1));
                at = close + 1;
            } else {
                return atom;
            }
            if (at < pattern.length() && pattern.charAt(at) == '?') {
                at++; // non-greedy: same strings
            }
            atom = new Repeat(atom, min, max);
        }
        return atom;
    }

    private boolean isCount(int from) {
        int close = pattern.indexOf('}', from);
        return close > from + 1 && pattern.substring(from + 1, close).matches("\\d+(,\\d*)?");
    }

    /** One atom, or null for a flag group like (?i) that only changes {@code fold}. */
    private Node atom(boolean[] fold) {
        char c = pattern.charAt(at);
        switch (c) {
            case '(' -> {
                return group(fold);
            }
            case '[' -> {
                return charClass(fold[0]);
            }
            case '.' -> {
                at++;
                return new AnyChar();
            }
            case '^', '$' -> {
                at++;
                return new Empty();
            }
            case '\\' -> {
                return escape(fold[0]);
            }
            default -> {
                int cp = pattern.codePointAt(at);
                at += Character.charCount(cp);
                return literal(cp, fold[0]);
            }
        }
    }

    private Node group(boolean[] fold) {
        at++;
        boolean inner = fold[0];
        if (pattern.startsWith("?", at)) {
            at++;
            if (pattern.startsWith("P<", at) || pattern.startsWith("<", at)) {
                int close = pattern.indexOf('>', at);
                if (close < 0) {
                    throw new UnsupportedSyntax("unterminated group name");
                }
                at = close + 1;
            } else {
                // Flags: (?flags) or (?flags:...)
                boolean negate = false;
                boolean newFold = inner;
                while (at < pattern.length() && pattern.charAt(at) != ')' && pattern.charAt(at) != ':') {
                    char f = pattern.charAt(at++);
                    if (f == '-') {
                        negate = true;
                    } else if (f == 'i') {
                        newFold = !negate;
                    } else if (f != 's' && f != 'm' && f != 'U') {
                        throw new UnsupportedSyntax("flag " + f);
                    }
                }
                if (at >= pattern.length()) {
                    throw new UnsupportedSyntax("unterminated flags");
                }
                if (pattern.charAt(at) == ')') {
                    at++;
                    fold[0] = newFold;
                    return null;
                }
                at++; // ':'
                inner = newFold;
            }
        }
        Node body = alternation(inner);
        if (at >= pattern.length() || pattern.charAt(at) != ')') {
            throw new UnsupportedSyntax("missing )");
        }
        at++;
        return body;
    }

    private Node escape(boolean fold) {
        at++;
        if (at >= pattern.length()) {
            throw new UnsupportedSyntax("trailing backslash");
        }
        char c = pattern.charAt(at++);
        switch (c) {
            case 'b', 'B', 'A', 'z' -> {
                return new Empty();
            }
            case 'd' -> {
                return new Chars(new int[] {'0', '9'});
            }
            case 'w' -> {
                return new Chars(new int[] {'0', '9', 'A', 'Z', '_', '_', 'a', 'z'});
            }
            case 's' -> {
                return new Chars(new int[] {'\t', '\n', '\f', '\r', ' ', ' '});
            }
            case 'D', 'W', 'S', 'p', 'P', 'C' -> {
                if ((c == 'p' || c == 'P') && at < pattern.length() && pattern.charAt(at) == '{') {
                    int close = pattern.indexOf('}', at);
                    at = close < 0 ? pattern.length() : close + 1;
                } else if (c == 'p' || c == 'P') {
                    at++;
                }
                return new AnyChar();
            }
            case 'Q' -> {
                int end = pattern.indexOf("\\E", at);
                String quoted = pattern.substring(at, end < 0 ? pattern.length() : end);
                at = end < 0 ? pattern.length() : end + 2;
                List<Node> parts = new ArrayList<>();
                quoted.codePoints().forEach(cp -> parts.add(literal(cp, fold)));
                return parts.isEmpty() ? new Empty() : parts.size() == 1 ? parts.get(0) : new Concat(parts);
            }
            case 'x' -> {
                return literal(hex(), fold);
            }
            case 'n' -> {
                return literal('\n', fold);
            }
            case 't' -> {
                return literal('\t', fold);
            }
            case 'r' -> {
                return literal('\r', fold);
            }
            case 'f' -> {
                return literal('\f', fold);
            }
            case 'v' -> {
                return literal(0x0b, fold);
            }
            case 'a' -> {
                return literal(0x07, fold);
            }
            default -> {
                if (c >= '0' && c <= '7') {
                    int value = c - '0';
                    for (int i = 0; i < 2 && at < pattern.length() && pattern.charAt(at) >= '0' && pattern.charAt(at) <= '7'; i++) {
                        value = value * 8 + pattern.charAt(at++) - '0';
                    }
                    return literal(value, fold);
                }
                if (Character.isLetterOrDigit(c)) {
                    throw new UnsupportedSyntax("escape \\" + c);
                }
                return literal(c, fold);
            }
        }
    }

    private int hex() {
        if (at < pattern.length() && pattern.charAt(at) == '{') {
            int close = pattern.indexOf('}', at);
            int value = Integer.parseInt(pattern.substring(at + 1, close), 16);
            at = close + 1;
            return value;
        }
        int value = Integer.parseInt(pattern.substring(at, at + 2), 16);
        at += 2;
        return value;
    }

    private Node charClass(boolean fold) {
        at++;
        boolean negated = at < pattern.length() && pattern.charAt(at) == '^';
        if (negated) {
            at++;
        }
        List<int[]> ranges = new ArrayList<>();
        boolean any = false;
        boolean first = true;
        while (true) {
            if (at >= pattern.length()) {
                throw new UnsupportedSyntax("unterminated class");
            }
            char c = pattern.charAt(at);
            if (c == ']' && !first) {
                at++;
                break;
            }
            first = false;
            if (c == '[' && pattern.startsWith("[:", at)) {
                int close = pattern.indexOf(":]", at);
                if (close < 0) {
                    throw new UnsupportedSyntax("unterminated POSIX class");
                }
                at = close + 2;
                any = true;
                continue;
            }
            int lo;
            if (c == '\\') {
                int save = at;
                Node escaped = escape(false);
                if (escaped instanceof Chars chars && chars.ranges().length == 2 && chars.ranges()[0] == chars.ranges()[1]) {
                    lo = chars.ranges()[0];
                } else if (escaped instanceof Chars chars) {
                    for (int i = 0; i < chars.ranges().length; i += 2) {
                        ranges.add(new int[] {chars.ranges()[i], chars.ranges()[i + 1]});
                    }
                    continue;
                } else if (escaped instanceof AnyChar) {
                    any = true;
                    continue;
                } else {
                    throw new UnsupportedSyntax("escape in class at " + save);
                }
            } else {
                lo = pattern.codePointAt(at);
                at += Character.charCount(lo);
            }
            int hi = lo;
            if (at + 1 < pattern.length() && pattern.charAt(at) == '-' && pattern.charAt(at + 1) != ']') {
                at++;
                if (pattern.charAt(at) == '\\') {
                    Node escaped = escape(false);
                    if (!(escaped instanceof Chars chars) || chars.ranges().length != 2 || chars.ranges()[0] != chars.ranges()[1]) {
                        throw new UnsupportedSyntax("range to a class");
                    }
                    hi = chars.ranges()[0];
                } else {
                    hi = pattern.codePointAt(at);
                    at += Character.charCount(hi);
                }
            }
            ranges.add(new int[] {lo, hi});
        }
        if (negated || any) {
            return new AnyChar();
        }
        if (fold) {
            List<int[]> folded = new ArrayList<>(ranges);
            for (int[] r : ranges) {
                if (r[1] >= 0x80) {
                    return new AnyChar();
                }
                for (int cp = r[0]; cp <= r[1] && cp - r[0] < MAX_CLASS; cp++) {
                    for (int variant : caseVariants(cp)) {
                        folded.add(new int[] {variant, variant});
                    }
                }
                if (r[1] - r[0] >= MAX_CLASS) {
                    return new AnyChar();
                }
            }
            ranges = folded;
        }
        return chars(ranges);
    }

    private static Node literal(int cp, boolean fold) {
        if (!fold) {
            return new Chars(new int[] {cp, cp});
        }
        if (cp >= 0x80) {
            // Unicode case folding has orbits Java's case mapping does not model; never narrow.
            return new AnyChar();
        }
        List<int[]> ranges = new ArrayList<>();
        ranges.add(new int[] {cp, cp});
        for (int variant : caseVariants(cp)) {
            ranges.add(new int[] {variant, variant});
        }
        return chars(ranges);
    }

    /** Every code point that an ASCII {@code cp} matches case-insensitively in RE2, besides itself. */
    static List<Integer> caseVariants(int cp) {
        List<Integer> out = new ArrayList<>();
        if (cp >= 'a' && cp <= 'z') {
            out.add(cp - 32);
        } else if (cp >= 'A' && cp <= 'Z') {
            out.add(cp + 32);
        }
        // RE2 folds k with the Kelvin sign and s with the long s; include the known orbits.
        if (cp == 'k' || cp == 'K') {
            out.add(0x212A);
        } else if (cp == 's' || cp == 'S') {
            out.add(0x017F);
        }
        return out;
    }

    private static Node chars(List<int[]> ranges) {
        ranges.sort((a, b) -> Integer.compare(a[0], b[0]));
        List<int[]> merged = new ArrayList<>();
        for (int[] r : ranges) {
            if (!merged.isEmpty() && r[0] <= merged.get(merged.size() - 1)[1] + 1) {
                int[] last = merged.get(merged.size() - 1);
                last[1] = Math.max(last[1], r[1]);
            } else {
                merged.add(new int[] {r[0], r[1]});
            }
        }
        int[] flat = new int[merged.size() * 2];
        int size = 0;
        for (int i = 0; i < merged.size(); i++) {
            flat[2 * i] = merged.get(i)[0];
            flat[2 * i + 1] = merged.get(i)[1];
            size += merged.get(i)[1] - merged.get(i)[0] + 1;
        }
        return size > MAX_CLASS ? new AnyChar() : new Chars(flat);
    }
}
