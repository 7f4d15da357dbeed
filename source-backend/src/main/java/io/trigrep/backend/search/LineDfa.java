package io.trigrep.backend.search;

import io.trigrep.proto.Utf8;
import io.trigrep.re2j.CompiledProgram;
import io.trigrep.re2j.Pattern;
import java.util.Arrays;

/**
 * Which lines of a file hold a match of a regex, a byte at a time, as grep and codesearch find
 * them: a lazy DFA ({@link DfaStates}, unanchored: a new thread starts at every position) whose
 * newline transitions go back to the start state, or to MATCHED when the line matches at its end.
 * A line matches once a state reaches MATCHED. Where it can, the search does not step the DFA at
 * all: while idle it jumps with a {@link Prefilter}, at a line start it jumps to the next line
 * holding a byte every match holds, and for matches that end at line ends it looks at line ends
 * first ({@link ProgramFacts}). One per worker thread; not thread-safe.
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

    /** No state: a stop the inner loop of {@link #search} never meets. */
    private static final int NONE = -3;

    private static final int START = DfaStates.START;

    private final DfaStates states;
    private final ProgramFacts facts;
    /** {@link ProgramFacts#required}, read once per line start. */
    private final long required;

    private final long alsoRequired;
    private final long[] lastBytes;
    /**
     * Where the search jumps while idle, learned from the idle states' exits ({@link #learnExits});
     * null when they lead out on too many bytes.
     */
    private Prefilter prefilter;
    /** The cache's {@link DfaStates#resets} when {@link #prefilter} was learned: a reset drops it. -1: never learned. */
    private int prefilterResets = -1;
    /**
     * Learnt with {@link #prefilter}: no ASCII byte but a newline leads out of the idle states
     * past a line's start, so no match starts inside a line (a regex anchored at its start).
     */
    private boolean idleDeadMidLine;

    LineDfa(Pattern pattern) {
        CompiledProgram program = CompiledProgram.of(pattern);
        this.states = new DfaStates(program, false);
        this.facts = new ProgramFacts(program);
        this.required = facts.required();
        this.alsoRequired = facts.alsoRequired();
        this.lastBytes = facts.lastBytes();
    }

    int resets() {
        return states.resets();
    }

    /** The most runes a match can span, or -1 when unbounded ({@link ProgramFacts#maxMatchRunes}). */
    int maxMatchRunes() {
        return facts.maxMatchRunes();
    }

    /** The runes every match spans when all span the same number, else -1 ({@link ProgramFacts#fixedMatchRunes}). */
    int fixedMatchRunes() {
        return facts.fixedMatchRunes();
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
        Prefilter prefilter = idleJump();
        boolean skipping = prefilter != null;
        // While skipping, the cache is the one the prefilter was learned from, which holds the idle
        // states: a reset (in a callback's matchEndFrom, which may learn exits anew) ends it.
        int skipResets = states.resets();
        int idleWord = states.idleWord();
        int idleOther = states.idleOther();
        int s = START;
        int lineNumber = firstLine;
        int counted = from;
        int[] table = states.ascii();
        int i = from;
        while (i < length) {
            if (s == START && required != 0 && !skipping) {
                // At a line start: go to the next line that holds the required byte.
                int j = Prefilter.nextByte(content, i, length, required);
                if (j >= length) {
                    return true;
                }
                int lineStart = LineMatcher.lineStart(content, j);
                if (alsoRequired != 0) {
                    int lineEnd = LineMatcher.lineEnd(content, length, j);
                    if (Prefilter.nextByte(content, lineStart, lineEnd, alsoRequired) >= lineEnd) {
                        i = lineEnd + 1; // no match on this line
                        continue;
                    }
                }
                // A match that holds this byte (or a later one) starts after the last byte before it
                // that no match holds: start there, idle, instead of at the line's start.
                int q = j;
                while (q > lineStart && facts.mayBeInMatch(content[q - 1])) {
                    q--;
                }
                if (q > lineStart) {
                    s = states.startingAt(content, lineStart, q);
                    table = states.ascii(); // interning the idle states may have grown the table
                    i = q;
                } else if (lineStart > i) {
                    i = lineStart;
                }
            }
            if (skipping && (s == START || s == idleWord || s == idleOther)) {
                int j = prefilter.next(content, i, length);
                if (j != i) {
                    // Every byte skipped kept the search idle: only the last one's class matters.
                    int prev = content[j - 1];
                    s = prev == '\n' ? START : CompiledProgram.isWordRune(prev) ? idleWord : idleOther;
                    i = j;
                    if (i >= length) {
                        break;
                    }
                }
            }
            // The run between special events: cached ASCII transitions, until a byte of 0x80 or
            // more, an uncached or matching transition, or a state the jumps above start from, so
            // that most bytes skip the checks above.
            int stopA = skipping || required != 0 ? START : NONE;
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
                if (t == DfaStates.UNKNOWN) {
                    int before = states.resets();
                    t = states.asciiStep(s, b);
                    table = states.ascii();
                    // A dropped cache takes the idle states with it: no jumping until the next file.
                    skipping &= states.resets() == before;
                }
            } else {
                long rune = Utf8.rune(content, i, length);
                width = (int) (rune >>> 32);
                int before = states.resets();
                t = states.runeStep(s, (int) rune);
                table = states.ascii();
                skipping &= states.resets() == before;
            }
            if (t != DfaStates.MATCHED) {
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
            table = states.ascii();
            skipping &= skipResets == states.resets();
            lineNumber++;
            counted = lineEnd + 1;
            s = START;
            i = lineEnd + 1;
        }
        if (i != length || length == from || content[length - 1] == '\n' || !states.matchesAtEnd(s)) {
            return true;
        }
        int lineStart = LineMatcher.lineStart(content, length);
        return lines.line(
                lineStart, length, lineNumber + LineMatcher.countNewlines(content, counted, lineStart), length);
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

    /** {@link #search} for regexes whose matches all end at a line's end after one of {@link ProgramFacts#lastBytes}. */
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
     * Where the leftmost match that starts at or after {@code from} can start at the earliest,
     * given that the earliest such match ends at {@code matchEnd}: after the last byte before
     * {@code matchEnd} that no match holds (a match starting before it and ending at or after
     * {@code matchEnd} would hold it), at a character boundary.
     */
    int matchStartBound(byte[] content, int from, int matchEnd) {
        int q = matchEnd;
        while (q > from && facts.mayBeInMatch(content[q - 1])) {
            q--;
        }
        return q;
    }

    /**
     * Where the earliest match that starts at or after byte {@code from} of the line
     * {@code [lineStart, lineEnd)} ends, or -1 when none does: a few cached transitions where
     * RE2J would scan the rest of the line to say no. (MATCHED comes from the closure before a
     * character, so the byte being read when it comes is where the match ends.)
     */
    int matchEndFrom(byte[] content, int lineStart, int from, int lineEnd) {
        // Where no match can start inside a line (a regex anchored at its start, such as
        // "^#define [A-Z_]+ 0x..."), a line idle past its start stays idle to its end: jump there as
        // the whole-file search does, instead of stepping byte by byte to each candidate line's end.
        // Other regexes step: jumping to each exit ("i" for inflate\w+\() costs more than it saves
        // on short candidate lines (BENCHMARKS.md, "Tried and dropped").
        Prefilter prefilter = idleJump();
        boolean jump = prefilter != null && idleDeadMidLine;
        int resets = states.resets();
        int idleWord = jump ? states.idleWord() : -1;
        int idleOther = jump ? states.idleOther() : -1;
        int s = states.startingAt(content, lineStart, from);
        int i = from;
        while (i < lineEnd) {
            if (jump && (s == idleWord || s == idleOther) && states.resets() == resets) {
                int j = prefilter.next(content, i, lineEnd);
                if (j != i) {
                    // Every byte skipped kept the search idle: only the last one's class matters.
                    s = CompiledProgram.isWordRune(content[j - 1]) ? idleWord : idleOther;
                    i = j;
                    if (i >= lineEnd) {
                        break;
                    }
                }
            }
            long step = states.transition(s, content, i, lineEnd);
            int t = (int) step;
            if (t == DfaStates.MATCHED) {
                return i;
            }
            s = t;
            i += (int) (step >>> 32);
        }
        return states.matchesAtEnd(s) ? lineEnd : -1;
    }

    /**
     * Where the search jumps while idle, learned at the first search and again after each cache
     * reset; null when it does not jump (the idle states have too many exits, or every match
     * ends at a line's end, which the search finds by line ends instead).
     */
    Prefilter idleJump() {
        if (lastBytes == null && prefilterResets != states.resets()) {
            learnExits();
        }
        return prefilter;
    }

    /**
     * Fills the idle states' ASCII rows and notes the bytes that lead out of them: a
     * {@link Prefilter} when they make at most {@link Prefilter#MAX_EXIT_RANGES} ranges, else none.
     */
    private void learnExits() {
        prefilterResets = states.resets();
        prefilter = null;
        idleDeadMidLine = false;
        if (states.states() + 3 * 128 >= DfaStates.MAX_STATES) {
            return; // the rows could outgrow the cache; no skipping until the next reset
        }
        states.internIdle();
        int[] idle = {START, states.idleWord(), states.idleOther()};
        int[] bounds = new int[2 * Prefilter.MAX_EXIT_RANGES];
        int n = 0;
        int rangeStart = -1;
        boolean midLineExit = false;
        for (int b = 0; b <= 128; b++) {
            boolean exit = false;
            if (b < 128) {
                for (int s : idle) {
                    int t = states.ascii()[(s << 7) | b];
                    if (t == DfaStates.UNKNOWN) {
                        t = states.asciiStep(s, b); // no reset: the budget was checked above
                    }
                    exit |= !states.isIdle(t);
                    midLineExit |= s != START && b != '\n' && !states.isIdle(t);
                }
            }
            if (exit && b == 0) {
                return; // the range test cannot take NUL in (its lower bound is exclusive): no skipping
            }
            if (exit && rangeStart < 0) {
                rangeStart = b;
            } else if (!exit && rangeStart >= 0) {
                if (n == bounds.length) {
                    return;
                }
                if (b - rangeStart > 1 && required != 0) {
                    // A wide range of exits (letters, say) stops the jump every few bytes; the jump to
                    // lines holding the required byte does better (measured: \b[a-z]\w*\s*=\s*\d+;
                    // took 3.5 times as long jumping to every lower-case letter).
                    return;
                }
                // bytes x with (rangeStart - 1) < x < b
                bounds[n++] = rangeStart - 1;
                bounds[n++] = b;
                rangeStart = -1;
            }
        }
        Prefilter pair = n == 2 && bounds[1] == bounds[0] + 2 ? learnPair(idle, bounds[0] + 1) : null;
        prefilter = pair != null ? pair : Prefilter.ranges(Arrays.copyOf(bounds, n));
        idleDeadMidLine = !midLineExit;
    }

    /**
     * When a single byte {@code e} leads out of the idle states, always to one state E, and from E
     * only one byte {@code f} leads anywhere but back to idle or to E itself (E on {@code e}
     * staying E), the jump can go to the next {@code e} followed by {@code f} (as rg's prefilter
     * looks for a literal like {@code 0x}): every {@code e} not followed by {@code f} leaves the
     * search idle, or in E until the next {@code e}, which the landing state reproduces. Null
     * when that does not hold.
     */
    private Prefilter learnPair(int[] idle, int e) {
        if (states.states() + 128 >= DfaStates.MAX_STATES) {
            return null;
        }
        int exitState = -1;
        for (int s : idle) {
            int t = states.ascii()[(s << 7) | e];
            if (t < 0 || (exitState >= 0 && t != exitState)) {
                return null;
            }
            exitState = t;
        }
        int f = -1;
        for (int c = 0; c < 128; c++) {
            int t = states.ascii()[(exitState << 7) | c];
            if (t == DfaStates.UNKNOWN) {
                t = states.asciiStep(exitState, c); // no reset: the budget was checked above
            }
            boolean back = states.isIdle(t) || t == exitState;
            if (c == e ? t != exitState : !back) {
                if (f >= 0 || c == e) {
                    return null;
                }
                f = c;
            }
        }
        return f > 0 ? Prefilter.pair(e, f) : null;
    }
}
