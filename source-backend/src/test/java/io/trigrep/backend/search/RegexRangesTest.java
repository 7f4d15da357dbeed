package io.trigrep.backend.search;

import static io.trigrep.backend.search.LineMatcherTest.naive;
import static io.trigrep.backend.search.LineMatcherTest.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.search.LineMatcherTest.Hit;
import io.trigrep.re2j.Pattern;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ranges of the regex strategies where RE2J takes part: on text it must see decoded as the
 * DFA decodes it (invalid bytes as U+FFFD, characters outside the BMP as surrogate pairs), on
 * long lines of near-misses where it starts late, and a matcher reused from file to file as a
 * worker reuses it.
 */
class RegexRangesTest {
    private static List<Hit> search(String regex, List<String> needles, String text) {
        Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
        return run(LineMatcher.regex(pattern, needles, false), text.getBytes(StandardCharsets.UTF_8), 0, 1);
    }

    private static List<Hit> truth(String regex, String text) {
        return naive(Pattern.compile(regex, Pattern.MULTILINE), text, 1);
    }

    /**
     * Matches that end at several places go to RE2J, which reads the line as the DFA does: a
     * stray continuation byte (0x80) is U+FFFD, not U+0080.
     */
    @Test
    void re2jSeesInvalidBytesAsTheDfaDoes() {
        byte[] content = {'a', (byte) 0x80, (byte) 0x80, 'b', '\n', (byte) 0xc2, (byte) 0x80, '\n', 'c', (byte) 0x80};
        Pattern pattern = Pattern.compile("\\x{FFFD}+", Pattern.MULTILINE);
        for (List<String> needles : List.of(List.<String>of(), List.of("\u0080"))) {
            assertThat(run(LineMatcher.regex(pattern, needles, false), content, 0, 1))
                    .as("needles %s", needles)
                    .containsExactly(new Hit(1, List.of(1, 3)), new Hit(3, List.of(1, 2)));
        }
    }

    /** Characters from U+10000 up are two chars for RE2J, one rune for the DFA, four bytes in the file. */
    @Test
    void re2jSeesSupplementaryCharactersAsSurrogatePairs() {
        String text = "a\uD800\uDC00\uD800\uDC00b\n\uD83D\uDE00x\uD800\uDC00\n";
        for (String regex : List.of("\\x{10000}+", "\\x{10000}+b?", "[^a]+", "x?\\x{10000}{1,2}")) {
            assertThat(search(regex, List.of(), text)).as("regex %s", regex).isEqualTo(truth(regex, text));
        }
    }

    /**
     * A line of near-misses exhausts the anchored tries; RE2J then starts no earlier than the
     * longest match (61 bytes here) before the end the DFA found, and must still find the
     * leftmost match, which starts exactly that far back.
     */
    @Test
    void aLongLineOfNearMissesStillFindsTheLeftmostMatch() {
        String regex = "a{1,60}b";
        for (String text : List.of("a".repeat(400) + "b\n", "x" + "a".repeat(400) + "b a".repeat(3) + "b")) {
            assertThat(search(regex, List.of(), text)).as("%s", text).isEqualTo(truth(regex, text));
        }
        assertThat(search(regex, List.of(), "a".repeat(400) + "b")).containsExactly(new Hit(1, List.of(340, 401)));
    }

    /**
     * The same when the match RE2J must find starts on a character of four bytes exactly the
     * longest match (31 runes) before the end the DFA found: RE2J starts at the pair's high
     * surrogate, not between its halves, where it would miss that match.
     */
    @Test
    void aLongLineOfSupplementaryNearMissesStartsRe2jOnAWholeCharacter() {
        String regex = "\\x{10000}{1,30}\\x{10001}";
        String text = "\uD800\uDC00".repeat(400) + "\uD800\uDC01";
        assertThat(search(regex, List.of(), text)).containsExactly(new Hit(1, List.of(1480, 1604)));
        assertThat(truth(regex, text)).containsExactly(new Hit(1, List.of(1480, 1604)));
    }

    /** After RE2J took over from an empty match, the empty match at the end of the line still counts. */
    @Test
    void anEmptyMatchAtTheEndOfALineAfterAnotherMatch() {
        for (String regex : List.of("a*", "x*", "(?:ab)*")) {
            for (String text : List.of("baa", "bab\nabab", "b")) {
                assertThat(search(regex, List.of(), text))
                        .as("%s on %s", regex, text)
                        .isEqualTo(truth(regex, text));
            }
        }
    }

    /**
     * A matcher goes from file to file: where each needle occurs next is forgotten between
     * files, and a one-byte needle at the end of a line leads to that line once.
     */
    @Test
    void aMatcherReusedOnTheNextFileFindsItsLines() {
        Pattern pattern = Pattern.compile("\\dx", Pattern.MULTILINE);
        LineMatcher matcher = LineMatcher.regex(pattern, List.of("x"), false);
        String first = "1x\nyy\n2x";
        String second = "zz\n3x\n\n4x\n";
        byte[] firstBytes = first.getBytes(StandardCharsets.UTF_8);
        byte[] secondBytes = second.getBytes(StandardCharsets.UTF_8);
        for (int round = 0; round < 2; round++) {
            assertThat(run(matcher, firstBytes, 0, 1)).isEqualTo(naive(pattern, first, 1));
            assertThat(run(matcher, secondBytes, 0, 1)).isEqualTo(naive(pattern, second, 1));
        }
        assertThat(naive(pattern, second, 1)).extracting(Hit::line).containsExactly(2, 4);
    }
}
