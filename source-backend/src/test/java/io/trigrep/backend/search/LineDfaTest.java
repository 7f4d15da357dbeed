package io.trigrep.backend.search;

import static io.trigrep.backend.search.LineMatcherTest.naive;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.re2j.Pattern;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The line DFA's own contract beyond the lines it finds: where it jumps while idle (the bytes
 * that lead out of the idle states, or a pair of them), that a pass stops when told and says
 * so, and that a cache dropped mid-file takes the jump with it.
 */
class LineDfaTest {
    private static LineDfa dfa(String regex) {
        return new LineDfa(Pattern.compile(regex, Pattern.MULTILINE));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Where the idle jump from the start of {@code text} lands: on the first byte that leads out
     * of the idle states (a range of them, at most three ranges), or on the first byte of a pair
     * when one byte leads out and only one byte after it leads on. {@code <DEL>} and {@code <NUL>}
     * stand for bytes 0x7f and 0.
     */
    @ParameterizedTest
    @CsvSource(
            delimiterString = ";;",
            value = {
                // a pair: the first '0' followed by 'x', not the first '0'
                "0x[0-9a-f]+ ;; a0b0 0x1 ;; 5",
                "ab          ;; a ab     ;; 2",
                // 'a' after 'a' stays where one 'a' led: the pair holds across a run of them
                "ab          ;; aaaaab   ;; 4",
                "x\\(        ;; x x(     ;; 2",
                "\\x7fz      ;; <DEL> <DEL>z ;; 2",
                // 'a' after 'a' leads elsewhere, two bytes lead on after 'a', or NUL does (alone or with another):
                // every 'a' is an exit
                "aab         ;; a aab    ;; 0",
                "(?:ab|ac)   ;; a ab     ;; 0",
                "a[\\x00b]  ;; a ab     ;; 0",
                "a\\x00      ;; a a<NUL> ;; 0",
                // ranges of exit bytes: one wide one without a required byte, up to three narrow ones with one
                "[A-Z]{8}    ;; abc D    ;; 4",
                "[ab]        ;; cc b     ;; 3",
                "[ac]x       ;; bb c     ;; 3",
                "[ace]z      ;; bdf e    ;; 4",
            })
    void theIdleJumpLandsOnTheFirstByteThatLeadsOut(String regex, String text, int landing) {
        byte[] content = bytes(text.replace("<DEL>", "\u007f").replace("<NUL>", "\u0000"));
        Prefilter jump = dfa(regex.trim()).idleJump();
        assertThat(jump).as("regex %s", regex).isNotNull();
        assertThat(jump.next(content, 0, content.length)).as("regex %s", regex).isEqualTo(landing);
    }

    /**
     * No jump where it would cost more than it saves or could not be exact: four ranges of exits,
     * a wide range when a required byte gives a better jump, an exit on NUL (below every range),
     * and a regex whose matches all end at line ends (found by line ends instead).
     */
    @Test
    void noIdleJumpWhereItCannotHelp() {
        for (String regex : List.of("[aceg]z", "[A-Z]{8}=", "\\x00x", "a$", "\\b[a-z]\\w*\\s*=\\s*\\d+;")) {
            assertThat(dfa(regex).idleJump()).as("regex %s", regex).isNull();
        }
    }

    /**
     * A pass reports lines until its {@link LineDfa.Lines} says stop, and returns false exactly
     * then: on each path a pass can take (the DFA, the jump to the required byte, the line-end
     * search, a match at the end of a file without a final newline).
     */
    @ParameterizedTest
    @CsvSource(
            delimiterString = ";;",
            value = {
                "b+          ;; ab\\nxx\\nbb\\nzz",
                "x\\(        ;; x(1\\nnone\\nab x(\\nzz",
                "0x[0-9a-f]+ ;; 0x1\\n0\\n0xa 0xb\\n0",
                "a$          ;; a\\nb\\nba\\nab",
                "a$|b        ;; b\\nc\\nda\\nxa",
                "x\\(        ;; x(1\\nnone\\nab x(",
                "[A-Z]{8}=   ;; AAAAAAAA=1\\nno\\nBBBBBBBB= CCCCCCCC=\\nzz",
            })
    void aPassStopsWhenTold(String regex, String escaped) {
        String text = escaped.strip().replace("\\n", "\n");
        byte[] content = bytes(text);
        LineDfa dfa = dfa(regex.strip());
        List<Integer> truth = naive(Pattern.compile(regex.strip(), Pattern.MULTILINE), text, 1).stream()
                .map(LineMatcherTest.Hit::line)
                .toList();
        assertThat(truth).hasSizeGreaterThan(1);

        List<Integer> all = new ArrayList<>();
        assertThat(dfa.search(content, content.length, 0, 1, (start, end, line, matchEnd) -> all.add(line)))
                .as("a pass nobody stops")
                .isTrue();
        assertThat(all).isEqualTo(truth);

        List<Integer> first = new ArrayList<>();
        assertThat(dfa.search(content, content.length, 0, 1, (start, end, line, matchEnd) -> {
                    first.add(line);
                    return false;
                }))
                .as("a pass stopped at its first line")
                .isFalse();
        assertThat(first).containsExactly(truth.get(0));

        int last = truth.get(truth.size() - 1);
        List<Integer> untilLast = new ArrayList<>();
        assertThat(dfa.search(content, content.length, 0, 1, (start, end, line, matchEnd) -> {
                    untilLast.add(line);
                    return line != last;
                }))
                .as("a pass stopped at its last line")
                .isFalse();
        assertThat(untilLast).isEqualTo(truth);
    }

    /** Lines ending in NUL are looked at by their last byte like any other (NUL is not a byte of 0x80 or more). */
    @Test
    void aLineEndingInNulIsALineEndCandidate() {
        String text = "a\u0000\nb\n\u0000";
        Pattern pattern = Pattern.compile("\\x00$", Pattern.MULTILINE);
        List<Integer> found = new ArrayList<>();
        new LineDfa(pattern)
                .search(bytes(text), bytes(text).length, 0, 1, (start, end, line, matchEnd) -> found.add(line));
        assertThat(found).containsExactly(1, 3);
    }

    /**
     * A cache dropped mid-line takes the idle states the jump starts from with it: the search
     * must stop jumping until the next file, or a state that merely reuses an idle state's number
     * would jump over the rest of a match. {@code x[ab]*a[ab]{11}y} has one exit byte and 2^12
     * states after it, more than the cache holds.
     */
    @Test
    void aDroppedCacheStopsTheJumpAndLosesNoLine() {
        Pattern pattern = Pattern.compile("x[ab]*a[ab]{11}y", Pattern.MULTILINE);
        assertThat(new LineDfa(pattern).idleJump()).isNotNull();
        for (long seed = 1; seed <= 4; seed++) {
            Random random = new Random(seed);
            StringBuilder text = new StringBuilder();
            for (int line = 0; line < 6; line++) {
                text.append("zz x");
                for (int k = 0; k < 3000; k++) {
                    text.append(random.nextBoolean() ? 'a' : 'b');
                }
                text.append(random.nextBoolean() ? "y zz x" : " zz x");
                for (int k = 0; k < 40; k++) {
                    text.append(random.nextBoolean() ? 'a' : 'b');
                }
                text.append(random.nextBoolean() ? "y\n" : "\n");
            }
            byte[] content = bytes(text.toString());
            LineDfa dfa = new LineDfa(pattern);
            List<Integer> found = new ArrayList<>();
            dfa.search(content, content.length, 0, 1, (start, end, line, matchEnd) -> found.add(line));
            assertThat(dfa.resets()).as("seed %d", seed).isPositive();
            assertThat(found)
                    .as("seed %d", seed)
                    .isEqualTo(naive(pattern, text.toString(), 1).stream()
                            .map(LineMatcherTest.Hit::line)
                            .toList());
        }
    }
}
