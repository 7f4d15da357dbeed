package io.trigrep.indexer.filter;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ContentFilterTest {
    private final ContentFilter filter = new ContentFilter(new FilterLimits(1000, 40, 200, 0.1));

    private SkipReason check(byte[] bytes) {
        return filter.checkContent(ByteBuffer.wrap(bytes));
    }

    private SkipReason check(String text) {
        return check(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void sourceTextPassesAndItsLinesAreCounted() {
        assertThat(check("int main() {\n  return 0; // ünïcødé ✓ 🙂\n}\n")).isNull();
        assertThat(filter.lines()).isEqualTo(3);
        assertThat(check("no newline at end")).isNull();
        assertThat(filter.lines()).isEqualTo(1);
        assertThat(check("")).isNull();
        assertThat(filter.lines()).isZero();
    }

    @Test
    void nulAnywhereIsBinary() {
        for (int at = 0; at < 20; at++) {
            byte[] bytes = "abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);
            bytes[at] = 0;
            assertThat(check(bytes)).as("NUL at %d", at).isEqualTo(SkipReason.BINARY);
        }
    }

    @Test
    void mostlyInvalidUtf8IsBinaryButAFewBadBytesAreTolerated() {
        // A Latin-1 comment in an otherwise ASCII file: 3 bad bytes in 200 are tolerated...
        byte[] mostlyAscii = ("/* caf\u00e9 na\u00efve r\u00e9sum\u00e9 */\n" + "int x = 1;\n".repeat(16))
                .getBytes(StandardCharsets.ISO_8859_1);
        assertThat(check(mostlyAscii)).isNull();
        // ...but a Latin-1 text where one byte in six is invalid UTF-8 is not text we index.
        byte[] latin1 = "caf\u00e9 na\u00efve\nr\u00e9sum\u00e9 \u00e0 la\ncarte, d\u00e9j\u00e0 vu".getBytes(StandardCharsets.ISO_8859_1);
        assertThat(check(latin1)).isEqualTo(SkipReason.BINARY);
        byte[] noise = new byte[300];
        for (int i = 0; i < noise.length; i++) {
            noise[i] = i % 20 == 19 ? (byte) '\n' : (byte) (0x80 | i * 37 % 64);
        }
        assertThat(check(noise)).isEqualTo(SkipReason.BINARY);
    }

    @Test
    void longLinesAreSkippedWhereverTheyAre() {
        assertThat(check("short\n" + "x".repeat(41) + "\nshort\n")).isEqualTo(SkipReason.LONG_LINE);
        assertThat(check("short\n" + "x".repeat(41))).isEqualTo(SkipReason.LONG_LINE);
        assertThat(check("x".repeat(40) + "\n" + "y".repeat(40))).isNull();
    }

    @Test
    void sizeAndTrigramLimits() {
        assertThat(check("a\n".repeat(501))).isEqualTo(SkipReason.TOO_LARGE);
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 150; i++) {
            many.append(Integer.toString(i * 7919, 36)).append(i % 5 == 0 ? '\n' : ' ');
        }
        assertThat(many.length()).isLessThan(1000);
        assertThat(check(many.toString())).isEqualTo(SkipReason.TOO_MANY_TRIGRAMS);
    }

    @Test
    void pathRules() {
        assertThat(ContentFilter.checkPath("src/main.c")).isNull();
        assertThat(ContentFilter.checkPath("../etc/passwd")).isEqualTo(SkipReason.UNSAFE_PATH);
        assertThat(ContentFilter.checkPath("a/../../b")).isEqualTo(SkipReason.UNSAFE_PATH);
        assertThat(ContentFilter.checkPath("/etc/passwd")).isEqualTo(SkipReason.UNSAFE_PATH);
        assertThat(ContentFilter.checkPath("sub/.git/config")).isEqualTo(SkipReason.VCS);
        assertThat(ContentFilter.checkPath(".svn/entries")).isEqualTo(SkipReason.VCS);
        assertThat(ContentFilter.checkPath("web/jquery.min.js")).isEqualTo(SkipReason.GENERATED);
        assertThat(ContentFilter.checkPath("..hidden/file")).isNull();
    }
}
