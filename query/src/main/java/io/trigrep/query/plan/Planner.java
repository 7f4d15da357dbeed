package io.trigrep.query.plan;

import io.trigrep.re2j.Pattern;
import io.trigrep.re2j.PatternSyntaxException;
import io.trigrep.re2j.SyntaxTree;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns a regular expression into a trigram {@link Query} that every file with a match
 * satisfies, following the analysis in Russ Cox's "Regular Expression Matching with a Trigram
 * Index": for each sub-expression, whether it can match the empty string, its exact set of
 * matching strings when small, else sets of prefixes and suffixes every match starts and ends
 * with, and a query it implies. Sets are bounded; over a bound they are folded into the query
 * and shortened, which loses precision but never a match.
 *
 * <p>Strings here are byte strings (UTF-8), one Java char per byte.
 */
public final class Planner {
    private static final int MAX_EXACT = 16;
    private static final int MAX_SET = 32;
    private static final int MAX_EXACT_LENGTH = 12;

    private Planner() {}

    /**
     * The plan for {@code pattern} (RE2 syntax) or, when {@code literal}, for the string itself,
     * read off the tree RE2J parses the pattern into, so that the planner sees exactly what the
     * matcher compiles.
     */
    public static Query plan(String pattern, boolean literal, boolean caseInsensitive) {
        SyntaxTree tree;
        try {
            tree = SyntaxTree.parsed(Pattern.compile(
                    literal ? Pattern.quote(pattern) : pattern, caseInsensitive ? Pattern.CASE_INSENSITIVE : 0));
        } catch (PatternSyntaxException e) {
            // A search rejects such a pattern before planning; whoever plans it anyway loses no file.
            return Query.ALL;
        }
        if (tree.op() == SyntaxTree.Op.LITERAL && !tree.foldCase()) {
            return trigramsOf(tree.runes());
        }
        return analyzed(tree);
    }

    /**
     * A literal's plan, the conjunction of its UTF-8 bytes' trigrams, built at once. The analysis
     * reaches the same plan (the exact string, then once it is over {@link #MAX_EXACT_LENGTH}
     * bytes its trigrams and a short suffix that each next rune's trigrams extend), but with a
     * concatenation per rune, each combining the trigrams so far again, in the frontend and again
     * in every backend.
     */
    private static Query trigramsOf(int[] runes) {
        StringBuilder bytes = new StringBuilder(runes.length);
        for (int rune : runes) {
            bytes.append(utf8(rune));
        }
        return anyOf(List.of(bytes.toString()));
    }

    /**
     * The plan by the analysis alone, for any tree: what {@link #plan} returns for the trees it
     * takes no shorter way for.
     */
    static Query analyzed(SyntaxTree tree) {
        Info info = analyze(tree).simplify(true).addExact();
        Query match = info.match;
        if (info.exact == null) {
            // Every match starts with a prefix and ends with a suffix: both sets' trigrams apply.
            match = Query.and(match, Query.and(anyOf(info.prefix), anyOf(info.suffix)));
        }
        return match;
    }

    /** What is known about one sub-expression. {@code exact} is null when not known exactly. */
    private record Info(boolean canEmpty, Set<String> exact, Set<String> prefix, Set<String> suffix, Query match) {
        /** Folds the exact set into the query: a match is one of these strings, so it has all of one's trigrams. */
        Info addExact() {
            if (exact == null) {
                return this;
            }
            return new Info(canEmpty, exact, prefix, suffix, Query.and(match, anyOf(exact)));
        }

        Info simplify(boolean force) {
            Info info = this;
            if (info.exact != null
                    && (info.exact.size() > MAX_EXACT
                            || maxLength(info.exact) > MAX_EXACT_LENGTH
                            || (force && minLength(info.exact) >= 3))) {
                info = info.addExact();
                Set<String> prefix = new TreeSet<>();
                Set<String> suffix = new TreeSet<>();
                for (String s : info.exact) {
                    prefix.add(s.length() < 3 ? s : s.substring(0, 2));
                    suffix.add(s.length() < 3 ? s : s.substring(s.length() - 2));
                }
                info = new Info(info.canEmpty, null, prefix, suffix, info.match);
            }
            if (info.exact == null) {
                Query match = info.match;
                Set<String> prefix = info.prefix;
                Set<String> suffix = info.suffix;
                if (prefix.size() > MAX_SET || maxLength(prefix) > 3) {
                    match = Query.and(match, anyOf(prefix));
                    prefix = shrink(prefix, false);
                }
                if (suffix.size() > MAX_SET || maxLength(suffix) > 3) {
                    match = Query.and(match, anyOf(suffix));
                    suffix = shrink(suffix, true);
                }
                info = new Info(info.canEmpty, null, prefix, suffix, match);
            }
            return info;
        }
    }

    /** RE2J's parsed tree, not the simplified one: a counted repeat stays one node instead of its expansion. */
    private static Info analyze(SyntaxTree node) {
        return switch (node.op()) {
            case NO_MATCH -> noMatch();
            case EMPTY_MATCH, BEGIN_LINE, END_LINE, BEGIN_TEXT, END_TEXT, WORD_BOUNDARY, NO_WORD_BOUNDARY ->
                emptyString();
            case ANY_CHAR, ANY_CHAR_NOT_NL -> anyChar();
            case LITERAL -> literal(node.runes(), node.foldCase());
            case CHAR_CLASS -> charClass(node.runes());
            case CAPTURE -> analyze(node.subs().get(0));
            case STAR -> repeat(node.subs().get(0), 0, -1);
            case PLUS -> repeat(node.subs().get(0), 1, -1);
            case QUEST -> repeat(node.subs().get(0), 0, 1);
            case REPEAT -> repeat(node.subs().get(0), node.min(), node.max());
            case CONCAT -> {
                Info info = emptyString();
                for (SyntaxTree part : node.subs()) {
                    info = concat(info, analyze(part));
                }
                yield info;
            }
            case ALTERNATE -> {
                List<SyntaxTree> choices = node.subs();
                Info info = analyze(choices.get(0));
                for (int i = 1; i < choices.size(); i++) {
                    info = alternate(info, analyze(choices.get(i)));
                }
                yield info;
            }
        };
    }

    /** A literal is the concatenation of its runes; under case folding each rune is any rune of its orbit. */
    private static Info literal(int[] runes, boolean foldCase) {
        Info info = emptyString();
        for (int rune : runes) {
            Set<String> exact = new TreeSet<>();
            if (foldCase) {
                for (int variant : SyntaxTree.caseOrbit(rune)) {
                    exact.add(utf8(variant));
                }
            } else {
                exact.add(utf8(rune));
            }
            info = concat(info, new Info(false, exact, null, null, Query.ALL));
        }
        return info;
    }

    /** One rune out of the ranges {@code [lo0, hi0, lo1, hi1, ...]}: listed when few, else any character. */
    private static Info charClass(int[] ranges) {
        int size = 0;
        for (int i = 0; i < ranges.length; i += 2) {
            size += ranges[i + 1] - ranges[i] + 1;
        }
        if (size > MAX_EXACT) {
            return anyChar();
        }
        Set<String> exact = new TreeSet<>();
        for (int i = 0; i < ranges.length; i += 2) {
            for (int rune = ranges[i]; rune <= ranges[i + 1]; rune++) {
                exact.add(utf8(rune));
            }
        }
        return new Info(false, exact, null, null, Query.ALL);
    }

    /** {@code max} is -1 for no limit. */
    private static Info repeat(SyntaxTree sub, int min, int max) {
        if (max == 0) {
            return emptyString();
        }
        if (min == 0 && max != 1) {
            return star();
        }
        Info x = analyze(sub);
        if (min == 0) {
            return alternate(x, emptyString());
        }
        if (min == 1 && max == 1) {
            return x;
        }
        // x{n,m} with n >= 1 starts with k = min(n, 3) matches of x in a row and ends with k:
        // planned as that concatenation (k copies of one character make a trigram), exactly when
        // it is the whole of x{n}.
        int copies = Math.min(min, 3);
        Info run = x;
        for (int c = 1; c < copies; c++) {
            run = concat(run, x);
        }
        if (min == max && min == copies) {
            return run;
        }
        run = run.addExact();
        return new Info(x.canEmpty, null, prefixes(run), suffixes(run), run.match).simplify(false);
    }

    private static Info emptyString() {
        return new Info(true, Set.of(""), null, null, Query.ALL);
    }

    /** Matches no string (an empty class): the empty exact set, which a union ignores and a concatenation keeps empty. */
    private static Info noMatch() {
        return new Info(false, Set.of(), null, null, Query.ALL);
    }

    private static Info anyChar() {
        return new Info(false, null, Set.of(""), Set.of(""), Query.ALL);
    }

    private static Info star() {
        return new Info(true, null, Set.of(""), Set.of(""), Query.ALL);
    }

    private static Info concat(Info x, Info y) {
        Query match = Query.and(x.match, y.match);
        Set<String> exact = null;
        Set<String> prefix = null;
        Set<String> suffix = null;
        if (x.exact != null && y.exact != null) {
            exact = cross(x.exact, y.exact);
        } else {
            if (x.exact != null) {
                prefix = cross(x.exact, y.prefix);
            } else {
                prefix = x.canEmpty ? union(x.prefix, prefixes(y)) : x.prefix;
            }
            if (y.exact != null) {
                suffix = cross(x.suffix, y.exact);
            } else {
                suffix = y.canEmpty ? union(suffixes(x), y.suffix) : y.suffix;
            }
        }
        // Strings spanning the boundary: some suffix of x followed by some prefix of y.
        if (x.exact == null
                && y.exact == null
                && x.suffix.size() <= MAX_SET
                && y.prefix.size() <= MAX_SET
                && minLength(x.suffix) + minLength(y.prefix) >= 3) {
            match = Query.and(match, anyOf(cross(x.suffix, y.prefix)));
        }
        return new Info(x.canEmpty && y.canEmpty, exact, prefix, suffix, match).simplify(false);
    }

    /** Every match starts with one of these: the exact strings when known. */
    private static Set<String> prefixes(Info info) {
        return info.exact != null ? info.exact : info.prefix;
    }

    /** Every match ends with one of these: the exact strings when known. */
    private static Set<String> suffixes(Info info) {
        return info.exact != null ? info.exact : info.suffix;
    }

    private static Info alternate(Info x, Info y) {
        Set<String> exact = null;
        Set<String> prefix = null;
        Set<String> suffix = null;
        if (x.exact != null && y.exact != null) {
            exact = union(x.exact, y.exact);
        } else if (x.exact != null) {
            prefix = union(x.exact, y.prefix);
            suffix = union(x.exact, y.suffix);
            x = x.addExact();
        } else if (y.exact != null) {
            prefix = union(x.prefix, y.exact);
            suffix = union(x.suffix, y.exact);
            y = y.addExact();
        } else {
            prefix = union(x.prefix, y.prefix);
            suffix = union(x.suffix, y.suffix);
        }
        return new Info(x.canEmpty || y.canEmpty, exact, prefix, suffix, Query.or(x.match, y.match)).simplify(false);
    }

    /** OR over the strings of AND over each string's trigrams; a string shorter than 3 makes it ALL. */
    private static Query anyOf(Collection<String> strings) {
        List<Query> disjuncts = new ArrayList<>();
        for (String s : strings) {
            if (s.length() < 3) {
                return Query.ALL;
            }
            List<Query> trigrams = new ArrayList<>();
            for (int i = 0; i + 3 <= s.length(); i++) {
                trigrams.add(new Query.Trigram(s.charAt(i) << 16 | s.charAt(i + 1) << 8 | s.charAt(i + 2)));
            }
            disjuncts.add(Query.combine(true, trigrams));
        }
        return Query.combine(false, disjuncts);
    }

    /** Shortens prefixes (from the end) or suffixes (from the start) until the set is small. */
    private static Set<String> shrink(Set<String> set, boolean isSuffix) {
        int keep = 2;
        while (true) {
            Set<String> out = new TreeSet<>();
            for (String s : set) {
                if (s.length() > keep) {
                    s = isSuffix ? s.substring(s.length() - keep) : s.substring(0, keep);
                }
                out.add(s);
            }
            if (out.size() <= MAX_SET || keep == 0) {
                return out;
            }
            keep--;
        }
    }

    private static Set<String> cross(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>();
        for (String x : a) {
            for (String y : b) {
                out.add(x + y);
            }
        }
        return out;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> out = new TreeSet<>(a);
        out.addAll(b);
        return out;
    }

    private static int minLength(Set<String> set) {
        int min = Integer.MAX_VALUE;
        for (String s : set) {
            min = Math.min(min, s.length());
        }
        return set.isEmpty() ? 0 : min;
    }

    private static int maxLength(Set<String> set) {
        int max = 0;
        for (String s : set) {
            max = Math.max(max, s.length());
        }
        return max;
    }

    /**
     * The UTF-8 bytes of {@code rune} as a string of one char per byte; a surrogate gets the
     * three bytes RE2J's lenient decoder reads back as that surrogate.
     */
    private static String utf8(int rune) {
        if (rune < 0x80) {
            return String.valueOf((char) rune);
        }
        if (rune < 0x800) {
            return new String(new char[] {(char) (0xc0 | rune >> 6), (char) (0x80 | (rune & 0x3f))});
        }
        if (rune < 0x10000) {
            return new String(new char[] {
                (char) (0xe0 | rune >> 12), (char) (0x80 | (rune >> 6 & 0x3f)), (char) (0x80 | (rune & 0x3f))
            });
        }
        return new String(new char[] {
            (char) (0xf0 | rune >> 18),
            (char) (0x80 | (rune >> 12 & 0x3f)),
            (char) (0x80 | (rune >> 6 & 0x3f)),
            (char) (0x80 | (rune & 0x3f))
        });
    }
}
