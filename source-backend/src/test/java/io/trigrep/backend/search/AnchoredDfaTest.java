package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.re2j.Pattern;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** The anchored DFA's first and last match ends from a start, against RE2J matching each piece of the line whole. */
class AnchoredDfaTest {
    @Provide
    Arbitrary<String> lines() {
        return Arbitraries.strings().withChars("abc ").ofMaxLength(12);
    }

    @Provide
    Arbitrary<String> regexes() {
        // No assertions: what precedes the start does not matter, so RE2J on the piece alone is the truth.
        return Arbitraries.of(
                "a", "ab", "a+", "a*", "a|ab", "(?:ab)+", "[ab]*c", "a?b?", "b|abc|a", ".", "a.*b", "(?:a|b)c?");
    }

    @Property(tries = 800)
    void endsAreTheShortestAndLongestWholeMatches(
            @ForAll("lines") String line,
            @ForAll("regexes") String regex,
            @ForAll @IntRange(min = 0, max = 12) int start) {
        int from = Math.min(start, line.length());
        Pattern whole = Pattern.compile("(?:" + regex + ")");
        int first = -1;
        int last = -1;
        for (int end = from; end <= line.length(); end++) {
            if (whole.matcher(line.substring(from, end)).matches()) {
                first = first < 0 ? end : first;
                last = end;
            }
        }
        byte[] content = ("x\n" + line + "\ny").getBytes(StandardCharsets.US_ASCII);
        AnchoredDfa dfa = new AnchoredDfa(Pattern.compile(regex, Pattern.MULTILINE));
        long ends = dfa.ends(content, 2, 2 + from, 2 + line.length(), 1000);
        if (first < 0) {
            assertThat(ends).as("/%s/ on %s from %d", regex, line, from).isEqualTo(AnchoredDfa.NO_MATCH);
        } else {
            assertThat(ends)
                    .as("/%s/ on %s from %d", regex, line, from)
                    .isEqualTo((long) (first + 2) << 32 | (last + 2));
        }
        assertThat(dfa.steps()).isLessThanOrEqualTo(line.length() - from);
    }

    @Test
    void aSearchOutOfStepsSaysSo() {
        byte[] content = "aaaaab".getBytes(StandardCharsets.US_ASCII);
        AnchoredDfa dfa = new AnchoredDfa(Pattern.compile("a*b", Pattern.MULTILINE));
        assertThat(dfa.ends(content, 0, 0, 6, 6)).isEqualTo(6L << 32 | 6);
        assertThat(dfa.steps()).isEqualTo(6);
        assertThat(dfa.ends(content, 0, 0, 6, 5)).isEqualTo(AnchoredDfa.OUT_OF_STEPS);
        assertThat(dfa.steps()).isEqualTo(6);
        assertThat(dfa.ends(content, 0, 0, 6, 0)).isEqualTo(AnchoredDfa.OUT_OF_STEPS);
        assertThat(dfa.steps()).isEqualTo(1);
        // Every thread died after the first byte: two steps, no match.
        assertThat(dfa.ends("ca".getBytes(StandardCharsets.US_ASCII), 0, 0, 2, 100))
                .isEqualTo(AnchoredDfa.NO_MATCH);
        assertThat(dfa.steps()).isEqualTo(1);
    }

    @Test
    void assertionsSeeWhatPrecedesTheStart() {
        byte[] content = "xab ab".getBytes(StandardCharsets.US_ASCII);
        AnchoredDfa word = new AnchoredDfa(Pattern.compile("\\bab", Pattern.MULTILINE));
        assertThat(word.ends(content, 0, 1, 6, 100)).isEqualTo(AnchoredDfa.NO_MATCH);
        assertThat(word.ends(content, 0, 4, 6, 100)).isEqualTo(6L << 32 | 6);
        AnchoredDfa caret = new AnchoredDfa(Pattern.compile("^x", Pattern.MULTILINE));
        assertThat(caret.ends(content, 0, 0, 6, 100)).isEqualTo(1L << 32 | 1);
        assertThat(caret.ends("xx".getBytes(StandardCharsets.US_ASCII), 0, 1, 2, 100))
                .isEqualTo(AnchoredDfa.NO_MATCH);
        AnchoredDfa dollar = new AnchoredDfa(Pattern.compile("b$", Pattern.MULTILINE));
        assertThat(dollar.ends(content, 0, 5, 6, 100)).isEqualTo(6L << 32 | 6);
        assertThat(dollar.ends(content, 0, 2, 6, 100)).isEqualTo(AnchoredDfa.NO_MATCH);
        AnchoredDfa empty = new AnchoredDfa(Pattern.compile("x*", Pattern.MULTILINE));
        assertThat(empty.ends(content, 0, 6, 6, 100)).isEqualTo(6L << 32 | 6);
        assertThat(empty.steps()).isZero();
    }
}
