package io.trigrep.re2j;

/**
 * The instructions RE2J compiled a {@link Pattern} into, for trigrep's DFA
 * ({@code io.trigrep.backend.search.LineDfa}), which walks the same program a state set at a time
 * and so needs the program, not just a matcher. RE2J keeps its compiler's output package-private;
 * this class is trigrep's one addition to the vendored copy (see NOTICE) and sits in its package to
 * read it. The program is not copied or changed: the DFA matches exactly what RE2J matches.
 */
public final class CompiledProgram {
    public static final int ALT = Inst.ALT;
    public static final int ALT_MATCH = Inst.ALT_MATCH;
    public static final int CAPTURE = Inst.CAPTURE;
    public static final int EMPTY_WIDTH = Inst.EMPTY_WIDTH;
    public static final int FAIL = Inst.FAIL;
    public static final int MATCH = Inst.MATCH;
    public static final int NOP = Inst.NOP;
    public static final int RUNE = Inst.RUNE;
    public static final int RUNE1 = Inst.RUNE1;
    public static final int RUNE_ANY = Inst.RUNE_ANY;
    public static final int RUNE_ANY_NOT_NL = Inst.RUNE_ANY_NOT_NL;

    public static final int EMPTY_BEGIN_LINE = Utils.EMPTY_BEGIN_LINE;
    public static final int EMPTY_END_LINE = Utils.EMPTY_END_LINE;
    public static final int EMPTY_BEGIN_TEXT = Utils.EMPTY_BEGIN_TEXT;
    public static final int EMPTY_END_TEXT = Utils.EMPTY_END_TEXT;
    public static final int EMPTY_WORD_BOUNDARY = Utils.EMPTY_WORD_BOUNDARY;
    public static final int EMPTY_NO_WORD_BOUNDARY = Utils.EMPTY_NO_WORD_BOUNDARY;

    private final Inst[] inst;
    private final int start;

    private CompiledProgram(Prog prog) {
        this.inst = java.util.Arrays.copyOf(prog.inst, prog.numInst());
        this.start = prog.start;
    }

    public static CompiledProgram of(Pattern pattern) {
        return new CompiledProgram(pattern.re2().prog);
    }

    public int size() {
        return inst.length;
    }

    public int start() {
        return start;
    }

    public int op(int pc) {
        return inst[pc].op;
    }

    public int out(int pc) {
        return inst[pc].out;
    }

    /** The second branch of ALT, or the EMPTY_* flags of EMPTY_WIDTH. */
    public int arg(int pc) {
        return inst[pc].arg;
    }

    /** The one code point a RUNE1 instruction consumes (exactly, no case folding). */
    public int rune1(int pc) {
        return inst[pc].runes[0];
    }

    /** Whether the rune instruction at {@code pc} consumes code point {@code rune}, folding case as RE2J does. */
    public boolean matchRune(int pc, int rune) {
        Inst i = inst[pc];
        return switch (i.op) {
            case Inst.RUNE_ANY -> true;
            case Inst.RUNE_ANY_NOT_NL -> rune != '\n';
            case Inst.RUNE1 -> rune == i.runes[0];
            default -> i.matchRune(rune);
        };
    }

    /** RE2J's word characters for \b: ASCII letters, digits and underscore. */
    public static boolean isWordRune(int rune) {
        return Utils.isWordRune(rune);
    }
}
