package io.trigrep.backend.search;

import io.trigrep.indexer.bytes.Swar;
import io.trigrep.re2j.Pattern;
import io.trigrep.simd.VectorScan;
import io.trigrep.simd.Vectors;
import java.util.List;

/**
 * Finds the lines of a file that match, with every match on each line, with grep's semantics:
 * a line matches when the pattern matches within the line alone ({@code ^} and {@code $} at line
 * boundaries, {@code .} never a newline). One per worker thread; not thread-safe.
 *
 * <p>The strategy is chosen once, when the matcher is made. Case-sensitive literals skip the
 * regex engine: their bytes are found eight at a time ({@link LiteralSearch}); case-insensitive
 * ones too, on ASCII files ({@link FoldedLiteralSearch}). Regexes with literal pieces find
 * candidate lines by those pieces ({@link NeedleSearch}); the others by a lazy DFA over the bytes
 * ({@link RegexSearch}). Either way {@link RegexRanges} confirms each candidate line and finds its
 * matches.
 */
sealed interface LineMatcher permits LiteralSearch, FoldedLiteralSearch, NeedleSearch, RegexSearch {
    /** A regex; {@code needles} (lower case when {@code foldNeedles}) prefilter lines when not empty. */
    static LineMatcher regex(Pattern pattern, List<String> needles, boolean foldNeedles) {
        return needles.isEmpty() ? new RegexSearch(pattern) : new NeedleSearch(pattern, needles, foldNeedles);
    }

    /** A case-sensitive literal, as UTF-8 bytes. */
    static LineMatcher literal(byte[] utf8) {
        return new LiteralSearch(utf8);
    }

    /** A case-insensitive ASCII literal, {@code lowerCase}, which is {@code pattern}'s one match. */
    static LineMatcher foldedLiteral(Pattern pattern, byte[] lowerCase) {
        return new FoldedLiteralSearch(pattern, lowerCase);
    }

    /**
     * Reports every matching line of {@code content[0, length)} from byte {@code start} on, which
     * is the start of line number {@code startLine}: a search paused by its sink resumes there.
     */
    void search(byte[] content, int length, int start, int startLine, LineSink sink);

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

    /**
     * Newlines in {@code content[from, to)}: whole vectors at a time where the JVM has the Vector
     * API ({@link Vectors#BYTES}), then eight bytes at a time (exact zero-byte count of {@code v ^
     * '\n'}), then bytes.
     */
    static int countNewlines(byte[] content, int from, int to) {
        int n = 0;
        int i = from;
        if (Vectors.BYTES > 0 && to - from >= Vectors.BYTES) {
            i = from + (to - from) / Vectors.BYTES * Vectors.BYTES;
            n = VectorScan.count(content, from, i, (byte) '\n');
        }
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
