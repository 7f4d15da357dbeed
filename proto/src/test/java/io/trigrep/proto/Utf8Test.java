package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Utf8.rune at the edges of every sequence length, and against the JDK's encoder for every valid code point. */
class Utf8Test {
    private static final long REPLACEMENT = 1L << 32 | 0xfffd;

    private static byte[] hex(String bytes) {
        String[] parts = bytes.split(" ");
        byte[] out = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return out;
    }

    @ParameterizedTest(name = "{0} -> U+{1} in {2}")
    @CsvSource({
        "c2 80, 80, 2",
        "df bf, 7ff, 2",
        "e0 a0 80, 800, 3",
        "ed 9f bf, d7ff, 3",
        "ee 80 80, e000, 3",
        "ef bf bf, ffff, 3",
        "f0 90 80 80, 10000, 4",
        "f4 8f bf bf, 10ffff, 4",
        "f1 80 80 80, 40000, 4"
    })
    void decodesTheSmallestAndLargestOfEachLength(String bytes, String codePoint, int width) {
        byte[] content = hex(bytes);
        assertThat(Utf8.rune(content, 0, content.length))
                .isEqualTo((long) width << 32 | Integer.parseInt(codePoint, 16));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // Lead bytes that start nothing: continuation bytes, overlong two-byte leads, past U+10FFFF.
        "80 80",
        "bf 80",
        "c0 80",
        "c1 bf",
        "f5 80 80 80",
        "f8 80 80 80 80",
        "ff",
        // Overlong forms and surrogates.
        "e0 9f bf",
        "f0 8f bf bf",
        "ed a0 80",
        "ed bf bf",
        // Past U+10FFFF.
        "f4 90 80 80",
        // A continuation byte that is not one.
        "c3 28",
        "c3 c0",
        "e2 82 28",
        "e2 28 a1",
        "f0 90 28 bc",
        "f0 90 80 c0",
        "c3 00",
        "e2 ff a1"
    })
    void readsAnInvalidSequenceAsOneReplacedByte(String bytes) {
        byte[] content = hex(bytes);
        assertThat(Utf8.rune(content, 0, content.length)).isEqualTo(REPLACEMENT);
    }

    @ParameterizedTest(name = "{0} cut to {1}")
    @CsvSource({"c3 a9, 1", "e2 82 ac, 2", "e2 82 ac, 1", "f0 9f 99 82, 3", "f0 9f 99 82, 2", "f0 9f 99 82, 1"})
    void readsASequenceCutByTheLengthAsOneReplacedByte(String bytes, int length) {
        assertThat(Utf8.rune(hex(bytes), 0, length)).isEqualTo(REPLACEMENT);
    }

    @Property(tries = 2000)
    void agreesWithTheJdkOnEveryValidCodePoint(
            @ForAll @IntRange(min = 0x80, max = 0x10ffff) int codePoint, @ForAll @IntRange(max = 3) int at) {
        if (Character.isSurrogate((char) codePoint) && codePoint <= 0xffff) {
            return;
        }
        byte[] encoded = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
        byte[] content = new byte[at + encoded.length + 1];
        System.arraycopy(encoded, 0, content, at, encoded.length);
        content[content.length - 1] = (byte) 0x80;
        assertThat(Utf8.rune(content, at, content.length)).isEqualTo((long) encoded.length << 32 | codePoint);
    }
}
