package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.re2j.Pattern;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Every matcher (byte-scanning literal, lower-cased literal, needle-prefiltered regex, whole-file
 * regex) reports the same lines, line numbers and ranges as a naive per-line scan, from any line
 * a paused search may resume at.
 */
class LineMatcherTest {
    record Hit(int line, List<Integer> ranges) {}

    static List<Hit> run(LineMatcher matcher, byte[] content, int start, int startLine) {
        List<Hit> hits = new ArrayList<>();
        byte[] padded = java.util.Arrays.copyOf(content, content.length + 7);
        matcher.search(padded, content.length, start, startLine, (lineStart, lineEnd, lineNumber, ranges, count) -> {
            List<Integer> r = new ArrayList<>();
            for (int i = 0; i < 2 * count; i++) {
                r.add(ranges[i] - lineStart);
            }
            hits.add(new Hit(lineNumber, r));
            return true;
        });
        return hits;
    }

    /** The truth: each line alone, RE2J on its String, ranges converted to UTF-8 byte offsets. */
    static List<Hit> naive(Pattern pattern, String text, int fromLine) {
        List<Hit> hits = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        int count = text.endsWith("\n") ? lines.length - 1 : lines.length;
        for (int i = fromLine - 1; i < count; i++) {
            var m = pattern.matcher(lines[i]);
            List<Integer> r = new ArrayList<>();
            for (int at = 0; at <= lines[i].length() && m.find(at); ) {
                r.add(lines[i].substring(0, m.start()).getBytes(StandardCharsets.UTF_8).length);
                r.add(lines[i].substring(0, m.end()).getBytes(StandardCharsets.UTF_8).length);
                at = m.end() > m.start() ? m.end() : m.end() + 1;
            }
            if (!r.isEmpty()) {
                hits.add(new Hit(i + 1, r));
            }
        }
        return hits;
    }

    static int offsetOfLine(String text, int line) {
        int at = 0;
        for (int i = 1; i < line; i++) {
            at = text.indexOf('\n', at) + 1;
        }
        return text.substring(0, at).getBytes(StandardCharsets.UTF_8).length;
    }

    @Property(tries = 1500)
    void literalScanAgreesWithANaiveScan(@ForAll("texts") String text, @ForAll("needles") String needle,
                                         @ForAll @IntRange(min = 1, max = 30) int resumeLine) {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        int lines = (int) text.chars().filter(c -> c == '\n').count() + 1;
        int line = Math.min(resumeLine, lines);
        Pattern quoted = Pattern.compile(Pattern.quote(needle), Pattern.MULTILINE);
        assertThat(run(LineMatcher.literal(needle.getBytes(StandardCharsets.UTF_8)), content, offsetOfLine(text, line), line))
                .isEqualTo(naive(quoted, text, line));
    }

    @Property(tries = 1500)
    void foldedLiteralAgreesWithTheCaseInsensitiveRegex(@ForAll("texts") String text, @ForAll("needles") String needle) {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        Pattern pattern = Pattern.compile("(?i)" + Pattern.quote(needle), Pattern.MULTILINE);
        byte[] lower = needle.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
        assertThat(run(LineMatcher.foldedLiteral(pattern, lower), content, 0, 1)).isEqualTo(naive(pattern, text, 1));
    }

    @Property(tries = 800)
    void regexPathsAgreeWithANaiveScan(@ForAll("texts") String text, @ForAll("regexes") String regex) {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
        List<Hit> truth = naive(pattern, text, 1);
        assertThat(run(LineMatcher.regex(pattern, List.of(), false), content, 0, 1)).as("whole file").isEqualTo(truth);
        // Every match of these regexes holds "ab" (in any case for the (?i) one: its needle is folded).
        boolean fold = regex.startsWith("(?i)");
        assertThat(run(LineMatcher.regex(pattern, List.of("ab"), fold), content, 0, 1)).as("needles").isEqualTo(truth);
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.strings().withChars("abAB \n\nxyzſKé日").ofMaxLength(300);
    }

    @Provide
    Arbitrary<String> needles() {
        return Arbitraries.strings().withChars("abABxy ").ofMinLength(1).ofMaxLength(4);
    }

    @Provide
    Arbitrary<String> regexes() {
        return Arbitraries.of("ab", "ab+", "x?ab", "^ab", "ab$", "a?ab.", "(ab|ba)b", "\\bab", "ab[^\\n]*y", "(?i)ab");
    }
}
