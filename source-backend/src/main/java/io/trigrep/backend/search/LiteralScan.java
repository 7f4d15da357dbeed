package io.trigrep.backend.search;

import io.trigrep.indexer.bytes.Swar;
import io.trigrep.simd.VectorScan;
import io.trigrep.simd.Vectors;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Finds the lines that hold a literal byte string, and every occurrence on each, without the
 * regex engine: the literal's two rarest bytes are tested eight positions at a time and the whole
 * literal compared only where both agree. One per matcher; not thread-safe (it owns the ranges
 * buffer it reports).
 */
final class LiteralScan {
    private final Ranges ranges = new Ranges();

    /**
     * Every line of {@code text} (the content, or its lower case) holding the needle (one that
     * {@link #fitsOnALine}), found by {@link #nextHit}. Newlines are counted only up to each hit,
     * so a file without one (most candidates of a selective query) costs the scan alone; lines the
     * sink already knows (the context after the last match, {@link LineSink#knownEnd}) are
     * stepped over without counting, and a hit on one of them needs no scan for its bounds: on
     * Linux {@code struct}, counting and finding those bounds again was a tenth of a backend's
     * samples.
     *
     * <p>Each byte is scanned once: the hits on a line are collected by one scan from its first
     * hit on, which goes past the line's end to the next hit, and that hit is the next line's
     * first. A scan that stopped at the line's end and began again after it tested the line's
     * last bytes one at a time, on every matching line: a tenth of a backend's samples on Linux
     * {@code struct}.
     */
    void scan(
            byte[] text,
            byte[] needle,
            int[] pair,
            byte[] content,
            int length,
            int start,
            int startLine,
            LineSink sink,
            boolean fold) {
        int n = needle.length;
        int lineNumber = startLine;
        // Always the first byte of line lineNumber.
        int counted = start;
        int at = nextHit(text, length, needle, pair[0], pair[1], start, fold);
        while (at >= 0) {
            int end;
            while ((end = sink.knownEnd(lineNumber)) >= 0 && end < at) {
                counted = end + 1;
                lineNumber++;
            }
            int lineStart;
            int lineEnd;
            if (end >= 0) {
                lineStart = counted;
                lineEnd = end;
            } else {
                int newlines = LineMatcher.countNewlines(content, counted, at);
                lineNumber += newlines;
                lineStart = newlines == 0 ? counted : LineMatcher.lineStart(content, at);
                lineEnd = LineMatcher.lineEnd(content, length, at);
            }
            int count = 0;
            int next = at;
            do {
                count = ranges.add(count, next, next + n);
                next = nextHit(text, length, needle, pair[0], pair[1], next + n, fold);
            } while (next >= 0 && next < lineEnd);
            if (!sink.line(lineStart, lineEnd, lineNumber, ranges.array(), count)) {
                return;
            }
            lineNumber++;
            counted = lineEnd + 1;
            at = next;
        }
    }

    /**
     * Whether {@code needle} can be on a line at all: not when it holds a newline, which ends
     * every line (grep finds no line for such a literal). The scan is only ever given needles
     * that can: it takes a hit for the line the hit starts on.
     */
    static boolean fitsOnALine(byte[] needle) {
        for (byte b : needle) {
            if (b == '\n') {
                return false;
            }
        }
        return true;
    }

    /**
     * The first offset from {@code from} on where {@code needle} occurs in {@code text[0, length)},
     * or -1. Eight positions at a time, the needle's bytes at offsets {@code a} and {@code b} (its
     * two rarest, {@link ByteRarity}) are tested; only where both agree is the whole needle
     * compared. Where the JVM has the Vector API ({@link Vectors#BYTES}), a vector of positions is
     * tested at once first and skipped when none qualifies, which on a selective query's
     * candidates, where the pair is rare, skips most of the text; the eight-at-a-time test then
     * finds the positions in a stretch that qualifies.
     */
    static int nextHit(byte[] text, int length, byte[] needle, int a, int b, int from, boolean fold) {
        // Folding: OR-ing 0x20 maps A-Z onto a-z (and a few other bytes elsewhere, which the
        // full compare then rejects), so words are filtered with the needle's lower-case bytes.
        long aFold = fold && isLetter(needle[a]) ? Swar.broadcast(0x20) : 0;
        long bFold = fold && isLetter(needle[b]) ? Swar.broadcast(0x20) : 0;
        long aBytes = Swar.broadcast(needle[a]);
        long bBytes = Swar.broadcast(needle[b]);
        int i = from;
        int width = Vectors.BYTES;
        if (width > 0) {
            while (true) {
                i = VectorScan.firstCandidateBlock(
                        text, length, a, needle[a], (byte) aFold, b, needle[b], (byte) bFold, i);
                if (i > length - b - width) {
                    break;
                }
                int at = eightAtATime(text, length, needle, a, b, i, i + width, aFold, bFold, aBytes, bBytes, fold);
                if (at >= 0) {
                    return at;
                }
                i += width;
            }
        }
        // Whole steps of eight while a word at i + b fits, then byte by byte.
        int end = i + Math.max(0, (length - b - i) >> 3 << 3);
        int at = eightAtATime(text, length, needle, a, b, i, end, aFold, bFold, aBytes, bBytes, fold);
        if (at >= 0) {
            return at;
        }
        for (int k = end; k <= length - needle.length; k++) {
            if (matchesAt(text, k, needle, fold)) {
                return k;
            }
        }
        return -1;
    }

    /**
     * The first hit at a position in {@code [from, to)}, a multiple of eight long with {@code to + b
     * <= length}. The loop only ever steps by eight, so the JIT can hoist its bounds checks: a scan
     * that also jumped past lines ran at two thirds of the speed.
     */
    private static int eightAtATime(
            byte[] text,
            int length,
            byte[] needle,
            int a,
            int b,
            int from,
            int to,
            long aFold,
            long bFold,
            long aBytes,
            long bBytes,
            boolean fold) {
        int last = length - needle.length;
        for (int i = from; i < to; i += 8) {
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
        return -1;
    }

    /** Whether {@code needle} (lower case when folding) occurs at {@code at}, comparing ASCII case-blind when folding. */
    private static boolean matchesAt(byte[] text, int at, byte[] needle, boolean fold) {
        if (!fold) {
            // Words, not bytes: where the rare pair is part of a common word (struct's "uc"), most
            // candidates are matches, each a byte loop's worth of branches (7 % of a backend's
            // samples on Linux struct). Arrays.equals was worse: a fifth, in checking its ranges.
            int n = needle.length;
            if (n >= Long.BYTES) {
                for (int k = 0; k < n - Long.BYTES; k += Long.BYTES) {
                    if (Swar.word(text, at + k) != Swar.word(needle, k)) {
                        return false;
                    }
                }
                return Swar.word(text, at + n - Long.BYTES) == Swar.word(needle, n - Long.BYTES);
            }
            if (n >= Integer.BYTES) {
                // Two ints that overlap cover four to eight bytes.
                return Swar.halfWord(text, at) == Swar.halfWord(needle, 0)
                        && Swar.halfWord(text, at + n - Integer.BYTES) == Swar.halfWord(needle, n - Integer.BYTES);
            }
            for (int k = 0; k < n; k++) {
                if (text[at + k] != needle[k]) {
                    return false;
                }
            }
            return true;
        }
        for (int k = 0; k < needle.length; k++) {
            byte b = text[at + k];
            if (b >= 'A' && b <= 'Z') {
                b = (byte) (b + 32);
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

    static byte[][] latin1(List<String> strings) {
        byte[][] bytes = new byte[strings.size()][];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = strings.get(i).getBytes(StandardCharsets.ISO_8859_1);
        }
        return bytes;
    }

    static int[][] rarePairs(byte[][] needles) {
        int[][] pairs = new int[needles.length][];
        for (int i = 0; i < needles.length; i++) {
            pairs[i] = ByteRarity.rarestPair(needles[i], false);
        }
        return pairs;
    }
}
