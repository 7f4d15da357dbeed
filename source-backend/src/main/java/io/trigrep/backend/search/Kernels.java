package io.trigrep.backend.search;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.TrigramIndex;
import io.trigrep.proto.MatchLines;
import io.trigrep.query.plan.Query;
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
        private final ContextSink knowing = new ContextSink(true);
        private final ContextSink blind = new ContextSink(false);

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

        /**
         * Searches as a search does for a results-by-line answer: each matching line's {@code
         * contextLines} lines on each side are found ({@link KnownLines#around}), and when {@code
         * tellKnown} the matcher is told which lines those were ({@link LineSink#knownEnd}), as
         * the search's sink tells it. Returns the bytes of the lines shown, context included.
         */
        public long countShownBytes(byte[] content, int length, int contextLines, boolean tellKnown) {
            ContextSink context = tellKnown ? knowing : blind;
            context.start(content, length, contextLines);
            matcher.search(content, length, 0, 1, context);
            return context.shown.bytes;
        }
    }

    /** Finds each matching line's context as the search does, and counts the bytes shown. */
    private static final class ContextSink implements LineSink {
        private final boolean tellKnown;
        private final KnownLines known = new KnownLines();
        private final ShownBytes shown = new ShownBytes();
        private byte[] content;
        private int length;
        private int contextLines;

        ContextSink(boolean tellKnown) {
            this.tellKnown = tellKnown;
        }

        void start(byte[] content, int length, int contextLines) {
            this.content = content;
            this.length = length;
            this.contextLines = contextLines;
            known.clear();
            shown.bytes = 0;
        }

        @Override
        public boolean line(int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount) {
            known.around(content, length, lineStart, lineEnd, lineNumber, contextLines, shown);
            return true;
        }

        @Override
        public int knownEnd(int number) {
            return tellKnown ? known.knownEnd(number) : -1;
        }
    }

    private static final class ShownBytes implements MatchLines {
        long bytes;

        @Override
        public ShownBytes before(int offset, int length) {
            bytes += length;
            return this;
        }

        @Override
        public ShownBytes match(int offset, int length) {
            bytes += length;
            return this;
        }

        @Override
        public ShownBytes after(int offset, int length) {
            bytes += length;
            return this;
        }

        @Override
        public ShownBytes range(int start, int end) {
            return this;
        }

        @Override
        public boolean pastWindow() {
            return false;
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
