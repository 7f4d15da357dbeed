package io.trigrep.backend.search;

import io.trigrep.backend.plan.Query;
import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.TrigramIndex;
import io.trigrep.re2j.Pattern;
import java.util.List;

/**
 * The search's inner loops, each behind one public call, for measuring them from outside this
 * package (the JMH benchmarks in bench/): the same code the search runs, prepared once, with only
 * counts coming back, so the package's types stay package-private. The server does not use it.
 */
public final class Kernels {
    private Kernels() {}

    /** How many candidate docs the posting lists of {@code query} leave in {@code index}. */
    public static int countCandidates(Query query, TrigramIndex index) throws CorruptIndexException {
        DocIterator it = Candidates.of(query, index);
        int n = 0;
        while (it.next() != DocIterator.NO_MORE_DOCS) {
            n++;
        }
        return n;
    }

    /** A line matcher built once and run over whole files; not thread-safe. */
    public static final class Lines {
        private final LineMatcher matcher;
        private final CountingSink sink = new CountingSink();

        private Lines(LineMatcher matcher) {
            this.matcher = matcher;
        }

        /** Finds the literal {@code utf8} bytes, case-sensitively. */
        public static Lines literal(byte[] utf8) {
            return new Lines(LineMatcher.literal(utf8));
        }

        /** Confirms {@code pattern} on the lines holding one of {@code needles} (case-sensitive), or on every line if none. */
        public static Lines regex(Pattern pattern, List<String> needles) {
            return new Lines(LineMatcher.regex(pattern, needles, false));
        }

        /** Searches the first {@code length} bytes of {@code content}; returns how many match ranges it found. */
        public int countRanges(byte[] content, int length) {
            sink.ranges = 0;
            matcher.search(content, length, 0, 1, sink);
            return sink.ranges;
        }
    }

    /** The lazy DFA alone, built once; not thread-safe. */
    public static final class Dfa {
        private final LineDfa dfa;
        private final CountingLines lines = new CountingLines();

        public Dfa(Pattern pattern) {
            this.dfa = new LineDfa(pattern);
        }

        /** Searches the first {@code length} bytes of {@code content}; returns how many lines hold a match. */
        public int countLines(byte[] content, int length) {
            lines.lines = 0;
            dfa.search(content, length, 0, 1, lines);
            return lines.lines;
        }
    }

    private static final class CountingLines implements LineDfa.Lines {
        int lines;

        @Override
        public boolean line(int start, int end, int lineNumber, int firstMatchEnd) {
            lines++;
            return true;
        }
    }

    private static final class CountingSink implements LineSink {
        int ranges;

        @Override
        public boolean line(int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount) {
            this.ranges += rangeCount;
            return true;
        }
    }
}
