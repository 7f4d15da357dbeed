package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.simd.Vectors;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The literal scan's kernel finds the first occurrence from any offset, as a naive search does,
 * whether a vector of positions is tested at once or eight at a time: over texts long enough for
 * several vectors, hits in every position of a vector and of a word, at the very end, case-blind.
 */
class LiteralScanTest {
    @Test
    void theseTestsRunTheVectorPath() {
        // source-backend's tests start with the Vector API (its pom), as the launcher's backends do;
        // the frontend's, whose in-process backends run without it, cover the scalar path.
        assertThat(Vectors.BYTES).isGreaterThanOrEqualTo(16);
    }

    @Property(tries = 2000)
    void nextHitFindsTheFirstOccurrenceFromAnyOffset(
            @ForAll("texts") String text,
            @ForAll("needles") String needle,
            @ForAll boolean fold,
            @ForAll @IntRange(min = 0, max = 600) int fromSeed) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        byte[] pattern =
                (fold ? needle.toLowerCase(java.util.Locale.ROOT) : needle).getBytes(StandardCharsets.ISO_8859_1);
        int[] pair = ByteRarity.rarestPair(pattern, fold);
        // The scan may read up to seven bytes past the length, as a backend's scratch array allows.
        byte[] padded = java.util.Arrays.copyOf(bytes, bytes.length + 7);
        int from = fromSeed % (bytes.length + 1);
        assertThat(LiteralScan.nextHit(padded, bytes.length, pattern, pair[0], pair[1], from, fold))
                .isEqualTo(naive(bytes, pattern, from, fold));
    }

    private static int naive(byte[] text, byte[] needle, int from, boolean fold) {
        outer:
        for (int i = from; i + needle.length <= text.length; i++) {
            for (int k = 0; k < needle.length; k++) {
                byte b = text[i + k];
                if (fold && b >= 'A' && b <= 'Z') {
                    b = (byte) (b + 32);
                }
                if (b != needle[k]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * A sink that knows the lines after each match (as the search's does, from their context)
     * gets from the scan what one that knows none gets: the same lines, bounds, numbers and
     * ranges, from any starting line, whatever the number of lines it knows.
     */
    @Property(tries = 1000)
    void linesTheSinkKnowsAreReportedAsIfFoundAgain(
            @ForAll("texts") String text,
            @ForAll("needles") String needle,
            @ForAll @IntRange(min = 0, max = 3) int after,
            @ForAll @IntRange(min = 0, max = 600) int startSeed) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        byte[] pattern = needle.getBytes(StandardCharsets.ISO_8859_1);
        int[] pair = ByteRarity.rarestPair(pattern, false);
        byte[] padded = java.util.Arrays.copyOf(bytes, bytes.length + 7);
        // A start at a line's first byte, as a paused search resumes.
        int start = LineMatcher.lineStart(bytes, startSeed % (bytes.length + 1));
        int startLine = 1 + LineMatcher.countNewlines(bytes, 0, start);
        Recording blind = new Recording(bytes, 0);
        Recording knowing = new Recording(bytes, after);
        new LiteralScan().scan(padded, pattern, pair, padded, bytes.length, start, startLine, blind, false);
        new LiteralScan().scan(padded, pattern, pair, padded, bytes.length, start, startLine, knowing, false);
        assertThat(knowing.lines).isEqualTo(blind.lines);
    }

    /** Records each line as "number:start-end:ranges", and knows the {@code after} lines after each one it was given. */
    private static final class Recording implements LineSink {
        final java.util.List<String> lines = new java.util.ArrayList<>();
        private final byte[] text;
        private final int after;
        private final java.util.Map<Integer, Integer> ends = new java.util.HashMap<>();

        Recording(byte[] text, int after) {
            this.text = text;
            this.after = after;
        }

        @Override
        public boolean line(int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount) {
            assertThat(LineMatcher.lineStart(text, lineStart))
                    .as("a line's start")
                    .isEqualTo(lineStart);
            assertThat(LineMatcher.lineEnd(text, text.length, lineStart))
                    .as("its end")
                    .isEqualTo(lineEnd);
            lines.add(lineNumber + ":" + lineStart + "-" + lineEnd + ":"
                    + java.util.Arrays.toString(java.util.Arrays.copyOf(ranges, 2 * rangeCount)));
            int end = lineEnd;
            for (int k = 1; k <= after && end < text.length; k++) {
                end = LineMatcher.lineEnd(text, text.length, end + 1);
                ends.put(lineNumber + k, end);
            }
            return true;
        }

        @Override
        public int knownEnd(int number) {
            return ends.getOrDefault(number, -1);
        }
    }

    @Provide
    Arbitrary<String> texts() {
        // Few letters, so that the rare pair and whole needles occur at every offset; up to 600
        // bytes, so that several vectors and a tail are scanned.
        return Arbitraries.strings().withChars("abAB_\nx").ofMinLength(0).ofMaxLength(600);
    }

    @Provide
    Arbitrary<String> needles() {
        return Arbitraries.strings().withChars("abAB_x").ofMinLength(1).ofMaxLength(9);
    }
}
