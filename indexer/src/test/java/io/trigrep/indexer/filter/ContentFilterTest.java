package io.trigrep.indexer.filter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ContentFilterTest {
    private final ContentFilter filter = new ContentFilter(new FilterLimits(1000, false));

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
        assertThat(check("crlf\r\nline two\r\nno end")).isNull();
        assertThat(filter.lines()).isEqualTo(3);
        // Newlines at every position of the eight-byte words are counted once each.
        for (int at = 0; at < 20; at++) {
            byte[] bytes = "abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);
            bytes[at] = '\n';
            bytes[(at + 7) % bytes.length] = '\n';
            assertThat(check(bytes)).isNull();
            int expected = 2 + (bytes[bytes.length - 1] == '\n' ? 0 : 1);
            assertThat(filter.lines())
                    .as("newlines at %d and %d", at, (at + 7) % bytes.length)
                    .isEqualTo(expected);
        }
    }

    @Test
    void nulAnywhereIsBinary() {
        for (int at = 0; at < 26; at++) {
            byte[] bytes = "abcdefghijklmnopqrstuvwxyz".getBytes(StandardCharsets.US_ASCII);
            bytes[at] = 0;
            assertThat(check(bytes)).as("NUL at %d", at).isEqualTo(SkipReason.BINARY);
        }
        // Bytes with the high bit set next to a 0x01 must not look like a NUL (a borrow between bytes).
        assertThat(check(new byte[] {(byte) 0x81, 1, (byte) 0x80, 1, 1, (byte) 0xff, 1, 0x7f, 1}))
                .isNull();
    }

    @Test
    void anyEncodingIsIndexed() {
        // Latin-1: every accented letter is invalid UTF-8; indexed all the same (issue 13).
        byte[] latin1 = "caf\u00e9 na\u00efve\nr\u00e9sum\u00e9 \u00e0 la\ncarte, d\u00e9j\u00e0 vu"
                .getBytes(StandardCharsets.ISO_8859_1);
        assertThat(check(latin1)).isNull();
        assertThat(filter.lines()).isEqualTo(3);
        byte[] noise = new byte[300];
        for (int i = 0; i < noise.length; i++) {
            noise[i] = i % 20 == 19 ? (byte) '\n' : (byte) (0x80 | i * 37 % 64);
        }
        assertThat(check(noise)).isNull();
        byte[] bom = "\ufeffint x;\n".getBytes(StandardCharsets.UTF_8);
        assertThat(check(bom)).isNull();
        assertThat(filter.trigrams().size()).isEqualTo(bom.length - 2);
    }

    @Test
    void longLinesAndManyTrigramsAreIndexed() {
        assertThat(check("short\n" + "x".repeat(900) + "\nshort\n")).isNull();
        assertThat(filter.lines()).isEqualTo(3);
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 150; i++) {
            many.append(Integer.toString(i * 7919, 36)).append(i % 5 == 0 ? '\n' : ' ');
        }
        assertThat(check(many.toString())).isNull();
        assertThat(filter.trigrams().size()).isGreaterThan(200);
    }

    @Test
    void onlyTheSizeCapLimits() {
        assertThat(check("a\n".repeat(500))).isNull();
        assertThat(check("a\n".repeat(501))).isEqualTo(SkipReason.TOO_LARGE);
        assertThatThrownBy(() -> new FilterLimits(FilterLimits.MAX_FILE_BYTES + 1, false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("64 MiB");
    }

    @Test
    void millionsOfDistinctTrigramsAreAllCollected() {
        // Random bytes (no NUL): about 2 million distinct trigrams, past the point the set turns dense.
        ContentFilter big = new ContentFilter(FilterLimits.DEFAULT);
        byte[] bytes = new byte[3 << 20];
        new Random(13).nextBytes(bytes);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == 0) {
                bytes[i] = 1;
            }
        }
        assertThat(big.checkContent(ByteBuffer.wrap(bytes))).isNull();
        Set<Integer> expected = new HashSet<>();
        for (int i = 0; i + 2 < bytes.length; i++) {
            expected.add((bytes[i] & 0xff) << 16 | (bytes[i + 1] & 0xff) << 8 | bytes[i + 2] & 0xff);
        }
        assertThat(big.trigrams().dense()).isTrue();
        assertThat(big.trigrams().size()).isEqualTo(expected.size());
        int[] previous = {-1};
        Set<Integer> actual = new HashSet<>();
        big.trigrams().forEachByFirstByte(t -> {
            assertThat(t).isGreaterThan(previous[0]);
            previous[0] = t;
            actual.add(t);
        });
        assertThat(actual).isEqualTo(expected);
        // Cleared, the same set collects a small file exactly again.
        assertThat(big.checkContent(ByteBuffer.wrap("abcd".getBytes(StandardCharsets.US_ASCII))))
                .isNull();
        assertThat(big.trigrams().dense()).isFalse();
        assertThat(big.trigrams().size()).isEqualTo(2);
    }

    @Test
    void pathRules() {
        assertThat(ContentFilter.checkPath("src/main.c")).isNull();
        assertThat(ContentFilter.checkPath("../etc/passwd")).isEqualTo(SkipReason.UNSAFE_PATH);
        assertThat(ContentFilter.checkPath("a/../../b")).isEqualTo(SkipReason.UNSAFE_PATH);
        assertThat(ContentFilter.checkPath("/etc/passwd")).isEqualTo(SkipReason.UNSAFE_PATH);
        assertThat(ContentFilter.checkPath("sub/.git/config")).isEqualTo(SkipReason.VCS);
        assertThat(ContentFilter.checkPath(".svn/entries")).isEqualTo(SkipReason.VCS);
        assertThat(ContentFilter.checkPath("..hidden/file")).isNull();
        // Generated names are indexed unless asked otherwise.
        assertThat(ContentFilter.checkPath("web/jquery.min.js")).isNull();
        assertThat(ContentFilter.check("web/jquery.min.js", filter.limits())).isNull();
        assertThat(ContentFilter.check("web/jquery.min.js", new FilterLimits(1000, true)))
                .isEqualTo(SkipReason.GENERATED);
    }
}
