package io.trigrep.backend.search;

import io.trigrep.proto.Utf8;
import io.trigrep.re2j.Matcher;
import io.trigrep.re2j.Pattern;
import java.nio.CharBuffer;
import java.util.Arrays;

/**
 * The matching lines of a regex and every match on each, with grep's semantics, for the
 * strategies that run the regex: the lazy DFA ({@link LineDfa}) finds the lines (in a whole file,
 * or on the candidate lines a prefilter found) and where their matches end, an anchored DFA where
 * they start, and RE2J, a linear-time engine, runs only where a match could end at several places
 * and its priorities must choose. One per matcher; not thread-safe. The DFAs are made on first use.
 */
final class RegexRanges {
    private final Pattern pattern;
    private final Ranges ranges = new Ranges();
    /** Per needle, where it next occurs: -2 not looked for yet, -1 nowhere after. */
    private int[] next = new int[0];

    private LineDfa dfa;
    private AnchoredDfa anchoredDfa;
    private final DfaLines dfaLines = new DfaLines();

    RegexRanges(Pattern pattern) {
        this.pattern = pattern;
    }

    /** The lazy DFA finds the matching lines a byte at a time; {@link DfaLines} their ranges. */
    void searchFile(byte[] content, int length, int start, int startLine, LineSink sink) {
        if (dfa == null) {
            dfa = new LineDfa(pattern);
        }
        dfaLines.content = content;
        dfaLines.sink = sink;
        try {
            dfa.search(content, length, start, startLine, dfaLines);
        } finally {
            dfaLines.content = null;
            dfaLines.sink = null;
        }
    }

    /**
     * Lines of {@code text} (the content, or its lower case) that hold one of {@code needles},
     * each then checked by the regex alone. Each needle is found by {@link LiteralScan#nextHit}
     * with its rare pair from {@code pairs}, so a file is neither copied nor decoded to be searched.
     */
    void searchCandidates(
            byte[] text,
            byte[][] needles,
            int[][] pairs,
            byte[] content,
            int length,
            int start,
            int startLine,
            LineSink sink) {
        if (next.length < needles.length) {
            next = new int[needles.length];
        }
        int[] next = this.next;
        Arrays.fill(next, 0, needles.length, -2);
        int lineNumber = startLine;
        int counted = start;
        int from = start;
        while (from < length) {
            int hit = Integer.MAX_VALUE;
            for (int i = 0; i < needles.length; i++) {
                if (next[i] != -1 && next[i] < from) {
                    next[i] = LiteralScan.nextHit(text, length, needles[i], pairs[i][0], pairs[i][1], from, false);
                }
                if (next[i] >= 0 && next[i] < hit) {
                    hit = next[i];
                }
            }
            if (hit == Integer.MAX_VALUE) {
                return;
            }
            int lineStart = LineMatcher.lineStart(content, hit);
            int lineEnd = LineMatcher.lineEnd(content, length, hit);
            // The candidate line is checked, and its ranges found, as a full scan does: by the DFAs,
            // RE2J only where they cannot choose, so a matching line allocates nothing more.
            if (dfa == null) {
                dfa = new LineDfa(pattern);
            }
            int firstMatchEnd = dfa.matchEndFrom(content, lineStart, lineStart, lineEnd);
            if (firstMatchEnd >= 0) {
                lineNumber += LineMatcher.countNewlines(content, counted, lineStart);
                counted = lineStart;
                dfaLines.content = content;
                dfaLines.sink = sink;
                try {
                    if (!dfaLines.line(lineStart, lineEnd, lineNumber, firstMatchEnd)) {
                        return;
                    }
                } finally {
                    dfaLines.content = null;
                    dfaLines.sink = null;
                }
            }
            from = lineEnd + 1;
        }
    }

    /**
     * The ranges of a line the DFA found, handed to the sink. RE2J's match is the leftmost one,
     * and of those that start there, the one its priorities prefer. Fixed-length regexes need
     * no more than the ends the DFA finds. Otherwise an anchored DFA tries each start from the
     * last match on, up to the end the DFA found (no match that starts later can be the
     * leftmost); at the first start with a match, when all its matches end at one place, that is
     * the match. Only when they end at several places does RE2J choose, starting there. A line
     * where the anchored tries exceed four steps per byte goes to RE2J for the rest (a long
     * run of near-misses would make the tries quadratic). With bounded match lengths RE2J starts
     * at most four bytes per rune before the end the DFA found.
     */
    private final class DfaLines implements LineDfa.Lines {
        byte[] content;
        LineSink sink;
        private int chars = -1;

        @Override
        public boolean line(int start, int end, int lineNumber, int firstMatchEnd) {
            chars = -1;
            int fixed = dfa.fixedMatchRunes();
            int count = 0;
            if (fixed > 0) {
                for (int matchEnd = firstMatchEnd;
                        matchEnd >= 0;
                        matchEnd = dfa.matchEndFrom(content, start, matchEnd, end)) {
                    count = ranges.add(count, runesBefore(content, start, matchEnd, fixed), matchEnd);
                    if (matchEnd >= end) {
                        break;
                    }
                }
                return sink.line(start, end, lineNumber, ranges.array(), count);
            }
            if (anchoredDfa == null) {
                anchoredDfa = new AnchoredDfa(pattern);
            }
            int budget = 4 * (end - start) + 64;
            int at = start;
            for (int matchEnd = firstMatchEnd; matchEnd >= 0; ) {
                long ends = AnchoredDfa.NO_MATCH;
                int from = dfa.matchStartBound(content, at, matchEnd);
                while (from <= matchEnd) {
                    ends = anchoredDfa.ends(content, start, from, end, budget);
                    budget -= anchoredDfa.steps();
                    if (ends != AnchoredDfa.NO_MATCH) {
                        break;
                    }
                    from += from < end ? runeWidth(content, from, end) : 1;
                }
                if (ends < 0) {
                    // out of steps (or, which cannot be, no start found): RE2J takes the rest of the line
                    re2jLine(start, end);
                    count = re2jRanges(start, end, charIndex(at, 0, chars), matchEnd, count);
                    break;
                }
                int first = (int) (ends >>> 32);
                int last = (int) ends;
                int to = first == last ? first : re2jMatchEnd(start, end, from);
                count = ranges.add(count, from, to);
                if (to == from) {
                    // After an empty match RE2J goes on one char (a UTF-16 unit) later: let it.
                    re2jLine(start, end);
                    int next = charIndex(to, 0, chars) + 1;
                    if (next <= chars) {
                        count = re2jRanges(
                                start, end, next, dfa.matchEndFrom(content, start, byteOffset(next), end), count);
                    }
                    break;
                }
                at = to;
                matchEnd = dfa.matchEndFrom(content, start, at, end);
            }
            return count == 0 || sink.line(start, end, lineNumber, ranges.array(), count);
        }

        private int runeWidth(byte[] content, int at, int end) {
            return content[at] >= 0 ? 1 : (int) (Utf8.rune(content, at, end) >>> 32);
        }

        /** The line decoded for RE2J, once per line and only when RE2J is needed. */
        private Matcher re2jLine(int start, int end) {
            if (chars < 0) {
                chars = decode(content, start, end);
            }
            return lineMatcher(0, chars);
        }

        /** Where RE2J's match that starts at byte {@code from} (a match is known to start there) ends. */
        private int re2jMatchEnd(int start, int end, int from) {
            Matcher line = re2jLine(start, end);
            int at = charIndex(from, 0, chars);
            if (!line.find(at) || byteOffset(line.start()) != from) {
                throw new IllegalStateException(
                        "the DFA and RE2J disagree on a match at byte " + from + " of line " + start);
            }
            return byteOffset(line.end());
        }

        /**
         * The matches from char {@code from} on, all by RE2J; {@code matchEnd} is where the DFA saw
         * the first of them end (-1: none).
         */
        private int re2jRanges(int start, int end, int from, int matchEnd, int count) {
            if (matchEnd < 0) {
                return count;
            }
            Matcher line = re2jLine(start, end);
            int maxBytes = dfa.maxMatchRunes() < 0 ? -1 : 4 * dfa.maxMatchRunes();
            for (int at = from; at <= chars && line.find(narrowed(at, matchEnd, maxBytes, chars)); ) {
                count = ranges.add(count, byteOffset(line.start()), byteOffset(line.end()));
                at = line.end() > line.start() ? line.end() : line.end() + 1;
                // Most lines hold one match: the DFA says so in a few table lookups, where RE2J's
                // next find would run its NFA over the rest of the line.
                if (at > chars || (matchEnd = dfa.matchEndFrom(content, start, byteOffset(at), end)) < 0) {
                    break;
                }
            }
            return count;
        }

        /** The first char at or after byte {@code at} (chars in {@code [lo, hi]}; {@code hi} is the end). */
        private int charIndex(int at, int lo, int hi) {
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (offsets[mid] < at) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }

        /**
         * Where the {@code runes} runes that end at byte {@code end} start, as {@link Utf8#rune}
         * reads them forward: every byte that is not a continuation byte (10xxxxxx) starts a
         * rune, and a continuation byte belongs to the rune before it only when that rune is
         * valid and this long; otherwise it is a rune (U+FFFD) of its own.
         */
        private static int runesBefore(byte[] content, int lineStart, int end, int runes) {
            int at = end;
            for (int r = 0; r < runes; r++) {
                int lead = at - 1;
                while (lead > lineStart && at - lead < 4 && (content[lead] & 0xc0) == 0x80) {
                    lead--;
                }
                at = lead < at - 1 && content[lead] < 0 && (int) (Utf8.rune(content, lead, end) >>> 32) == at - lead
                        ? lead
                        : at - 1;
            }
            return at;
        }

        /** The char index from which RE2J looks for the next match: {@code at}, or later when match lengths are bounded. */
        private int narrowed(int at, int matchEnd, int maxBytes, int chars) {
            if (maxBytes < 0) {
                return at;
            }
            int from = matchEnd - maxBytes;
            if (from <= offsets[at]) {
                return at;
            }
            // the first char of the rune holding byte `from` (both halves of a surrogate pair share an offset)
            int lo = at;
            int hi = chars;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (offsets[mid] <= from) {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            while (lo > at && offsets[lo - 1] == offsets[lo]) {
                lo--;
            }
            return lo;
        }
    }

    /** One line of {@link #chars} as a CharSequence, re-aimed for each line instead of wrapped anew. */
    private final class LineView implements CharSequence {
        int start;
        int length;

        @Override
        public int length() {
            return length;
        }

        @Override
        public char charAt(int index) {
            return chars[start + index];
        }

        @Override
        public CharSequence subSequence(int from, int to) {
            return CharBuffer.wrap(chars, start + from, to - from);
        }

        @Override
        public String toString() {
            return new String(chars, start, length);
        }
    }

    private final LineView view = new LineView();
    private Matcher reusable;

    /** The line's matcher: one Matcher per RegexRanges, reset onto each line. */
    private Matcher lineMatcher(int start, int length) {
        view.start = start;
        view.length = length;
        if (reusable == null) {
            reusable = pattern.matcher(view);
            return reusable;
        }
        return reusable.reset(view);
    }

    private char[] chars = new char[0];
    private int[] offsets = new int[0];

    /** Decodes {@code content[from, length)}; offsets stay absolute byte offsets. */
    private int decode(byte[] content, int from, int length) {
        if (chars.length < length - from + 1) {
            chars = new char[Math.max(length - from + 1, 2 * chars.length)];
            offsets = new int[chars.length];
        }
        int n = 0;
        int i = from;
        while (i < length) {
            int b = content[i] & 0xff;
            if (b < 0x80) {
                offsets[n] = i;
                chars[n++] = (char) b;
                i++;
                continue;
            }
            long rune = Utf8.rune(content, i, length);
            int cp = (int) rune;
            if (cp >= 0x10000) {
                offsets[n] = i;
                chars[n++] = Character.highSurrogate(cp);
                offsets[n] = i;
                chars[n++] = Character.lowSurrogate(cp);
            } else {
                offsets[n] = i;
                chars[n++] = (char) cp;
            }
            i += (int) (rune >>> 32);
        }
        offsets[n] = length;
        return n;
    }

    /** The byte offset of char index {@code at} (the end of the text for the char count). */
    private int byteOffset(int at) {
        return offsets[at];
    }
}
