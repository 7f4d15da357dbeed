package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.bytes.Swar;
import io.trigrep.re2j.CompiledProgram;
import io.trigrep.re2j.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The facts the line search skips text by, read off each regex's compiled program. */
class ProgramFactsTest {
    private static ProgramFacts facts(String regex) {
        return new ProgramFacts(program(regex));
    }

    private static CompiledProgram program(String regex) {
        return CompiledProgram.of(Pattern.compile(regex, Pattern.MULTILINE));
    }

    /** The required bytes, as characters; '-' for none. Punctuation ranks by rarity, then the first letter required. */
    @ParameterizedTest
    @CsvSource(
            delimiterString = " ",
            value = {
                "abc a b",
                "ba b a",
                "a\\(b ( a",
                "\\w+_\\w+\\( ( _",
                "a~\\? ? ~",
                "[?]x ? x",
                "a?\\? ? -",
                "x?y y -",
                "(?:a|b)c c -",
                "(?:ab)?c c -",
                "x{2,4}?y x y",
                "a|bcd - -",
                "a* - -",
                "ab|cd - -",
                "é - -",
                "a\\nb a b",
                "\\nb b -",
                "b\\x{80} b -",
                "(?i)xy - -",
            })
    void requiredBytesAreHeldByEveryMatch(String regex, char required, char also) {
        ProgramFacts facts = facts(regex);
        assertThat(facts.required())
                .as("required of %s", regex)
                .isEqualTo(required == '-' ? 0 : Swar.broadcast(required));
        assertThat(facts.alsoRequired())
                .as("also required of %s", regex)
                .isEqualTo(also == '-' ? 0 : Swar.broadcast(also));
        assertThat(ProgramFacts.requiredByte(program(regex))).isEqualTo(required == '-' ? -1 : required);
    }

    /** The line-end bytes: every match ends at a line's end after one of at most eight ASCII bytes, or none are given. */
    @ParameterizedTest
    @CsvSource(
            delimiterString = ";;",
            value = {
                "a$ ;; a",
                "a\\z ;; a",
                "[ \\t]+$ ;; \\x09\\x20 +",
                "[a-h]$ ;; abcdefgh +",
                "é$ ;; +",
                "ab$|b$ ;; b",
                "[a-i]$ ;; null",
                "x*$ ;; null",
                "a$|b ;; null",
                "(?:a$|ab) ;; null",
                "a ;; null",
                "^$ ;; null",
            })
    void lastBytesAreThoseThatEndEveryMatchAtALineEnd(String regex, String expected) {
        long[] mask = ProgramFacts.lastBytesAtLineEnd(program(regex.trim()));
        if (expected.equals("null")) {
            assertThat(mask).as("regex %s", regex).isNull();
            return;
        }
        StringBuilder bytes = new StringBuilder();
        for (int b = 0; b < 128; b++) {
            if ((mask[b >>> 6] >>> b & 1) != 0) {
                bytes.append(b <= ' ' ? String.format("\\x%02x", b) : String.valueOf((char) b));
            }
        }
        if (mask[2] != 0) {
            bytes.append(" +");
        }
        assertThat(bytes.toString().trim()).as("regex %s", regex).isEqualTo(expected.trim());
        assertThat(facts(regex.trim()).lastBytes()).isEqualTo(mask);
    }

    @ParameterizedTest
    @CsvSource({
        "abc, 3, 3, 3",
        "ab|cd, 2, 2, 2",
        "(?:a|b)c, 2, 2, 2",
        "a|bcd, 1, 3, -1",
        "'a{2,4}', 2, 4, -1",
        "'x{2,4}?y', 3, 5, -1",
        "a?, 0, 1, -1",
        "^$, 0, 0, -1",
        "日本, 2, 2, 2",
        "a*, 0, -1, -1",
        "\\w+_, 0, -1, -1",
        "[^a], 1, 1, 1",
        "a$|b, 1, 1, 1",
    })
    void matchLengthsAreInRunes(String r, int shortest, int longest, int fixed) {
        long lengths = ProgramFacts.matchLengths(program(r));
        assertThat((int) (lengths >> 32)).as("longest of %s", r).isEqualTo(longest);
        if (longest >= 0) {
            assertThat((int) lengths).as("shortest of %s", r).isEqualTo(shortest);
        }
        assertThat(facts(r).maxMatchRunes()).isEqualTo(longest);
        assertThat(facts(r).fixedMatchRunes()).as("fixed of %s", r).isEqualTo(fixed);
    }

    @Test
    void mayBeInMatchKnowsEachByteAMatchCanHold() {
        ProgramFacts ascii = facts("a[bc]\\?");
        for (int b = 0; b < 128; b++) {
            assertThat(ascii.mayBeInMatch(b)).as("byte %d", b).isEqualTo(b == 'a' || b == 'b' || b == 'c' || b == '?');
        }
        // A class may hold a non-ASCII character as far as the facts know; single characters are exact.
        assertThat(ascii.mayBeInMatch((byte) 0xc3)).isTrue();
        assertThat(facts("ab\\?").mayBeInMatch((byte) 0xc3)).isFalse();
        ProgramFacts dot = facts("a.");
        assertThat(dot.mayBeInMatch((byte) 0xc3)).isTrue();
        assertThat(dot.mayBeInMatch('z')).isTrue();
        ProgramFacts high = facts("\\x7f[@-A]");
        assertThat(high.mayBeInMatch(0x7f)).isTrue();
        assertThat(high.mayBeInMatch('@')).isTrue();
        assertThat(high.mayBeInMatch('?')).isFalse();
        assertThat(high.mayBeInMatch('B')).isFalse();
        assertThat(facts("é").mayBeInMatch((byte) 0xc3)).isTrue();
    }
}
