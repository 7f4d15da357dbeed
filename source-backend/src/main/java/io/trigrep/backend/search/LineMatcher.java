package io.trigrep.backend.search;

import io.trigrep.indexer.bytes.Swar;
import io.trigrep.proto.Utf8;
import io.trigrep.re2j.Matcher;
import io.trigrep.re2j.Pattern;
import java.nio.CharBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Finds the lines of a file that match, with every match on each line, with grep's semantics:
 * a line matches when the pattern matches within the line alone ({@code ^} and {@code $} at line
 * boundaries, {@code .} never a newline). One per worker thread; not thread-safe.
 *
 * <p>Case-sensitive literals skip the regex engine: their bytes are found eight at a time.
 * Regexes with literal pieces find candidate lines by those pieces; the others by a lazy DFA over
 * the bytes ({@link LineDfa}). Either way the DFA confirms each candidate line and finds its
 * matches' ends, an anchored DFA their starts; RE2J, a linear-time engine, runs only where a match
 * could end at several places and its priorities must choose.
 */
final class LineMatcher {
    private final Pattern pattern;
    private final String literal;
    private final byte[][] needles;
    private final int[][] needlePairs;
    private final boolean foldNeedles;
    private final int[] next;
    private int[] ranges = new int[32];
    private byte[] lowered = new byte[0];

    private LineMatcher(Pattern pattern, String literal, List<String> needles, boolean foldNeedles) {
        this.pattern = pattern;
        this.literal = literal;
        this.needles = latin1(needles);
        this.needlePairs = rarePairs(this.needles);
        this.foldNeedles = foldNeedles;
        this.next = new int[this.needles.length];
    }

    /** A regex; {@code needles} (lower case when {@code foldNeedles}) prefilter lines when not empty. */
    static LineMatcher regex(Pattern pattern, List<String> needles, boolean foldNeedles) {
        return new LineMatcher(pattern, null, needles, foldNeedles);
    }

    static LineMatcher literal(byte[] utf8) {
        LineMatcher m = new LineMatcher(null, new String(utf8, StandardCharsets.ISO_8859_1), List.of(), false);
        m.literalBytes = utf8;
        m.scanPair = utf8.length == 0 ? null : ByteRarity.rarestPair(utf8, false);
        return m;
    }

    private byte[] literalBytes;
    /**
     * The offsets of the two rarest bytes of the one literal this matcher scans for (its
     * {@code literalBytes} or {@code foldedBytes}): compared case-blind when that scan folds.
     */
    private int[] scanPair;

    /**
     * A case-insensitive ASCII literal: on an all-ASCII file, the occurrences of the lower-case
     * literal in the lower-cased file are exactly the regex's matches; a file with other bytes
     * (where RE2 also folds, say, U+212A KELVIN SIGN to k) goes through the regex.
     */
    static LineMatcher foldedLiteral(Pattern pattern, byte[] lowerCase) {
        LineMatcher m = new LineMatcher(pattern, null, List.of(), true);
        m.folded = new String(lowerCase, StandardCharsets.ISO_8859_1);
        m.foldedBytes = lowerCase;
        m.foldedCore = foldSafeCore(m.folded);
        if (m.foldedCore != null && !m.foldedCore.isEmpty()) {
            m.foldedCoreNeedle = latin1(List.of(m.foldedCore));
            m.foldedCorePair = rarePairs(m.foldedCoreNeedle);
        }
        // Without k or s the scan folds as it compares; with them it reads the lowered copy.
        m.scanPair = lowerCase.length == 0 ? null : ByteRarity.rarestPair(lowerCase, m.foldedCore == null);
        return m;
    }

    private String folded;
    private String foldedCore;
    private byte[][] foldedCoreNeedle;
    private int[][] foldedCorePair;
    private byte[] foldedBytes;

    /**
     * Reports every matching line of {@code content[0, length)} from byte {@code start} on, which
     * is the start of line number {@code startLine}: a search paused by its sink resumes there.
     */
    void search(byte[] content, int length, int start, int startLine, LineSink sink) {
        if (literal != null) {
            searchLiteral(content, length, start, startLine, sink);
        } else if (folded != null) {
            searchFolded(content, length, start, startLine, sink);
        } else if (needles.length > 0) {
            searchNeedles(content, length, start, startLine, sink);
        } else {
            searchRegex(content, length, start, startLine, sink);
        }
    }

    private void searchFolded(byte[] content, int length, int start, int startLine, LineSink sink) {
        if (foldedCore == null) {
            // No k or s: folding ASCII is exact, and the scan folds as it compares.
            scanLiteral(content, foldedBytes, content, length, start, startLine, sink, true);
            return;
        }
        if (lowered.length < length) {
            lowered = new byte[Math.max(length, 2 * lowered.length)];
        }
        boolean ascii = Needles.lowerAscii(content, length, lowered);
        if (ascii || foldedCore == null) {
            scanLiteral(lowered, foldedBytes, content, length, start, startLine, sink, false);
        } else if (foldedCore.isEmpty()) {
            searchRegex(content, length, start, startLine, sink);
        } else {
            searchLines(lowered, foldedCoreNeedle, foldedCorePair, content, length, start, startLine, sink);
        }
    }

    /**
     * RE2 folds k with U+212A KELVIN SIGN and s with U+017F LONG S; no other character folds to an
     * ASCII letter. So lower-casing ASCII finds every match of a literal without k or s; with them,
     * in a file that is not all ASCII, the longest piece without k or s finds the candidate lines
     * and the regex decides. Null when the literal has neither letter; empty when no piece is left.
     */
    private static String foldSafeCore(String folded) {
        if (folded.indexOf('k') < 0 && folded.indexOf('s') < 0) {
            return null;
        }
        String best = "";
        for (String piece : folded.split("[ks]")) {
            if (piece.length() > best.length()) {
                best = piece;
            }
        }
        return best;
    }

    /** Lines that hold a needle, each then checked by the regex alone. */
    private void searchNeedles(byte[] content, int length, int start, int startLine, LineSink sink) {
        byte[] text = content;
        if (foldNeedles) {
            if (lowered.length < length) {
                lowered = new byte[Math.max(length, 2 * lowered.length)];
            }
            Needles.lowerAscii(content, length, lowered);
            text = lowered;
        }
        searchLines(text, needles, needlePairs, content, length, start, startLine, sink);
    }

    /**
     * Lines of {@code text} (the content, or its lower case) that hold one of {@code needles},
     * each then checked by the regex alone. Each needle is found by {@link #nextHit} with its rare
     * pair from {@code pairs}, so a file is neither copied nor decoded to be searched.
     */
    private void searchLines(byte[] text, byte[][] needles, int[][] pairs, byte[] content, int length, int start, int startLine,
                             LineSink sink) {
        int[] next = needles.length == this.next.length ? this.next : new int[needles.length];
        java.util.Arrays.fill(next, -2);
        int lineNumber = startLine;
        int counted = start;
        int from = start;
        while (from < length) {
            int hit = Integer.MAX_VALUE;
            for (int i = 0; i < needles.length; i++) {
                if (next[i] != -1 && next[i] < from) {
                    next[i] = nextHit(text, length, needles[i], pairs[i][0], pairs[i][1], from, false);
                }
                if (next[i] >= 0 && next[i] < hit) {
                    hit = next[i];
                }
            }
            if (hit == Integer.MAX_VALUE) {
                return;
            }
            int lineStart = lineStart(content, hit);
            int lineEnd = lineEnd(content, length, hit);
            // The candidate line is checked, and its ranges found, as a full scan does: by the DFAs,
            // RE2J only where they cannot choose (verifyRegexWithNeedles: the same 42 us, and no
            // more allocation per matching line: 65,608 B per 64 KiB file instead of 66,840).
            if (dfa == null) {
                dfa = new LineDfa(pattern);
            }
            int firstMatchEnd = dfa.matchEndFrom(content, lineStart, lineStart, lineEnd);
            if (firstMatchEnd >= 0) {
                lineNumber += countNewlines(content, counted, lineStart);
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

    private void searchLiteral(byte[] content, int length, int start, int startLine, LineSink sink) {
        if (literalBytes.length > 0) {
            scanLiteral(content, literalBytes, content, length, start, startLine, sink, false);
        }
    }

    /**
     * Every line of {@code text} (the content, or its lower case) holding the needle, found by
     * {@link #nextHit}. Newlines are counted only up to each hit, so a file without one (most
     * candidates of a selective query) costs the scan alone. On a hit, every occurrence on the
     * line is collected and the scan goes on after the line.
     */
    private void scanLiteral(byte[] text, byte[] needle, byte[] content, int length, int start, int startLine, LineSink sink,
                             boolean fold) {
        int[] pair = scanPair;
        int lineNumber = startLine;
        int counted = start;
        for (int at = nextHit(text, length, needle, pair[0], pair[1], start, fold); at >= 0;
                at = nextHit(text, length, needle, pair[0], pair[1], counted, fold)) {
            lineNumber += countNewlines(content, counted, at);
            int lineEnd = lineEnd(content, length, at);
            if (!emitLine(text, needle, content, at, lineEnd, lineNumber, sink, fold)) {
                return;
            }
            lineNumber++;
            counted = lineEnd + 1;
        }
    }

    /**
     * The first offset from {@code from} on where {@code needle} occurs in {@code text[0, length)},
     * or -1. Eight positions at a time, the needle's bytes at offsets {@code a} and {@code b} (its
     * two rarest, {@link ByteRarity}) are tested; only where both agree is the whole needle
     * compared. The loop only ever steps by eight, so the JIT can hoist its bounds checks: a scan
     * that also jumped past lines ran at two thirds of the speed.
     */
    private static int nextHit(byte[] text, int length, byte[] needle, int a, int b, int from, boolean fold) {
        // Folding: OR-ing 0x20 maps A-Z onto a-z (and a few other bytes elsewhere, which the
        // full compare then rejects), so words are filtered with the needle's lower-case bytes.
        long aFold = fold && isLetter(needle[a]) ? Swar.broadcast(0x20) : 0;
        long bFold = fold && isLetter(needle[b]) ? Swar.broadcast(0x20) : 0;
        long aBytes = Swar.broadcast(needle[a]);
        long bBytes = Swar.broadcast(needle[b]);
        int last = length - needle.length;
        int i = from;
        for (; i + 8 + b <= length; i += 8) {
            long candidates = Swar.equalBytes(Swar.word(text, i + a) | aFold, aBytes)
                    & Swar.equalBytes(Swar.word(text, i + b) | bFold, bBytes);
            while (candidates != 0) {
                int at = i + Swar.firstByte(candidates);
                if (at <= last && matchesAt(text, at, needle, fold)) {
                    return at;
                }
                candidates &= candidates - 1;
            }
        }
        for (; i <= last; i++) {
            if (matchesAt(text, i, needle, fold)) {
                return i;
            }
        }
        return -1;
    }

    private static byte[][] latin1(List<String> strings) {
        byte[][] bytes = new byte[strings.size()][];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = strings.get(i).getBytes(StandardCharsets.ISO_8859_1);
        }
        return bytes;
    }

    private static int[][] rarePairs(byte[][] needles) {
        int[][] pairs = new int[needles.length][];
        for (int i = 0; i < needles.length; i++) {
            pairs[i] = ByteRarity.rarestPair(needles[i], false);
        }
        return pairs;
    }

    /** Reports the line holding the first hit {@code at}, with every occurrence on it. */
    private boolean emitLine(byte[] text, byte[] needle, byte[] content, int at, int lineEnd, int lineNumber, LineSink sink,
                             boolean fold) {
        int lineStart = lineStart(content, at);
        int count = 0;
        for (int p = at; p + needle.length <= lineEnd; ) {
            if (matchesAt(text, p, needle, fold)) {
                count = add(count, p, p + needle.length);
                p += needle.length;
            } else {
                p++;
            }
        }
        return sink.line(lineStart, lineEnd, lineNumber, ranges, count);
    }

    /** Whether {@code needle} (lower case when folding) occurs at {@code at}, comparing ASCII case-blind when folding. */
    private static boolean matchesAt(byte[] text, int at, byte[] needle, boolean fold) {
        if (!fold) {
            return java.util.Arrays.equals(text, at, at + needle.length, needle, 0, needle.length);
        }
        for (int k = 0; k < needle.length; k++) {
            byte b = text[at + k];
            if (fold && b >= 'A' && b <= 'Z') {
                b += 32;
            }
            if (b != needle[k]) {
                return false;
            }
        }
        return true;
    }

    private static boolean isLetter(byte b) {
        return b >= 'a' && b <= 'z';
    }

    private LineDfa dfa;
    private LineDfa anchoredDfa;
    private final DfaLines dfaLines = new DfaLines();

    /** The lazy DFA finds the matching lines a byte at a time; {@link DfaLines} their ranges. */
    private void searchRegex(byte[] content, int length, int start, int startLine, LineSink sink) {
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
                for (int matchEnd = firstMatchEnd; matchEnd >= 0; matchEnd = dfa.matchEndFrom(content, start, matchEnd, end)) {
                    count = add(count, runesBefore(content, start, matchEnd, fixed), matchEnd);
                    if (matchEnd >= end) {
                        break;
                    }
                }
                return sink.line(start, end, lineNumber, ranges, count);
            }
            if (anchoredDfa == null) {
                anchoredDfa = LineDfa.anchored(pattern);
            }
            int budget = 4 * (end - start) + 64;
            int at = start;
            for (int matchEnd = firstMatchEnd; matchEnd >= 0; ) {
                long ends = LineDfa.NO_MATCH;
                int from = dfa.matchStartBound(content, at, matchEnd);
                while (from <= matchEnd) {
                    ends = anchoredDfa.anchoredEnds(content, start, from, end, budget);
                    budget -= anchoredDfa.anchoredSteps();
                    if (ends != LineDfa.NO_MATCH) {
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
                count = add(count, from, to);
                if (to == from) {
                    // After an empty match RE2J goes on one char (a UTF-16 unit) later: let it.
                    re2jLine(start, end);
                    int next = charIndex(to, 0, chars) + 1;
                    if (next <= chars) {
                        count = re2jRanges(start, end, next, dfa.matchEndFrom(content, start, byteOffset(next), end), count);
                    }
                    break;
                }
                at = to;
                matchEnd = dfa.matchEndFrom(content, start, at, end);
            }
            return count == 0 || sink.line(start, end, lineNumber, ranges, count);
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
                throw new IllegalStateException("the DFA and RE2J disagree on a match at byte " + from + " of line " + start);
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
                count = add(count, byteOffset(line.start()), byteOffset(line.end()));
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
                at = lead < at - 1 && content[lead] < 0 && (int) (Utf8.rune(content, lead, end) >>> 32) == at - lead ? lead : at - 1;
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

    /** The line's matcher: one Matcher per LineMatcher, reset onto each line. */
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

    private int add(int count, int start, int end) {
        if (2 * count + 2 > ranges.length) {
            ranges = java.util.Arrays.copyOf(ranges, ranges.length * 2);
        }
        ranges[2 * count] = start;
        ranges[2 * count + 1] = end;
        return count + 1;
    }

    /** The start of the line holding byte {@code at}: after the last newline before it, eight bytes at a time. */
    static int lineStart(byte[] content, int at) {
        int i = Math.min(at, content.length);
        while (i >= 8) {
            long newlines = Swar.newlines(Swar.word(content, i - 8));
            if (newlines != 0) {
                return i - 8 + Swar.lastByte(newlines) + 1;
            }
            i -= 8;
        }
        while (i > 0 && content[i - 1] != '\n') {
            i--;
        }
        return i;
    }

    /** The end of the line holding byte {@code at}: its newline, or {@code length}; eight bytes at a time. */
    static int lineEnd(byte[] content, int length, int at) {
        int i = at;
        while (i + 8 <= length) {
            long newlines = Swar.newlines(Swar.word(content, i));
            if (newlines != 0) {
                return i + Swar.firstByte(newlines);
            }
            i += 8;
        }
        while (i < length && content[i] != '\n') {
            i++;
        }
        return i;
    }

    /** Newlines in {@code content[from, to)}, eight bytes at a time (exact zero-byte count of {@code v ^ '\n'}). */
    static int countNewlines(byte[] content, int from, int to) {
        int n = 0;
        int i = from;
        for (; i + 8 <= to; i += 8) {
            n += Long.bitCount(Swar.newlines(Swar.word(content, i)));
        }
        for (; i < to; i++) {
            if (content[i] == '\n') {
                n++;
            }
        }
        return n;
    }
}
