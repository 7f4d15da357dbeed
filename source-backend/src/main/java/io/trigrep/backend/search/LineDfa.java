package io.trigrep.backend.search;

import io.trigrep.indexer.bytes.Swar;
import io.trigrep.proto.Utf8;
import io.trigrep.re2j.CompiledProgram;
import io.trigrep.re2j.Pattern;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Which lines of a file hold a match of a regex, a byte at a time, as grep and codesearch find
 * them: a lazily built DFA over RE2J's own compiled program. Each DFA state is the set of program
 * counters the NFA would be at (a new thread starting at every position, as an unanchored search
 * does) plus what the previous character was (line start, word character or not), which decides
 * {@code ^}, {@code \b} and {@code \B} when the next character comes. A line matches once a state
 * reaches MATCH, before some character or at the line's end; {@code \A} and {@code \z} are the
 * line's ends, as they are for RE2J run on the line alone. States are made on first use; ASCII
 * transitions are cached in a table, others in a map. At {@link #MAX_STATES} states the cache is
 * dropped and rebuilt from the current state on, as RE2 does: memory stays bounded for patterns
 * whose DFA would blow up, and time stays linear in the input. One per worker thread; not
 * thread-safe.
 */
final class LineDfa {
    /** Where a line-finding pass reports the lines that hold a match. */
    interface Lines {
        /**
         * A line {@code [start, end)} that holds a match, the earliest of whose matches ends at
         * {@code firstMatchEnd}; false stops the pass.
         */
        boolean line(int start, int end, int lineNumber, int firstMatchEnd);
    }

    static final int MAX_STATES = 2048;
    private static final int UNKNOWN = -2;
    private static final int MATCHED = -1;
    /** No state: a stop the inner loop of {@link #search} never meets. */
    private static final int NONE = -3;
    /** What came before the current position: it decides the empty-width assertions there. */
    private static final int AT_LINE_START = 0;
    private static final int AFTER_WORD = 1;
    private static final int AFTER_OTHER = 2;

    private final CompiledProgram program;
    private final boolean anchored;
    /** In an anchored DFA's transitions: a match ends before the character. Above every state id. */
    private static final int MATCH_BIT = 1 << 30;
    private final Map<StateKey, Integer> ids = new HashMap<>();
    private int[][] pcs = new int[64][];
    private int[] before = new int[64];
    /** 0 unknown, 1 no, 2 yes: does the state match at the end of a line. */
    private byte[] atEnd = new byte[64];
    private int[] ascii = new int[64 * 128];
    private final RuneTransitions other = new RuneTransitions();
    private int states;
    private int start;
    /** How often the cache was dropped, for tests and benchmarks. */
    private int resets;
    /**
     * The idle states are those where no match has begun: the start state and the same thread
     * after a word or another character. The ASCII bytes that lead out of them, as at most
     * {@link #MAX_EXIT_RANGES} ranges, each as two words for {@link #skipToExit}'s range test
     * ({@code (127 + hi + 1)} and {@code (127 - (lo - 1))} in every byte); null when they take more
     * ranges or when not yet looked at ({@link #skipKnown}). While idle the search jumps to the
     * next such byte, or byte of 0x80 or more, eight bytes at a time, as RE2 jumps with memchr to
     * a match's first byte. Ranges, not single bytes, let {@code [A-Z]{8}} jump too: its 26 exits
     * are one range.
     */
    static final int MAX_EXIT_RANGES = 3;
    private long[] exits;
    private boolean skipKnown;
    private int idleWord = -1;
    private int idleOther = -1;
    /** Whether {@link #idleWord} and {@link #idleOther} name states of the current cache. */
    private boolean idleValid;

    /**
     * An ASCII byte every match holds (the rarest such, by how often it appears in source code),
     * repeated in a word; 0 when none. When the idle states have too many exits to jump, the search
     * jumps instead from line start to the next line holding this byte: no other line can match.
     */
    private final long required;
    /**
     * A second byte every match holds, repeated in a word; 0 when none. A line the jump lands on
     * that lacks it is passed over without the DFA ({@code \w+_\w+\(}: the lines holding an
     * {@code _} but no {@code (}), eight bytes at a time.
     */
    private final long alsoRequired;
    /**
     * When every match ends at a line's end, after one of a few ASCII characters (as in
     * {@code [ \t]+$}): those bytes as a 128-bit mask, and bit 128 when the last character may
     * be non-ASCII; null otherwise. Then only a line whose last byte is one of them can match, and
     * the search looks at line ends first (measured: {@code [ \t]+$} exits its idle states on every
     * blank, so the DFA stepped through most of the text).
     */
    private final long[] lastBytes;
    private final int maxMatchRunes;
    private final int fixedMatchRunes;
    /** The bytes some match may hold, as {@link #lastBytes} holds its bytes. */
    private final long[] matchBytes;
    /** At most this many ASCII bytes may end a match for {@link #lastBytes} to be used: more would pass most lines. */
    static final int MAX_LAST_BYTES = 8;

    // Scratch for closures: a sparse set of pcs, and a stack.
    private final int[] dense;
    private final int[] sparse;
    private int size;
    private final int[] stack;

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

    LineDfa(Pattern pattern) {
        this(pattern, false);
    }

    /**
     * A DFA of the matches that start where it starts, for {@link #anchoredEnds}: no thread is
     * added after each character, a state whose threads all died is dead, and a transition
     * carries {@link #MATCH_BIT} when a match ends before its character instead of being MATCHED.
     */
    static LineDfa anchored(Pattern pattern) {
        return new LineDfa(pattern, true);
    }

    private LineDfa(Pattern pattern, boolean anchored) {
        this.anchored = anchored;
        this.program = CompiledProgram.of(pattern);
        int n = program.size();
        this.dense = new int[n];
        this.sparse = new int[n];
        // Each pc enters the closure once and pushes at most two successors; with the roots, 3n pushes in all.
        this.stack = new int[3 * n + 4];
        Arrays.fill(ascii, UNKNOWN);
        this.start = state(new int[] {program.start()}, AT_LINE_START);
        // What the line search jumps and cuts with; an anchored DFA only answers anchoredEnds.
        int b = anchored ? -1 : requiredByte(program);
        this.required = b < 0 ? 0 : Swar.broadcast(b);
        int b2 = b < 0 ? -1 : requiredByte(program, b);
        this.alsoRequired = b2 < 0 ? 0 : Swar.broadcast(b2);
        this.lastBytes = anchored ? null : lastBytesAtLineEnd(program);
        long lengths = anchored ? -1L << 32 : matchLengths(program);
        this.maxMatchRunes = (int) (lengths >> 32);
        int shortest = (int) lengths;
        this.fixedMatchRunes = maxMatchRunes > 0 && shortest == maxMatchRunes ? shortest : -1;
        this.matchBytes = new long[3];
        for (int pc = 0; pc < n && !anchored; pc++) {
            addRuneBytes(program, pc, matchBytes);
        }
    }

    /**
     * Punctuation from rarest to most common in source code, counted over 150 MB of the benchmark
     * corpus (every fifth file under 1 MB of 31 Debian packages): {@code ?} 61,000 times,
     * {@code (} 1.34 million, {@code _} 2.2 million. Letters, digits and blanks are commoner still.
     * (The order guessed before put {@code _} before {@code (}; {@code \w+_\w+\(} then jumped to
     * the commoner byte.)
     */
    private static final String RARITY = "?`^!~&|@<+$}{>']%[#=;/\\*:()\".,-_";

    /**
     * The rarest ASCII byte that every match must consume, or -1: a byte is required when MATCH
     * cannot be reached from the start once the instructions that consume exactly that byte are
     * removed. (A class that also holds the byte stays passable, so this can miss a required
     * byte but never names one that is not.)
     */
    static int requiredByte(CompiledProgram program) {
        return requiredByte(program, -1);
    }

    /** The rarest ASCII byte every match holds other than {@code except}, or -1. */
    static int requiredByte(CompiledProgram program, int except) {
        int best = -1;
        int bestRank = Integer.MAX_VALUE;
        for (int pc = 0; pc < program.size(); pc++) {
            if (program.op(pc) != CompiledProgram.RUNE1) {
                continue;
            }
            int rune = program.rune1(pc);
            int rank = RARITY.indexOf(rune);
            if (rune >= 128 || rune == '\n' || rune == except || rank < 0 && bestRank != Integer.MAX_VALUE) {
                continue;
            }
            int r = rank < 0 ? RARITY.length() : rank;
            if (r < bestRank && !matchReachableWithout(program, rune)) {
                best = rune;
                bestRank = r;
            }
        }
        return best;
    }

    private static boolean matchReachableWithout(CompiledProgram program, int rune) {
        boolean[] seen = new boolean[program.size()];
        int[] stack = new int[2 * program.size() + 2];
        int top = 0;
        stack[top++] = program.start();
        while (top > 0) {
            int pc = stack[--top];
            if (seen[pc]) {
                continue;
            }
            seen[pc] = true;
            switch (program.op(pc)) {
                case CompiledProgram.MATCH -> {
                    return true;
                }
                case CompiledProgram.ALT, CompiledProgram.ALT_MATCH -> {
                    stack[top++] = program.out(pc);
                    stack[top++] = program.arg(pc);
                }
                case CompiledProgram.FAIL -> { }
                case CompiledProgram.RUNE1 -> {
                    if (program.rune1(pc) != rune) {
                        stack[top++] = program.out(pc);
                    }
                }
                default -> stack[top++] = program.out(pc); // NOP, CAPTURE, EMPTY_WIDTH, other runes
            }
        }
        return false;
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
        skipKnown = false;
        idleValid = false;
        exits = null;
        pairFirst = 0;
        start = state(new int[] {program.start()}, AT_LINE_START);
        return state(keepPcs, keepBefore);
    }

    int resets() {
        return resets;
    }

    /**
     * Reports every line of {@code content[from, length)} that holds a match; {@code from} is
     * the start of line number {@code firstLine}. Returns false when {@code lines} stopped it.
     */
    boolean search(byte[] content, int length, int from, int firstLine, Lines lines) {
        // The hot loop is a byte, a table load and a compare: a newline is a transition like any
        // other (to the start state, or MATCHED when the line matches at its end), and lines are
        // counted only when one matches, eight bytes at a time.
        if (lastBytes != null) {
            return searchLineEnds(content, length, from, firstLine, lines);
        }
        if (!skipKnown) {
            learnExits();
        }
        boolean skipping = exits != null;
        int s = start;
        int lineNumber = firstLine;
        int counted = from;
        int[] table = ascii;
        int i = from;
        while (i < length) {
            if (s == start && required != 0 && !skipping) {
                // At a line start: go to the next line that holds the required byte.
                int j = nextByte(content, i, length, required);
                if (j >= length) {
                    return true;
                }
                int lineStart = LineMatcher.lineStart(content, j);
                if (alsoRequired != 0) {
                    int lineEnd = LineMatcher.lineEnd(content, length, j);
                    if (nextByte(content, lineStart, lineEnd, alsoRequired) >= lineEnd) {
                        i = lineEnd + 1; // no match on this line
                        continue;
                    }
                }
                // A match that holds this byte (or a later one) starts after the last byte before it
                // that no match holds: start there, idle, instead of at the line's start.
                int q = j;
                while (q > lineStart && mayBeInMatch(content[q - 1])) {
                    q--;
                }
                if (q > lineStart) {
                    s = startingAt(content, lineStart, q);
                    table = ascii; // interning the idle states may have grown the table
                    i = q;
                } else if (lineStart > i) {
                    i = lineStart;
                }
            }
            if (skipping && (s == start || s == idleWord || s == idleOther)) {
                int j = skipToExit(content, i, length);
                if (j != i) {
                    // Every byte skipped kept the search idle: only the last one's class matters.
                    int prev = content[j - 1];
                    s = prev == '\n' ? start : CompiledProgram.isWordRune(prev) ? idleWord : idleOther;
                    i = j;
                    if (i >= length) {
                        break;
                    }
                }
            }
            // The run between special events: cached ASCII transitions, until a byte of 0x80 or
            // more, an uncached or matching transition, or a state the jumps above start from.
            // Without this inner loop every byte paid for the checks above (measured: the DFA
            // loop was 60 % of a full scan's samples for [A-Z]{8}).
            int stopA = skipping || required != 0 ? start : NONE;
            int stopB = skipping ? idleWord : NONE;
            int stopC = skipping ? idleOther : NONE;
            int ranFrom = i;
            long ran = run(content, i, length, table, s, stopA, stopB, stopC);
            i = (int) ran;
            s = (int) (ran >>> 32);
            if (i >= length) {
                break;
            }
            if (i > ranFrom && (s == stopA || s == stopB || s == stopC)) {
                continue; // back in a state the jumps start from (a run that stops otherwise never ends in one)
            }
            int b = content[i];
            int t = b >= 0 ? table[(s << 7) | b] : 0;
            int width = 1;
            if (b >= 0) {
                if (t == UNKNOWN) {
                    int before = resets;
                    t = asciiStep(s, b);
                    table = ascii;
                    // A dropped cache takes the idle states with it: no jumping until the next file.
                    skipping &= resets == before;
                }
            } else {
                long rune = Utf8.rune(content, i, length);
                width = (int) (rune >>> 32);
                int before = resets;
                t = runeStep(s, (int) rune);
                table = ascii;
                skipping &= resets == before;
            }
            if (t != MATCHED) {
                s = t;
                i += width;
                continue;
            }
            // The line holding byte i matches (at i itself when i is its newline).
            int lineStart = LineMatcher.lineStart(content, i);
            int lineEnd = LineMatcher.lineEnd(content, length, i);
            lineNumber += LineMatcher.countNewlines(content, counted, lineStart);
            if (!lines.line(lineStart, lineEnd, lineNumber, i)) {
                return false;
            }
            // The callback may have grown or dropped the cache (through matchEndFrom).
            table = ascii;
            skipping &= skipKnown;
            lineNumber++;
            counted = lineEnd + 1;
            s = start;
            i = lineEnd + 1;
        }
        if (i != length || length == from || content[length - 1] == '\n' || !matchesAtEnd(s)) {
            return true;
        }
        int lineStart = LineMatcher.lineStart(content, length);
        return lines.line(lineStart, length, lineNumber + LineMatcher.countNewlines(content, counted, lineStart), length);
    }

    /**
     * Follows cached ASCII transitions from state {@code s} at byte {@code i}; stops at
     * {@code length}, at a byte of 0x80 or more, before an uncached or matching transition, or
     * right after entering a stop state. Returns {@code state << 32 | index} where it stopped.
     * A method of its own so that the JIT compiles this loop alone, as tight as it gets.
     */
    private static long run(byte[] content, int i, int length, int[] table, int s, int stopA, int stopB, int stopC) {
        while (i < length) {
            int b = content[i];
            if (b < 0) {
                break;
            }
            int t = table[(s << 7) | b];
            if (t < 0) {
                break;
            }
            s = t;
            i++;
            if (t == stopA || t == stopB || t == stopC) {
                break;
            }
        }
        return (long) s << 32 | i;
    }

    /** {@link #search} for regexes whose matches all end at a line's end after one of {@link #lastBytes}. */
    private boolean searchLineEnds(byte[] content, int length, int from, int firstLine, Lines lines) {
        int lineNumber = firstLine;
        for (int lineStart = from; lineStart < length; lineNumber++) {
            int lineEnd = LineMatcher.lineEnd(content, length, lineStart);
            if (lineEnd > lineStart) {
                int last = content[lineEnd - 1];
                int bit = last < 0 ? 128 : last;
                if ((lastBytes[bit >>> 6] >>> bit & 1) != 0) {
                    int matchEnd = matchEndFrom(content, lineStart, lineStart, lineEnd);
                    if (matchEnd >= 0 && !lines.line(lineStart, lineEnd, lineNumber, matchEnd)) {
                        return false;
                    }
                }
            }
            lineStart = lineEnd + 1;
        }
        return true;
    }

    /**
     * The bytes that can end a match when every match ends at a line's end (see {@link #lastBytes}),
     * or null: when a match can end elsewhere, can be empty, or can end after more than
     * {@link #MAX_LAST_BYTES} ASCII characters. Follows the empty transitions after each
     * instruction that consumes a character, noting whether an end-of-line or end-of-text
     * assertion was passed before MATCH.
     */
    static long[] lastBytesAtLineEnd(CompiledProgram program) {
        int n = program.size();
        long[] mask = new long[3];
        if (reachesMatch(program, program.start(), n) != 0) {
            return null; // a match can be empty
        }
        for (int pc = 0; pc < n; pc++) {
            int op = program.op(pc);
            if (op < CompiledProgram.RUNE || op > CompiledProgram.RUNE_ANY_NOT_NL) {
                continue;
            }
            int reach = reachesMatch(program, program.out(pc), n);
            if ((reach & 1) != 0) {
                return null; // a match can end after this character without being at a line's end
            }
            if (reach == 0) {
                continue;
            }
            addRuneBytes(program, pc, mask);
        }
        return Long.bitCount(mask[0]) + Long.bitCount(mask[1]) <= MAX_LAST_BYTES ? mask : null;
    }

    /**
     * Adds the ASCII bytes instruction {@code pc} consumes to the 128-bit mask, and bit 128 when
     * it may consume a non-ASCII character; nothing when it consumes none.
     */
    private static void addRuneBytes(CompiledProgram program, int pc, long[] mask) {
        int op = program.op(pc);
        if (op < CompiledProgram.RUNE || op > CompiledProgram.RUNE_ANY_NOT_NL) {
            return;
        }
        for (int b = 0; b < 128; b++) {
            if (program.matchRune(pc, b)) {
                mask[b >>> 6] |= 1L << b;
            }
        }
        if (op != CompiledProgram.RUNE1 || program.rune1(pc) >= 128) {
            mask[2] |= 1;
        }
    }

    /**
     * Where the leftmost match that starts at or after {@code from} can start at the earliest,
     * given that the earliest such match ends at {@code matchEnd}: after the last byte before
     * {@code matchEnd} that no match holds (a match starting before it and ending at or after
     * {@code matchEnd} would hold it), at a character boundary.
     */
    int matchStartBound(byte[] content, int from, int matchEnd) {
        int q = matchEnd;
        while (q > from && mayBeInMatch(content[q - 1])) {
            q--;
        }
        return q;
    }

    /** Whether some match may hold byte {@code b} (a byte of 0x80 or more: when a match may hold a non-ASCII character). */
    private boolean mayBeInMatch(int b) {
        return b < 0 ? matchBytes[2] != 0 : (matchBytes[b >>> 6] >>> b & 1) != 0;
    }

    /**
     * Whether MATCH is reachable from {@code root} by empty transitions: bit 0 without passing an
     * end-of-line or end-of-text assertion, bit 1 after passing one. (Other assertions are
     * followed as if they held: the answer is a superset, which is what a filter needs.)
     */
    private static int reachesMatch(CompiledProgram program, int root, int n) {
        int endFlags = CompiledProgram.EMPTY_END_LINE | CompiledProgram.EMPTY_END_TEXT;
        boolean[] seen = new boolean[2 * n];
        int[] stack = new int[4 * n + 2];
        int top = 0;
        stack[top++] = root << 1;
        int reach = 0;
        while (top > 0) {
            int item = stack[--top];
            int pc = item >>> 1;
            int passed = item & 1;
            if (seen[item]) {
                continue;
            }
            seen[item] = true;
            switch (program.op(pc)) {
                case CompiledProgram.MATCH -> reach |= 1 << passed;
                case CompiledProgram.ALT, CompiledProgram.ALT_MATCH -> {
                    stack[top++] = program.out(pc) << 1 | passed;
                    stack[top++] = program.arg(pc) << 1 | passed;
                }
                case CompiledProgram.NOP, CompiledProgram.CAPTURE -> stack[top++] = program.out(pc) << 1 | passed;
                case CompiledProgram.EMPTY_WIDTH -> stack[top++] = program.out(pc) << 1
                        | ((program.arg(pc) & endFlags) != 0 ? 1 : passed);
                default -> { } // a character or FAIL: not an empty transition
            }
        }
        return reach;
    }

    private void internIdle() {
        idleWord = state(new int[] {program.start()}, AFTER_WORD);
        idleOther = state(new int[] {program.start()}, AFTER_OTHER);
        idleValid = true;
    }

    /** Fills the idle states' ASCII rows and notes the bytes that lead out of them, when they make few ranges. */
    private void learnExits() {
        skipKnown = true;
        exits = null;
        pairFirst = 0;
        if (states + 3 * 128 >= MAX_STATES) {
            return; // the rows could outgrow the cache; no skipping until the next reset
        }
        internIdle();
        int[] idle = {start, idleWord, idleOther};
        long[] found = new long[2 * MAX_EXIT_RANGES];
        int n = 0;
        int rangeStart = -1;
        for (int b = 0; b <= 128; b++) {
            boolean exit = false;
            if (b < 128) {
                for (int s : idle) {
                    int t = ascii[(s << 7) | b];
                    if (t == UNKNOWN) {
                        t = asciiStep(s, b); // no reset: the budget was checked above
                    }
                    exit |= t != start && t != idleWord && t != idleOther;
                }
            }
            if (exit && b == 0) {
                return; // the range test cannot take NUL in (its lower bound is exclusive): no skipping
            }
            if (exit && rangeStart < 0) {
                rangeStart = b;
            } else if (!exit && rangeStart >= 0) {
                if (n == found.length) {
                    return;
                }
                if (b - rangeStart > 1 && required != 0) {
                    // A wide range of exits (letters, say) stops the jump every few bytes; the jump to
                    // lines holding the required byte does better (measured: \b[a-z]\w*\s*=\s*\d+;
                    // took 3.5 times as long jumping to every lower-case letter).
                    return;
                }
                // bytes x with (rangeStart - 1) < x < b
                found[n++] = Swar.below(b);
                found[n++] = Swar.above(rangeStart - 1);
                rangeStart = -1;
            }
        }
        exits = java.util.Arrays.copyOf(found, n);
        if (n == 2) {
            learnPair(idle);
        }
    }

    /**
     * When a single byte {@code e} leads out of the idle states, always to one state E, and from E
     * only one byte {@code f} leads anywhere but back to idle or to E itself (E on {@code e}
     * staying E), the jump can go to the next {@code e} followed by {@code f} (as rg's prefilter
     * looks for a literal like {@code 0x}): every {@code e} not followed by {@code f} leaves the
     * search idle, or in E until the next {@code e}, which the landing state reproduces.
     */
    private void learnPair(int[] idle) {
        pairFirst = 0;
        if (states + 128 >= MAX_STATES) {
            return;
        }
        int e = 128 - (int) (exits[1] & 0xff); // the range's first byte
        if ((int) (exits[0] & 0xff) - 127 != e + 1) {
            return; // more than one byte
        }
        int exitState = -1;
        for (int s : idle) {
            int t = ascii[(s << 7) | e];
            if (t < 0 || exitState >= 0 && t != exitState) {
                return;
            }
            exitState = t;
        }
        int f = -1;
        for (int c = 0; c < 128; c++) {
            int t = ascii[(exitState << 7) | c];
            if (t == UNKNOWN) {
                t = asciiStep(exitState, c); // no reset: the budget was checked above
            }
            boolean back = t == start || t == idleWord || t == idleOther || t == exitState;
            if (c == e ? t != exitState : !back) {
                if (f >= 0 || c == e) {
                    return;
                }
                f = c;
            }
        }
        if (f > 0) {
            pairFirst = Swar.broadcast(e);
            pairSecond = Swar.broadcast(f);
        }
    }

    /** The pair {@link #learnPair} found, each byte repeated in a word; pairFirst 0 when none. */
    private long pairFirst;
    private long pairSecond;

    /**
     * The first index from {@code i} holding an exit byte or a byte of 0x80 or more, or
     * {@code length}. The range test is exact in every byte (no carry crosses bytes: each byte's
     * low seven bits plus at most 127 stay under 256), so the lowest flagged byte is the first hit.
     */
    private int skipToExit(byte[] content, int i, int length) {
        if (pairFirst != 0) {
            return skipToPair(content, i, length);
        }
        long[] exits = this.exits;
        while (i + 8 <= length) {
            long v = Swar.word(content, i);
            long hits = Swar.nonAscii(v);
            for (int r = 0; r < exits.length; r += 2) {
                hits |= Swar.inRange(v, exits[r], exits[r + 1]);
            }
            if (hits != 0) {
                return i + Swar.firstByte(hits);
            }
            i += 8;
        }
        for (; i < length; i++) {
            int b = content[i];
            if (b < 0) {
                return i;
            }
            for (int r = 0; r < exits.length; r += 2) {
                int hiExclusive = (int) (exits[r] & 0xff) - 127;
                int loExclusive = 127 - (int) (exits[r + 1] & 0xff);
                if (b > loExclusive && b < hiExclusive) {
                    return i;
                }
            }
        }
        return length;
    }

    /**
     * The first index from {@code i} holding the pair's first byte followed by its second (or by a
     * byte of 0x80 or more), or a byte of 0x80 or more, or {@code length}. The tests are exact
     * in every byte, so the lowest flagged byte is the first hit, as in the byte loop after.
     */
    private int skipToPair(byte[] content, int i, int length) {
        long first = pairFirst;
        long second = pairSecond;
        while (i + 9 <= length) {
            long v = Swar.word(content, i);
            long w = Swar.word(content, i + 1);
            long hits = Swar.nonAscii(v) | Swar.equalBytes(v, first) & (Swar.equalBytes(w, second) | Swar.nonAscii(w));
            if (hits != 0) {
                return i + Swar.firstByte(hits);
            }
            i += 8;
        }
        for (; i < length; i++) {
            int b = content[i];
            if (b < 0 || b == (byte) first && (i + 1 >= length || content[i + 1] == (byte) second || content[i + 1] < 0)) {
                return i;
            }
        }
        return length;
    }

    /**
     * Where the earliest match that starts at or after byte {@code from} of the line
     * {@code [lineStart, lineEnd)} ends, or -1 when none does: a few cached transitions where
     * RE2J would scan the rest of the line to say no. (MATCHED comes from the closure before a
     * character, so the byte being read when it comes is where the match ends.)
     */
    int matchEndFrom(byte[] content, int lineStart, int from, int lineEnd) {
        int s = startingAt(content, lineStart, from);
        int i = from;
        while (i < lineEnd) {
            long step = transition(s, content, i, lineEnd);
            int t = (int) step;
            if (t == MATCHED) {
                return i;
            }
            s = t;
            i += (int) (step >>> 32);
        }
        return matchesAtEnd(s) ? lineEnd : -1;
    }

    /** The state of a pass that starts at byte {@code from} of a line: the start state at its start, else idle after what precedes. */
    private int startingAt(byte[] content, int lineStart, int from) {
        if (from == lineStart) {
            return start;
        }
        if (!idleValid) {
            internIdle();
        }
        return CompiledProgram.isWordRune(content[from - 1]) ? idleWord : idleOther;
    }

    /** The transition from {@code s} on the rune at byte {@code i}, made and cached when new, as {@code width << 32 | target}. */
    private long transition(int s, byte[] content, int i, int lineEnd) {
        int b = content[i];
        if (b >= 0) {
            int t = ascii[(s << 7) | b];
            return 1L << 32 | (t == UNKNOWN ? asciiStep(s, b) : t) & 0xffffffffL;
        }
        long rune = Utf8.rune(content, i, lineEnd);
        return rune >>> 32 << 32 | runeStep(s, (int) rune) & 0xffffffffL;
    }

    /** What {@link #anchoredEnds} returns when no match starts at its position. */
    static final long NO_MATCH = -1;
    /** What {@link #anchoredEnds} returns when it ran out of steps. */
    static final long OUT_OF_STEPS = -2;
    /** Transitions the last {@link #anchoredEnds} followed. */
    private int anchoredSteps;

    int anchoredSteps() {
        return anchoredSteps;
    }

    /**
     * On an {@link #anchored} DFA: where the matches that start at byte {@code from} of the line
     * {@code [lineStart, lineEnd)} end, the first and the last, as {@code first << 32 | last};
     * {@link #NO_MATCH} when none starts there, {@link #OUT_OF_STEPS} after {@code budget}
     * transitions. When the first and last ends are one, that is the match whatever the
     * regex's priorities.
     */
    long anchoredEnds(byte[] content, int lineStart, int from, int lineEnd, int budget) {
        int s = startingAt(content, lineStart, from);
        int first = -1;
        int last = -1;
        int i = from;
        int steps = 0;
        while (true) {
            if (i >= lineEnd) {
                if (matchesAtEnd(s)) {
                    first = first < 0 ? lineEnd : first;
                    last = lineEnd;
                }
                break;
            }
            if (++steps > budget) {
                anchoredSteps = steps;
                return OUT_OF_STEPS;
            }
            long step = transition(s, content, i, lineEnd);
            int t = (int) step;
            int width = (int) (step >>> 32);
            if ((t & MATCH_BIT) != 0) {
                first = first < 0 ? i : first;
                last = i;
                t &= ~MATCH_BIT;
            }
            if (pcs[t].length == 0) {
                break; // every thread died: no longer match from here
            }
            s = t;
            i += width;
        }
        anchoredSteps = steps;
        return first < 0 ? NO_MATCH : (long) first << 32 | last;
    }

    /**
     * The most runes a match can span, or -1 when unbounded: the longest path of rune-consuming
     * instructions from the start to MATCH, when the program has no loop. A match that ends at
     * byte {@code e} then starts at or after {@code e - 4 * maxMatchRunes()}, which lets RE2J start
     * there instead of at the line's start.
     */
    int maxMatchRunes() {
        return maxMatchRunes;
    }

    /**
     * The runes every match spans when all matches span the same number (at least one), else -1.
     * Then the match that ends first is the one that starts first, the leftmost (RE2J's choice,
     * whatever its priorities, as no other match starts there): each match is the {@code L} runes
     * before an end the DFA finds, and RE2J is not needed for the ranges at all.
     */
    int fixedMatchRunes() {
        return fixedMatchRunes;
    }

    /**
     * The shortest and longest paths of rune-consuming instructions from the start to MATCH, as
     * {@code longest << 32 | shortest}; longest -1 when the program has a loop (matches can be as
     * long as the line). A depth-first walk that finishes each instruction after its successors.
     */
    static long matchLengths(CompiledProgram program) {
        int n = program.size();
        int[] longest = new int[n];
        int[] shortest = new int[n];
        byte[] color = new byte[n]; // 0 new, 1 on the stack, 2 done
        int[] stack = new int[n];
        int[] nextEdge = new int[n];
        int top = 0;
        stack[top++] = program.start();
        color[program.start()] = 1;
        while (top > 0) {
            int pc = stack[top - 1];
            int op = program.op(pc);
            int edges = op == CompiledProgram.ALT || op == CompiledProgram.ALT_MATCH ? 2
                    : op == CompiledProgram.MATCH || op == CompiledProgram.FAIL ? 0 : 1;
            if (nextEdge[pc] < edges) {
                int next = nextEdge[pc]++ == 0 ? program.out(pc) : program.arg(pc);
                if (color[next] == 1) {
                    return -1L << 32; // a loop
                }
                if (color[next] == 0) {
                    color[next] = 1;
                    stack[top++] = next;
                }
                continue;
            }
            int most = op == CompiledProgram.MATCH ? 0 : Integer.MIN_VALUE;
            int least = op == CompiledProgram.MATCH ? 0 : Integer.MAX_VALUE;
            for (int e = 0; e < edges; e++) {
                int next = e == 0 ? program.out(pc) : program.arg(pc);
                most = Math.max(most, longest[next]);
                least = Math.min(least, shortest[next]);
            }
            int self = op >= CompiledProgram.RUNE && op <= CompiledProgram.RUNE_ANY_NOT_NL ? 1 : 0;
            longest[pc] = most == Integer.MIN_VALUE ? most : most + self;
            shortest[pc] = least == Integer.MAX_VALUE ? least : least + self;
            color[pc] = 2;
            top--;
        }
        int start = program.start();
        int most = Math.max(0, longest[start]);
        int least = shortest[start] == Integer.MAX_VALUE ? 0 : shortest[start];
        return (long) most << 32 | least;
    }

    /** The transition of {@code s} on ASCII byte {@code b}, made and cached (dropping the cache when full). */
    private int asciiStep(int s, int b) {
        if (states >= MAX_STATES) {
            s = reset(s);
        }
        int t = b == '\n' ? (matchesAtEnd(s) ? MATCHED : start) : step(s, b);
        ascii[(s << 7) | b] = t;
        return t;
    }

    /** The transition of {@code s} on a non-ASCII code point, made and cached (dropping the cache when full). */
    private int runeStep(int s, int rune) {
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

    /**
     * Transitions on non-ASCII code points, (state, rune) to state, in open addressing over
     * primitive arrays: a file of non-ASCII text looks one up per character, and boxed map keys
     * would allocate each time.
     */
    private static final class RuneTransitions {
        private long[] keys = new long[64];
        private int[] values = new int[64];
        private int size;

        RuneTransitions() {
            Arrays.fill(keys, -1);
        }

        int get(int state, int rune) {
            long key = (long) state << 32 | rune;
            int mask = keys.length - 1;
            for (int i = slot(key, mask); ; i = (i + 1) & mask) {
                if (keys[i] == key) {
                    return values[i];
                }
                if (keys[i] == -1) {
                    return UNKNOWN;
                }
            }
        }

        void put(int state, int rune, int value) {
            if (2 * (size + 1) > keys.length) {
                long[] oldKeys = keys;
                int[] oldValues = values;
                keys = new long[2 * oldKeys.length];
                values = new int[keys.length];
                Arrays.fill(keys, -1);
                size = 0;
                for (int i = 0; i < oldKeys.length; i++) {
                    if (oldKeys[i] != -1) {
                        insert(oldKeys[i], oldValues[i]);
                    }
                }
            }
            insert((long) state << 32 | rune, value);
        }

        private void insert(long key, int value) {
            int mask = keys.length - 1;
            int i = slot(key, mask);
            while (keys[i] != -1 && keys[i] != key) {
                i = (i + 1) & mask;
            }
            if (keys[i] == -1) {
                size++;
            }
            keys[i] = key;
            values[i] = value;
        }

        void clear() {
            Arrays.fill(keys, -1);
            size = 0;
        }

        private static int slot(long key, int mask) {
            return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
        }
    }

    /** The first index from {@code i} holding the byte repeated in {@code want}, or {@code length}. */
    private static int nextByte(byte[] content, int i, int length, long want) {
        while (i + 8 <= length) {
            long hits = Swar.equalBytes(Swar.word(content, i), want);
            if (hits != 0) {
                return i + Swar.firstByte(hits);
            }
            i += 8;
        }
        for (; i < length; i++) {
            if (content[i] == (byte) want) {
                return i;
            }
        }
        return length;
    }

    /** Whether state {@code s} holds a match when the line ends there. */
    private boolean matchesAtEnd(int s) {
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
        if (matched && !anchored) {
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
        if (!anchored) {
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
        return flags | (prevIsWord != nextIsWord ? CompiledProgram.EMPTY_WORD_BOUNDARY : CompiledProgram.EMPTY_NO_WORD_BOUNDARY);
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
