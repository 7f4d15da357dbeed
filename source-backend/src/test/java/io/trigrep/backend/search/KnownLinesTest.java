package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KnownLinesTest {
    /** Line n (1-based) of TEXT starts at 4 * (n - 1) and ends at its newline, 4 * n - 1. */
    private static final byte[] TEXT =
            "l01\nl02\nl03\nl04\nl05\nl06\nl07\nl08\nl09\nl10\nl11\nl12\nl13\nl14\nl15\nl16\nl17\nl18\nl19\nl20\nl21\nl22\nl23\nl24\nl25\nl26\nl27\nl28\nl29\nl30\nl31\nl32\nl33\nl34\nl35\nl36\nl37\nl38\nl39\nl40"
                    .getBytes(StandardCharsets.US_ASCII);

    @Test
    void linesFoundBeforeAndAfterAreTheTextsLines() {
        KnownLines known = new KnownLines();
        known.put(10, 36, 39);
        known.findBefore(TEXT, 9, 36);
        known.findBefore(TEXT, 8, known.start(9));
        known.findAfter(TEXT, TEXT.length, 11, 39);
        for (int n = 8; n <= 11; n++) {
            assertThat(known.has(n)).as("line %d", n).isTrue();
            assertThat(known.start(n)).as("line %d", n).isEqualTo(4 * (n - 1));
            assertThat(known.end(n)).as("line %d", n).isEqualTo(4 * n - 1);
        }
        assertThat(known.has(7)).isFalse();
        assertThat(known.has(12)).isFalse();
        assertThat(known.knownEnd(11)).as("a known line's end").isEqualTo(43);
        assertThat(known.knownEnd(12)).as("an unknown line").isEqualTo(-1);
        known.findAfter(TEXT, TEXT.length, 40, 4 * 39 - 1);
        assertThat(known.end(40)).as("the last line ends at the text's end").isEqualTo(TEXT.length);
    }

    @Test
    void aLineThatDoesNotExtendTheRunStartsANewOne() {
        KnownLines known = new KnownLines();
        known.put(3, 8, 11);
        known.put(4, 12, 15);
        known.put(7, 24, 27);
        assertThat(known.has(3)).isFalse();
        assertThat(known.has(4)).isFalse();
        assertThat(known.has(7)).isTrue();
        known.clear();
        assertThat(known.has(7)).as("cleared for the next file").isFalse();
    }

    @Test
    void aLongRunKeepsItsLastLinesWhereTheyDoNotCollide() {
        KnownLines known = new KnownLines();
        for (int n = 1; n <= 40; n++) {
            known.findAfter(TEXT, TEXT.length, n, 4 * (n - 1) - 1);
        }
        for (int n = 1; n <= 40; n++) {
            assertThat(known.has(n)).as("line %d", n).isEqualTo(n > 40 - KnownLines.SIZE);
            if (known.has(n)) {
                assertThat(known.start(n)).as("line %d", n).isEqualTo(4 * (n - 1));
            }
        }
        KnownLines backwards = new KnownLines();
        backwards.put(40, 156, TEXT.length);
        for (int n = 39; n >= 1; n--) {
            backwards.findBefore(TEXT, n, backwards.start(n + 1));
        }
        for (int n = 1; n <= 40; n++) {
            assertThat(backwards.has(n)).as("line %d", n).isEqualTo(n <= KnownLines.SIZE);
            if (backwards.has(n)) {
                assertThat(backwards.end(n)).as("line %d", n).isEqualTo(n == 40 ? TEXT.length : 4 * n - 1);
            }
        }
    }
}
