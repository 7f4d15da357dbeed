package io.trigrep.backend.search;

import io.trigrep.re2j.CompiledProgram;
import io.trigrep.re2j.Pattern;

/**
 * Where the matches that start at one position of a line end: a lazy DFA (its own
 * {@link DfaStates}, anchored) that follows only the threads that start there, so the line
 * search's ranges find a match's start by trying starts and learn from the first and last end
 * whether the regex's priorities have to choose. One per matcher; not thread-safe.
 */
final class AnchoredDfa {
    /** What {@link #ends} returns when no match starts at its position. */
    static final long NO_MATCH = -1;
    /** What {@link #ends} returns when it ran out of steps. */
    static final long OUT_OF_STEPS = -2;

    private final DfaStates states;
    /** Transitions the last {@link #ends} followed. */
    private int steps;

    AnchoredDfa(Pattern pattern) {
        this.states = new DfaStates(CompiledProgram.of(pattern), true);
    }

    /** Transitions the last {@link #ends} followed. */
    int steps() {
        return steps;
    }

    /**
     * Where the matches that start at byte {@code from} of the line {@code [lineStart, lineEnd)}
     * end, the first and the last, as {@code first << 32 | last}; {@link #NO_MATCH} when none
     * starts there, {@link #OUT_OF_STEPS} after {@code budget} transitions. When the first and
     * last ends are one, that is the match whatever the regex's priorities.
     */
    long ends(byte[] content, int lineStart, int from, int lineEnd, int budget) {
        int s = states.startingAt(content, lineStart, from);
        int first = -1;
        int last = -1;
        int i = from;
        int steps = 0;
        while (true) {
            if (i >= lineEnd) {
                if (states.matchesAtEnd(s)) {
                    first = first < 0 ? lineEnd : first;
                    last = lineEnd;
                }
                break;
            }
            if (++steps > budget) {
                this.steps = steps;
                return OUT_OF_STEPS;
            }
            long step = states.transition(s, content, i, lineEnd);
            int t = (int) step;
            int width = (int) (step >>> 32);
            if ((t & DfaStates.MATCH_BIT) != 0) {
                first = first < 0 ? i : first;
                last = i;
                t &= ~DfaStates.MATCH_BIT;
            }
            if (states.dead(t)) {
                break; // every thread died: no longer match from here
            }
            s = t;
            i += width;
        }
        this.steps = steps;
        return first < 0 ? NO_MATCH : (long) first << 32 | last;
    }
}
