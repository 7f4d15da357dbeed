package io.trigrep.re2j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * A read-only view of the syntax tree RE2J parses a {@link Pattern} into, for analyses that must
 * see the expression exactly as RE2J does (a query planner reading the literals every match
 * holds) instead of parsing it a second time. RE2J keeps its tree ({@code Regexp}) package-private;
 * this class is trigrep's second addition to the vendored copy (see NOTICE). Two trees per
 * pattern: {@link #parsed} as RE2J's parser leaves it (counted repeats kept as {@link Op#REPEAT}),
 * and {@link #simplified}, the one RE2J compiles ({@code x{2,3}} becomes {@code xx(?:x)?}).
 */
public final class SyntaxTree {
    /** What a node matches; the names and meanings are RE2J's ({@code Regexp.Op}), less its parser's pseudo-ops. */
    public enum Op {
        /** Matches no string. */
        NO_MATCH,
        /** Matches the empty string. */
        EMPTY_MATCH,
        /** Matches {@link #runes()} in sequence, folding case if {@link #foldCase()}. */
        LITERAL,
        /** Matches one code point in the ranges {@link #runes()} ({@code [lo0, hi0, lo1, hi1, ...]}). */
        CHAR_CLASS,
        ANY_CHAR_NOT_NL,
        ANY_CHAR,
        BEGIN_LINE,
        END_LINE,
        BEGIN_TEXT,
        END_TEXT,
        WORD_BOUNDARY,
        NO_WORD_BOUNDARY,
        /** A capturing group around its one child. */
        CAPTURE,
        STAR,
        PLUS,
        QUEST,
        /** Its one child {@link #min()} to {@link #max()} times, max -1 for no limit. */
        REPEAT,
        CONCAT,
        ALTERNATE
    }

    /** RE2J's ops, mapped by name: an op added upstream fails here, at class load, not later. */
    private static final Map<Regexp.Op, Op> OPS = new EnumMap<>(Regexp.Op.class);

    static {
        for (Regexp.Op op : Regexp.Op.values()) {
            if (!op.isPseudo()) {
                OPS.put(op, Op.valueOf(op.name()));
            }
        }
    }

    private final Regexp re;

    private SyntaxTree(Regexp re) {
        assert !re.op.isPseudo() : "a parsed tree holds no pseudo-op, got " + re.op;
        this.re = re;
    }

    /** {@code pattern} as RE2J's parser reads it, with the pattern's flags. */
    public static SyntaxTree parsed(Pattern pattern) {
        return new SyntaxTree(parse(pattern));
    }

    /** The tree RE2J compiled {@code pattern} from: the parsed tree, simplified; no REPEAT is left. */
    public static SyntaxTree simplified(Pattern pattern) {
        return new SyntaxTree(Simplify.simplify(parse(pattern)));
    }

    /** Parses again what {@link Pattern#compile(String, int)} parsed: the same flags, applied in the same order. */
    private static Regexp parse(Pattern pattern) {
        int flags = pattern.flags();
        String regex = pattern.pattern();
        if ((flags & Pattern.CASE_INSENSITIVE) != 0) {
            regex = "(?i)" + regex;
        }
        if ((flags & Pattern.DOTALL) != 0) {
            regex = "(?s)" + regex;
        }
        if ((flags & Pattern.MULTILINE) != 0) {
            regex = "(?m)" + regex;
        }
        int mode = RE2.PERL;
        if ((flags & Pattern.DISABLE_UNICODE_GROUPS) != 0) {
            mode &= ~RE2.UNICODE_GROUPS;
        }
        return Parser.parse(regex, mode);
    }

    public Op op() {
        return OPS.get(re.op);
    }

    /** The children: one for CAPTURE, STAR, PLUS, QUEST and REPEAT, any number for CONCAT and ALTERNATE. */
    public List<SyntaxTree> subs() {
        if (re.subs == null || re.subs.length == 0) {
            return List.of();
        }
        List<SyntaxTree> subs = new ArrayList<>(re.subs.length);
        for (Regexp sub : re.subs) {
            subs.add(new SyntaxTree(sub));
        }
        return Collections.unmodifiableList(subs);
    }

    /** The code points of a LITERAL, the ranges of a CHAR_CLASS, else empty; a copy. */
    public int[] runes() {
        return re.runes == null ? new int[0] : Arrays.copyOf(re.runes, re.runes.length);
    }

    /** Whether a LITERAL matches its runes in either case. */
    public boolean foldCase() {
        return (re.flags & RE2.FOLD_CASE) != 0;
    }

    /**
     * The runes RE2J's case folding takes {@code rune} to match, {@code rune} included, ascending:
     * what each rune of a {@link #foldCase()} LITERAL matches ({@code k} also matches {@code K} and
     * the Kelvin sign). Walks the same orbit ({@code Unicode.simpleFold}) the matcher compares with.
     */
    public static int[] caseOrbit(int rune) {
        if (rune < 0 || rune > Unicode.MAX_RUNE) {
            throw new IllegalArgumentException("rune must be in [0, 0x10FFFF], got " + rune);
        }
        int size = 1;
        for (int r = Unicode.simpleFold(rune); r != rune; r = Unicode.simpleFold(r)) {
            size++;
        }
        int[] orbit = new int[size];
        orbit[0] = rune;
        for (int r = Unicode.simpleFold(rune), i = 1; r != rune; r = Unicode.simpleFold(r), i++) {
            orbit[i] = r;
        }
        Arrays.sort(orbit);
        return orbit;
    }

    public int min() {
        return re.min;
    }

    public int max() {
        return re.max;
    }

    /** The node in RE2's own syntax, as RE2J prints it. */
    @Override
    public String toString() {
        return re.toString();
    }
}
