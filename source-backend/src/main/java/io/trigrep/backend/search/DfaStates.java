package io.trigrep.backend.search;

import io.trigrep.proto.Utf8;
import io.trigrep.re2j.CompiledProgram;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The states and transitions of a lazily built DFA over RE2J's compiled program, shared by the
 * line search ({@link LineDfa}) and the anchored match finder ({@link AnchoredDfa}). Each state
 * is the set of program counters the NFA would be at plus what the previous character was (line
 * start, word character or not), which decides {@code ^}, {@code \b} and {@code \B} when the
 * next character comes; {@code \A} and {@code \z} are the line's ends, as they are for RE2J run
 * on the line alone. States are made on first use; ASCII transitions are cached in a table,
 * others in a map. At {@link #MAX_STATES} states the cache is dropped and rebuilt from the
 * current state on, as RE2 does: memory stays bounded for patterns whose DFA would blow up, and
 * time stays linear in the input. Not thread-safe.
 *
 * <p>The two kinds differ only in how a state is made, so the flag that tells them apart is read
 * when a transition is first made, never on a cached one. Unanchored, a new thread starts after
 * every character (as an unanchored search does) and a transition on which a match ends is
 * {@link #MATCHED}. Anchored, only the matches that start where the DFA starts are followed, a
 * state whose threads all died is {@link #dead}, and a transition on which a match ends carries
 * {@link #MATCH_BIT} instead.
 */
final class DfaStates {
    static final int MAX_STATES = 2048;
    /** In the ASCII table: not made yet. */
    static final int UNKNOWN = -2;
    /** An unanchored transition on which a match ends (before the character). */
    static final int MATCHED = -1;
    /** In an anchored DFA's transitions: a match ends before the character. Above every state id. */
    static final int MATCH_BIT = 1 << 30;
    /** The start state: the first made, so its id survives every reset. */
    static final int START = 0;
    /** What came before the current position: it decides the empty-width assertions there. */
    private static final int AT_LINE_START = 0;

    private static final int AFTER_WORD = 1;
    private static final int AFTER_OTHER = 2;

    private final CompiledProgram program;
    private final boolean unanchored;
    private final Map<StateKey, Integer> ids = new HashMap<>();
    private int[][] pcs = new int[64][];
    private int[] before = new int[64];
    /** 0 unknown, 1 no, 2 yes: does the state match at the end of a line. */
    private byte[] atEnd = new byte[64];

    private int[] ascii = new int[64 * 128];
    private final RuneTransitions other = new RuneTransitions();
    private int states;
    /** How often the cache was dropped, for tests and benchmarks. */
    private int resets;
    /**
     * The idle states are those where no match has begun: the start state and the same thread
     * after a word or another character; -1 until {@link #internIdle} made them in this cache.
     */
    private int idleWord = -1;

    private int idleOther = -1;

    // Scratch for closures: a sparse set of pcs, and a stack.
    private final int[] dense;
    private final int[] sparse;
    private int size;
    private final int[] stack;

    @SuppressWarnings("ArrayRecordComponent") // equals and hashCode below compare the array's contents
    private record StateKey(int before, int[] pcs) {
        @Override
        public boolean equals(Object o) {
            return o instanceof StateKey k && k.before == before && Arrays.equals(k.pcs, pcs);
        }

        @Override
        public int hashCode() {
            return 31 * before + Arrays.hashCode(pcs);
        }
    }

    DfaStates(CompiledProgram program, boolean anchored) {
        this.program = program;
        this.unanchored = !anchored;
        int n = program.size();
        this.dense = new int[n];
        this.sparse = new int[n];
        // Each pc enters the closure once and pushes at most two successors; with the roots, 3n pushes in all.
        this.stack = new int[3 * n + 4];
        Arrays.fill(ascii, UNKNOWN);
        int start = state(new int[] {program.start()}, AT_LINE_START);
        assert start == START;
    }

    /**
     * The cached ASCII transitions, {@code [state << 7 | byte]}: a state, {@link #UNKNOWN} or
     * {@link #MATCHED} (anchored: a state, perhaps with {@link #MATCH_BIT}). A new array when the
     * cache grows: read it again after any call that may make a state.
     */
    int[] ascii() {
        return ascii;
    }

    /** How many states the cache holds. */
    int states() {
        return states;
    }

    int resets() {
        return resets;
    }

    /** The idle state after a word character; {@link #internIdle} first. */
    int idleWord() {
        return idleWord;
    }

    /** The idle state after another character; {@link #internIdle} first. */
    int idleOther() {
        return idleOther;
    }

    /** Whether {@code s} is the start state or an idle one (once interned). */
    boolean isIdle(int s) {
        return s == START || s == idleWord || s == idleOther;
    }

    /** Makes the idle states, when this cache does not hold them yet. */
    void internIdle() {
        if (idleWord < 0) {
            idleWord = state(new int[] {program.start()}, AFTER_WORD);
            idleOther = state(new int[] {program.start()}, AFTER_OTHER);
        }
    }

    /** Whether every thread of anchored state {@code s} died: no match lies ahead. */
    boolean dead(int s) {
        return pcs[s].length == 0;
    }

    /** Drops every state but the start and {@code s}; returns {@code s}'s new id. */
    private int reset(int s) {
        int[] keepPcs = pcs[s];
        int keepBefore = before[s];
        ids.clear();
        other.clear();
        Arrays.fill(ascii, 0, states << 7, UNKNOWN);
        Arrays.fill(atEnd, 0, states, (byte) 0);
        states = 0;
        resets++;
        idleWord = -1;
        idleOther = -1;
        int start = state(new int[] {program.start()}, AT_LINE_START);
        assert start == START;
        return state(keepPcs, keepBefore);
    }

    /** The state of a pass that starts at byte {@code from} of a line: the start state at its start, else idle after what precedes. */
    int startingAt(byte[] content, int lineStart, int from) {
        if (from == lineStart) {
            return START;
        }
        internIdle();
        return CompiledProgram.isWordRune(content[from - 1]) ? idleWord : idleOther;
    }

    /** The transition from {@code s} on the rune at byte {@code i}, made and cached when new, as {@code width << 32 | target}. */
    long transition(int s, byte[] content, int i, int lineEnd) {
        int b = content[i];
        if (b >= 0) {
            int t = ascii[(s << 7) | b];
            return 1L << 32 | ((t == UNKNOWN ? asciiStep(s, b) : t) & 0xffffffffL);
        }
        long rune = Utf8.rune(content, i, lineEnd);
        return rune >>> 32 << 32 | (runeStep(s, (int) rune) & 0xffffffffL);
    }

    /** The transition of {@code s} on ASCII byte {@code b}, made and cached (dropping the cache when full). */
    int asciiStep(int s, int b) {
        if (states >= MAX_STATES) {
            s = reset(s);
        }
        int t = b == '\n' ? (matchesAtEnd(s) ? MATCHED : START) : step(s, b);
        ascii[(s << 7) | b] = t;
        return t;
    }

    /** The transition of {@code s} on a non-ASCII code point, made and cached (dropping the cache when full). */
    int runeStep(int s, int rune) {
        int t = other.get(s, rune);
        if (t == UNKNOWN) {
            if (states >= MAX_STATES) {
                s = reset(s);
            }
            t = step(s, rune);
            other.put(s, rune, t);
        }
        return t;
    }

    /** Whether state {@code s} holds a match when the line ends there. */
    boolean matchesAtEnd(int s) {
        if (atEnd[s] == 0) {
            int flags = CompiledProgram.EMPTY_END_LINE | CompiledProgram.EMPTY_END_TEXT | boundary(before[s], false);
            atEnd[s] = (byte) (closure(pcs[s], flags) ? 2 : 1);
        }
        return atEnd[s] == 2;
    }

    /** The state after {@code s} reads {@code rune}, or MATCHED when a match ends before it. */
    private int step(int s, int rune) {
        boolean word = CompiledProgram.isWordRune(rune);
        int flags = boundary(before[s], word);
        boolean matched = closure(pcs[s], flags);
        if (matched && unanchored) {
            return MATCHED;
        }
        // The threads that consume the rune, then a new one starting after it.
        int[] next = new int[size + 1];
        int n = 0;
        for (int k = 0; k < size; k++) {
            int pc = dense[k];
            int op = program.op(pc);
            if (op >= CompiledProgram.RUNE && op <= CompiledProgram.RUNE_ANY_NOT_NL && program.matchRune(pc, rune)) {
                next[n++] = program.out(pc);
            }
        }
        if (unanchored) {
            next[n++] = program.start();
        }
        int[] set = Arrays.copyOf(next, n);
        Arrays.sort(set);
        return state(dedupe(set), word ? AFTER_WORD : AFTER_OTHER) | (matched ? MATCH_BIT : 0);
    }

    /** The empty-width flags that hold between what came before and a character that is (or is not) a word character. */
    private static int boundary(int before, boolean nextIsWord) {
        int flags = 0;
        if (before == AT_LINE_START) {
            flags |= CompiledProgram.EMPTY_BEGIN_LINE | CompiledProgram.EMPTY_BEGIN_TEXT;
        }
        boolean prevIsWord = before == AFTER_WORD;
        return flags
                | (prevIsWord != nextIsWord
                        ? CompiledProgram.EMPTY_WORD_BOUNDARY
                        : CompiledProgram.EMPTY_NO_WORD_BOUNDARY);
    }

    /**
     * Follows every empty transition from {@code roots} under {@code flags} into the scratch set
     * (the instructions that consume a rune, and MATCH); returns whether MATCH is reached.
     */
    private boolean closure(int[] roots, int flags) {
        size = 0;
        boolean matched = false;
        int top = 0;
        for (int r = roots.length - 1; r >= 0; r--) {
            stack[top++] = roots[r];
        }
        while (top > 0) {
            int pc = stack[--top];
            int at = sparse[pc];
            if (at < size && dense[at] == pc) {
                continue;
            }
            sparse[pc] = size;
            dense[size++] = pc;
            switch (program.op(pc)) {
                case CompiledProgram.ALT, CompiledProgram.ALT_MATCH -> {
                    stack[top++] = program.arg(pc);
                    stack[top++] = program.out(pc);
                }
                case CompiledProgram.NOP, CompiledProgram.CAPTURE -> stack[top++] = program.out(pc);
                case CompiledProgram.EMPTY_WIDTH -> {
                    if ((program.arg(pc) & ~flags) == 0) {
                        stack[top++] = program.out(pc);
                    }
                }
                case CompiledProgram.MATCH -> matched = true;
                default -> {
                    // a rune instruction waits for the next character; FAIL goes nowhere
                }
            }
        }
        return matched;
    }

    private static int[] dedupe(int[] sorted) {
        int n = 0;
        for (int i = 0; i < sorted.length; i++) {
            if (n == 0 || sorted[n - 1] != sorted[i]) {
                sorted[n++] = sorted[i];
            }
        }
        return n == sorted.length ? sorted : Arrays.copyOf(sorted, n);
    }

    private int state(int[] set, int before) {
        StateKey key = new StateKey(before, set);
        Integer id = ids.get(key);
        if (id != null) {
            return id;
        }
        int s = states++;
        if (s == pcs.length) {
            pcs = Arrays.copyOf(pcs, 2 * s);
            this.before = Arrays.copyOf(this.before, 2 * s);
            atEnd = Arrays.copyOf(atEnd, 2 * s);
            int old = ascii.length;
            ascii = Arrays.copyOf(ascii, 2 * old);
            Arrays.fill(ascii, old, ascii.length, UNKNOWN);
        }
        pcs[s] = set;
        this.before[s] = before;
        ids.put(key, s);
        return s;
    }
}
