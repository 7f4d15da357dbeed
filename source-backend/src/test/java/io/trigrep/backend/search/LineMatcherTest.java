package io.trigrep.backend.search;

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
        // As grep counts: an empty file has no line, and a final newline ends the last line.
        int count = text.isEmpty() ? 0 : text.endsWith("\n") ? lines.length - 1 : lines.length;
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
    void literalScanAgreesWithANaiveScan(
            @ForAll("texts") String text,
            @ForAll("needles") String needle,
            @ForAll @IntRange(min = 1, max = 30) int resumeLine) {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        int lines = (int) text.chars().filter(c -> c == '\n').count() + 1;
        int line = Math.min(resumeLine, lines);
        Pattern quoted = Pattern.compile(Pattern.quote(needle), Pattern.MULTILINE);
        assertThat(run(
                        LineMatcher.literal(needle.getBytes(StandardCharsets.UTF_8)),
                        content,
                        offsetOfLine(text, line),
                        line))
                .isEqualTo(naive(quoted, text, line));
    }

    @Property(tries = 1500)
    void foldedLiteralAgreesWithTheCaseInsensitiveRegex(
            @ForAll("texts") String text, @ForAll("needles") String needle) {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        Pattern pattern = Pattern.compile("(?i)" + Pattern.quote(needle), Pattern.MULTILINE);
        byte[] lower = needle.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
        assertThat(run(LineMatcher.foldedLiteral(pattern, lower), content, 0, 1))
                .isEqualTo(naive(pattern, text, 1));
    }

    @Property(tries = 800)
    void regexPathsAgreeWithANaiveScan(@ForAll("texts") String text, @ForAll("regexes") String regex) {
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
        List<Hit> truth = naive(pattern, text, 1);
        assertThat(run(LineMatcher.regex(pattern, List.of(), false), content, 0, 1))
                .as("whole file")
                .isEqualTo(truth);
        // Every match of these regexes holds "ab" (in any case for the (?i) one: its needle is folded).
        boolean fold = regex.startsWith("(?i)");
        assertThat(run(LineMatcher.regex(pattern, List.of("ab"), fold), content, 0, 1))
                .as("needles")
                .isEqualTo(truth);
    }

    /**
     * The DFA finds the same lines as RE2J on each line alone, for generated regexes over every
     * construct the DFA treats itself: classes, repetition, alternation, case folding, non-ASCII,
     * {@code ^ $ \\A \\z \\b \\B}, empty matches. The whole-file matcher built on it must then agree in
     * ranges too, from any line a paused search resumes at.
     */
    @Property(tries = 3000)
    void theDfaFindsExactlyTheLinesRe2jMatches(
            @ForAll("texts") String text,
            @ForAll("generatedRegexes") String regex,
            @ForAll @IntRange(min = 1, max = 4) int fromLine) {
        Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        int lines = text.split("\n", -1).length;
        int from = Math.min(fromLine, lines);
        List<Integer> truth = naive(pattern, text, from).stream().map(Hit::line).toList();
        List<Integer> found = new ArrayList<>();
        new LineDfa(pattern)
                .search(
                        content,
                        content.length,
                        offsetOfLine(text, from),
                        from,
                        (start, end, line, matchEnd) -> found.add(line));
        assertThat(found).as("regex %s", regex).isEqualTo(truth);
        assertThat(run(LineMatcher.regex(pattern, List.of(), false), content, offsetOfLine(text, from), from))
                .as("regex %s", regex)
                .isEqualTo(naive(pattern, text, from));
    }

    /** The byte the DFA jumps to is one every match holds, and only such a byte. */
    @org.junit.jupiter.api.Test
    void theRequiredByteIsHeldByEveryMatch() {
        assertThat(required("\\w+_\\w+\\(")).isIn((int) '_', (int) '(');
        assertThat(required("x\\(")).isEqualTo('(');
        assertThat(required("0x[0-9a-f]{8}")).isIn((int) '0', (int) 'x');
        assertThat(required("foo(bar)?")).isIn((int) 'f', (int) 'o');
        assertThat(required("[A-Z]{8}")).isEqualTo(-1);
        assertThat(required("a|b")).isEqualTo(-1);
        assertThat(required("(?i)x")).as("folded: X matches too").isEqualTo(-1);
        assertThat(required("x*")).isEqualTo(-1);
    }

    private static int required(String regex) {
        return ProgramFacts.requiredByte(io.trigrep.re2j.CompiledProgram.of(Pattern.compile(regex, Pattern.MULTILINE)));
    }

    /** A DFA that outgrows its state budget drops its cache and goes on, finding the same lines. */
    @org.junit.jupiter.api.Test
    void theDfaAgreesWhenItsCacheIsDroppedOnTheWay() {
        // (a|b)*a(a|b){12}x: the textbook regex whose DFA has 2^13 states, more than MAX_STATES.
        // Random a/b lines see thousands of distinct 13-letter windows, so the cache fills up.
        Pattern pattern = Pattern.compile("(a|b)*a(a|b){12}x", Pattern.MULTILINE);
        for (long seed = 1; seed <= 5; seed++) {
            java.util.Random random = new java.util.Random(seed);
            StringBuilder text = new StringBuilder();
            for (int line = 0; line < 4; line++) {
                for (int k = 0; k < 5000; k++) {
                    text.append(random.nextBoolean() ? 'a' : 'b');
                }
                text.append(random.nextBoolean() ? "x\n" : "\n");
            }
            byte[] content = text.toString().getBytes(StandardCharsets.UTF_8);
            List<Integer> found = new ArrayList<>();
            LineDfa dfa = new LineDfa(pattern);
            dfa.search(content, content.length, 0, 1, (start, end, line, matchEnd) -> found.add(line));
            assertThat(found)
                    .isEqualTo(naive(pattern, text.toString(), 1).stream()
                            .map(Hit::line)
                            .toList());
            assertThat(dfa.resets()).as("seed %d", seed).isPositive();
            // And through the line matcher, whose range search asks the same DFA mid-line.
            assertThat(run(LineMatcher.regex(pattern, List.of(), false), content, 0, 1))
                    .isEqualTo(naive(pattern, text.toString(), 1));
        }
    }

    @Property(tries = 500)
    void lineBoundsAgreeWithAByteAtATimeScan(
            @ForAll("sparseLines") byte[] content,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 0, max = 400) int at) {
        int pos = Math.min(at, content.length);
        int start = pos;
        while (start > 0 && content[start - 1] != '\n') {
            start--;
        }
        int end = pos;
        while (end < content.length && content[end] != '\n') {
            end++;
        }
        assertThat(LineMatcher.lineStart(content, pos)).isEqualTo(start);
        assertThat(LineMatcher.lineEnd(content, content.length, pos)).isEqualTo(end);
        int newlines = 0;
        for (int k = 0; k < pos; k++) {
            newlines += content[k] == '\n' ? 1 : 0;
        }
        assertThat(LineMatcher.countNewlines(content, 0, pos)).isEqualTo(newlines);
        // From any start too: a vector's worth or less, unaligned, and the tail after whole vectors.
        for (int from = 0; from <= pos; from += 7) {
            int n = 0;
            for (int k = from; k < pos; k++) {
                n += content[k] == '\n' ? 1 : 0;
            }
            assertThat(LineMatcher.countNewlines(content, from, pos))
                    .as("from %d", from)
                    .isEqualTo(n);
        }
    }

    /**
     * After the jump to a line holding the required byte, the search starts after the last byte
     * before it that no match holds (here the blank before {@code a_b(}), not at the line's start;
     * starting one byte later would lose the match that begins right there.
     */
    @org.junit.jupiter.api.Test
    void theJumpStartsRightAfterTheLastByteNoMatchHolds() {
        String text = "x = a_b(1);\n  if (c_d(2)) e_f(3);\n(g_h(\nno match here\n";
        for (String regex : List.of("\\b[a-z]_\\w*\\(", "\\w+_\\w+\\(", "[a-z]_[a-z]\\(")) {
            Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
            assertThat(run(LineMatcher.regex(pattern, List.of(), false), text.getBytes(StandardCharsets.UTF_8), 0, 1))
                    .as("regex %s", regex)
                    .isEqualTo(naive(pattern, text, 1))
                    .hasSize(3);
        }
    }

    /**
     * Regexes whose matches all end at a line's end after a few known characters are searched
     * by line ends first; the others (matches elsewhere, empty ones, too many last characters)
     * must be left to the DFA. Both agree with RE2J on each line.
     */
    @Property(tries = 800)
    void lineEndRegexesAgreeWithANaiveScan(@ForAll("texts") String text, @ForAll("lineEndRegexes") String regex) {
        Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
        byte[] content = text.getBytes(StandardCharsets.UTF_8);
        assertThat(run(LineMatcher.regex(pattern, List.of(), false), content, 0, 1))
                .as("regex %s", regex)
                .isEqualTo(naive(pattern, text, 1));
    }

    @Provide
    Arbitrary<String> lineEndRegexes() {
        return Arbitraries.of(
                "[ \\t]+$",
                "a$",
                "(?:a|b)\\z",
                "[^a]$",
                "ab$|b$",
                "é$",
                "x*$",
                "a$|b",
                "[ \\t]*$",
                "\\bK$",
                "(?i)k$",
                "[^ab]+$",
                "a\\z|ab$",
                "(?:a$|ab)");
    }

    /**
     * Fixed-length regexes take their ranges from the DFA alone, walking back over the runes
     * before each match end; on invalid UTF-8 that walk must cut runes as the forward decoding
     * does. The same regex made variable-length (an alternative that matches only where the
     * first does, so the matches are the same) goes through RE2J: both must agree.
     */
    @Property(tries = 800)
    void fixedLengthRangesAgreeWithRe2jOnAnyBytes(
            @ForAll("rawBytes") byte[] content, @ForAll("fixedRegexes") String regex) {
        Pattern fixed = Pattern.compile(regex, Pattern.MULTILINE);
        Pattern variable = Pattern.compile("(?:" + regex + ")|(?:" + regex + ")x?", Pattern.MULTILINE);
        assertThat(run(LineMatcher.regex(fixed, List.of(), false), content, 0, 1))
                .as("regex %s", regex)
                .isEqualTo(run(LineMatcher.regex(variable, List.of(), false), content, 0, 1));
    }

    @Provide
    Arbitrary<String> fixedRegexes() {
        return Arbitraries.of(".", "[^a]", "..", "\\W.", "[é日].", "\\x{FFFD}", ".\\b", "[^\\x00-\\x7f]{2}", "(?i)k.");
    }

    @Provide
    Arbitrary<byte[]> rawBytes() {
        return Arbitraries.of(
                        (byte) 'a',
                        (byte) 'k',
                        (byte) '\n',
                        (byte) 0x80,
                        (byte) 0xbf,
                        (byte) 0xc3,
                        (byte) 0xa9,
                        (byte) 0xe6,
                        (byte) 0x97,
                        (byte) 0xa5,
                        (byte) 0xf0,
                        (byte) 0x9f,
                        (byte) 0xff,
                        (byte) 0xe2,
                        (byte) 0x84,
                        (byte) 0xaa)
                .list()
                .ofMaxSize(120)
                .map(LineMatcherTest::bytes);
    }

    /** Long lines with bytes on both sides of '\n' (0x0a): 0x0b and 0x8a differ from it in one bit. */
    @Provide
    Arbitrary<byte[]> sparseLines() {
        return Arbitraries.of(
                        (byte) 'a', (byte) 0x0b, (byte) 0x8a, (byte) 0x09, (byte) 0xff, (byte) 'a', (byte) 'b', (byte)
                                '\n')
                .list()
                .ofMaxSize(400)
                .map(LineMatcherTest::bytes);
    }

    private static byte[] bytes(List<Byte> list) {
        byte[] b = new byte[list.size()];
        for (int k = 0; k < b.length; k++) {
            b[k] = list.get(k);
        }
        return b;
    }

    @Provide
    Arbitrary<String> generatedRegexes() {
        Arbitrary<String> atom = Arbitraries.of(
                "a",
                "b",
                "A",
                "é",
                "日",
                "K",
                "ſ",
                " ",
                ".",
                "[ab]",
                "[^a]",
                "[a-zé]",
                "\\w",
                "\\W",
                "\\s",
                "\\S",
                "\\d",
                "(ab|b)",
                "(?:a|)",
                "x",
                "[A-Z]",
                "[0-9a-b]",
                "[@-Z]",
                "\\x00",
                "[^ -~]",
                "0x",
                "a[^a]");
        Arbitrary<String> quantifier = Arbitraries.of("", "", "", "*", "+", "?", "{2}", "{1,3}", "*?");
        Arbitrary<String> assertion = Arbitraries.of("", "", "", "", "^", "$", "\\b", "\\B", "\\A", "\\z");
        Arbitrary<String> term =
                net.jqwik.api.Combinators.combine(assertion, atom, quantifier).as((x, y, z) -> x + y + z);
        Arbitrary<String> branch = term.list().ofMinSize(1).ofMaxSize(4).map(l -> String.join("", l));
        Arbitrary<String> alternation = branch.list().ofMinSize(1).ofMaxSize(3).map(l -> String.join("|", l));
        return net.jqwik.api.Combinators.combine(Arbitraries.of("", "", "(?i)", "(?s)"), alternation)
                .as((f, r) -> f + r);
    }

    @Provide
    Arbitrary<String> texts() {
        // 0, 9, @, Z and [ sit at the edges of the byte ranges the DFA's skipping tests; NUL at the lowest.
        return Arbitraries.strings().withChars("abAB \n\nxyzſKé日09@Z[\u0000").ofMaxLength(300);
    }

    @Provide
    Arbitrary<String> needles() {
        return Arbitraries.strings().withChars("abABxy \n").ofMinLength(1).ofMaxLength(4);
    }

    @Provide
    Arbitrary<String> regexes() {
        return Arbitraries.of(
                "ab",
                "ab+",
                "x?ab",
                "^ab",
                "ab$",
                "a?ab.",
                "(ab|ba)b",
                "\\bab",
                "ab[^\\n]*y",
                "(?i)ab",
                // anchored at the line's start, then idle: the candidate line's rest is jumped over
                "^ab[a-z_]+ [0-9a-f]+",
                "^ *ab\\b",
                "\\bab\\w* b");
    }
}
