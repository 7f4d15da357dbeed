package io.trigrep.backend.search;

import static io.trigrep.backend.search.LineMatcherTest.naive;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.re2j.Pattern;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * The edges of a search: a file that ends where the buffer holding it goes on (a reused buffer
 * keeps the last file's bytes), a search resumed at the end, line numbers that start elsewhere
 * than 1, and a DFA cache dropped on non-ASCII text.
 */
class LineMatcherEdgesTest {
    /** Runs the matcher on {@code text} inside a buffer that goes on with {@code rest}, which no search may read. */
    private static List<LineMatcherTest.Hit> runInBuffer(LineMatcher matcher, String text, String rest, int startLine) {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        byte[] buffer = (text + rest).getBytes(StandardCharsets.UTF_8);
        List<LineMatcherTest.Hit> hits = new ArrayList<>();
        matcher.search(buffer, content.length, 0, startLine, (lineStart, lineEnd, lineNumber, ranges, count) -> {
            assertThat(lineEnd).isLessThanOrEqualTo(content.length);
            List<Integer> r = new ArrayList<>();
            for (int i = 0; i < 2 * count; i++) {
                r.add(ranges[i] - lineStart);
            }
            hits.add(new LineMatcherTest.Hit(lineNumber - startLine + 1, r));
            return true;
        });
        return hits;
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.strings().withChars("abAB \n\nxé0").ofMaxLength(40);
    }

    @Provide
    Arbitrary<String> rests() {
        // What the buffer holds past the file: more of a line, and matches for every regex below.
        return Arbitraries.of("ab\n", "b", "bab ab\nab", "ABab é", "\nab");
    }

    @Provide
    Arbitrary<String> patterns() {
        return Arbitraries.of(
                "ab",
                "ab$",
                "b$",
                "a\\z",
                "^ab",
                "ab|ba",
                "[ab]+",
                "a.b",
                "b\\b",
                "\\Bb",
                "(?i)ab",
                "é$",
                "x*",
                "$",
                "a[^\\n]*b",
                "ab?",
                "0|a",
                "(?:a|b)(?:b|a)");
    }

    @Property(tries = 600)
    void noMatcherReadsPastTheFile(
            @ForAll("texts") String text, @ForAll("rests") String rest, @ForAll("patterns") String regex) {
        Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
        List<LineMatcherTest.Hit> truth = naive(pattern, text, 1);
        assertThat(runInBuffer(LineMatcher.regex(pattern, List.of(), false), text, rest, 7))
                .as("dfa %s", regex)
                .isEqualTo(truth);
        if (regex.equals("ab") || regex.equals("ab$") || regex.equals("^ab")) {
            assertThat(runInBuffer(LineMatcher.regex(pattern, List.of("ab"), false), text, rest, 7))
                    .as("needles %s", regex)
                    .isEqualTo(truth);
        }
        if (regex.equals("(?i)ab")) {
            assertThat(runInBuffer(LineMatcher.regex(pattern, List.of("ab"), true), text, rest, 7))
                    .isEqualTo(truth);
            assertThat(runInBuffer(
                            LineMatcher.foldedLiteral(pattern, "ab".getBytes(StandardCharsets.US_ASCII)),
                            text,
                            rest,
                            7))
                    .isEqualTo(truth);
        }
        if (regex.equals("ab")) {
            assertThat(runInBuffer(LineMatcher.literal("ab".getBytes(StandardCharsets.UTF_8)), text, rest, 7))
                    .isEqualTo(truth);
        }
    }

    @Test
    void aSearchResumedAtTheEndFindsNothing() {
        byte[] content = "ab\nxy".getBytes(StandardCharsets.UTF_8);
        for (String regex : List.of("x*", "$", "y$", "^", "y")) {
            List<Integer> lines = new ArrayList<>();
            LineMatcher.regex(Pattern.compile(regex, Pattern.MULTILINE), List.of(), false)
                    .search(content, content.length, content.length, 3, (s, e, n, r, c) -> lines.add(n));
            assertThat(lines).as("regex %s", regex).isEmpty();
            new LineDfa(Pattern.compile(regex, Pattern.MULTILINE))
                    .search(content, content.length, content.length, 3, (s, e, n, m) -> lines.add(n));
            assertThat(lines).as("dfa %s", regex).isEmpty();
        }
    }

    @Test
    void lineNumbersCountFromTheFirstLineGiven() {
        byte[] content = "ab\n\nxab\nab".getBytes(StandardCharsets.UTF_8);
        List<Integer> lines = new ArrayList<>();
        LineMatcher.literal("ab".getBytes(StandardCharsets.UTF_8))
                .search(content, content.length, 0, 10, (s, e, n, r, c) -> lines.add(n));
        LineMatcher.regex(Pattern.compile("a.", Pattern.MULTILINE), List.of(), false)
                .search(content, content.length, 0, 20, (s, e, n, r, c) -> lines.add(n));
        LineMatcher.regex(Pattern.compile("ab$", Pattern.MULTILINE), List.of(), false)
                .search(content, content.length, 0, 30, (s, e, n, r, c) -> lines.add(n));
        LineMatcher.regex(Pattern.compile("x?ab", Pattern.MULTILINE), List.of("ab"), false)
                .search(content, content.length, 3, 41, (s, e, n, r, c) -> lines.add(n));
        assertThat(lines).containsExactly(10, 12, 13, 20, 22, 23, 30, 32, 33, 42, 43);
    }

    @Test
    void aSinkThatStopsEndsTheSearch() {
        byte[] content = "ab\nab\nab\n".getBytes(StandardCharsets.UTF_8);
        List<LineMatcher> matchers = List.of(
                LineMatcher.literal("ab".getBytes(StandardCharsets.UTF_8)),
                LineMatcher.foldedLiteral(
                        Pattern.compile("(?i)ab", Pattern.MULTILINE), "ab".getBytes(StandardCharsets.US_ASCII)),
                LineMatcher.regex(Pattern.compile("a+b", Pattern.MULTILINE), List.of(), false),
                LineMatcher.regex(Pattern.compile("a+b", Pattern.MULTILINE), List.of("ab"), false),
                LineMatcher.regex(Pattern.compile("b$", Pattern.MULTILINE), List.of(), false),
                LineMatcher.regex(Pattern.compile("a.", Pattern.MULTILINE), List.of(), false));
        for (LineMatcher matcher : matchers) {
            List<Integer> lines = new ArrayList<>();
            matcher.search(content, content.length, 0, 1, (s, e, n, r, c) -> lines.add(n) && n < 2);
            assertThat(lines).as("%s", matcher.getClass().getSimpleName()).containsExactly(1, 2);
        }
    }

    /** The cache is dropped on runes as on bytes, and the lines found are the same. */
    @Test
    void theDfaAgreesWhenNonAsciiTextDropsItsCache() {
        Pattern pattern = Pattern.compile("(é|ü)*é(é|ü){11}x", Pattern.MULTILINE);
        java.util.Random random = new java.util.Random(7);
        StringBuilder text = new StringBuilder();
        for (int line = 0; line < 3; line++) {
            for (int k = 0; k < 3000; k++) {
                text.append(random.nextBoolean() ? 'é' : 'ü');
            }
            text.append(line == 1 ? "\n" : "x\n");
        }
        byte[] content = text.toString().getBytes(StandardCharsets.UTF_8);
        List<Integer> found = new ArrayList<>();
        LineDfa dfa = new LineDfa(pattern);
        dfa.search(content, content.length, 0, 1, (start, end, line, matchEnd) -> found.add(line));
        assertThat(found)
                .isEqualTo(naive(pattern, text.toString(), 1).stream()
                        .map(LineMatcherTest.Hit::line)
                        .toList());
        assertThat(dfa.resets()).isPositive();
        assertThat(LineMatcherTest.run(LineMatcher.regex(pattern, List.of(), false), content, 0, 1))
                .isEqualTo(naive(pattern, text.toString(), 1));
    }

    /** A folded literal with k or s on a file that is not all ASCII goes through the regex, which folds K to the Kelvin sign. */
    @Test
    void foldedLiteralsWithKOrSFoldAsTheRegexDoes() {
        String text = "a \u212aey\nthe KEY\nno\n\u017fky é\nsky\n";
        for (String literal : List.of("key", "sk", "k", "ey", "s")) {
            Pattern pattern = Pattern.compile("(?i)" + Pattern.quote(literal), Pattern.MULTILINE);
            LineMatcher matcher = LineMatcher.foldedLiteral(
                    pattern, literal.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
            assertThat(LineMatcherTest.run(matcher, text.getBytes(StandardCharsets.UTF_8), 0, 1))
                    .as("literal %s", literal)
                    .isEqualTo(naive(pattern, text, 1))
                    .isNotEmpty();
            String ascii = "the KEY\nno\nsky\n";
            assertThat(LineMatcherTest.run(matcher, ascii.getBytes(StandardCharsets.UTF_8), 0, 1))
                    .as("ascii literal %s", literal)
                    .isEqualTo(naive(pattern, ascii, 1));
        }
    }

    /**
     * Each anchored try here runs to the line's end (the a+b thread lives on) though the match
     * is one byte: the tries run out of steps and RE2J finds the rest of the line's matches.
     */
    @Test
    void aLineOfNearMissesGoesToRe2jForTheRest() {
        for (String regex : List.of("a|a+b", "(?:a|a+b)c?", "é|é+b")) {
            Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
            String c = regex.startsWith("é") ? "é" : "a";
            String text = "x " + c.repeat(300) + " y\n" + c.repeat(40) + "b " + c + "\n";
            assertThat(LineMatcherTest.run(
                            LineMatcher.regex(pattern, List.of(), false), text.getBytes(StandardCharsets.UTF_8), 0, 1))
                    .as("regex %s", regex)
                    .isEqualTo(naive(pattern, text, 1));
        }
    }

    @Test
    void anEmptyLiteralFindsNothing() {
        List<Integer> lines = new ArrayList<>();
        LineMatcher.literal(new byte[0])
                .search("ab\n".getBytes(StandardCharsets.UTF_8), 3, 0, 1, (s, e, n, r, c) -> lines.add(n));
        assertThat(lines).isEmpty();
    }
}
