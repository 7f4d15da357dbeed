package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trigrep.indexer.bytes.Swar;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The jumps a word at a time land where a byte at a time would: on the first exit byte, the
 * first pair, the first wanted byte, or the first byte of 0x80 or more. Each text is followed,
 * past the length searched, by bytes every jump stops at: a word read past the length would land there.
 */
class PrefilterTest {
    private static final byte[] STOPS = {(byte) 0x80, 0x41, 0x61, 0x7e, 0x01, 0x30, 0x5a, (byte) 0xff};

    private static byte[] withStops(List<Byte> text) {
        byte[] content = new byte[text.size() + STOPS.length];
        for (int k = 0; k < text.size(); k++) {
            content[k] = text.get(k);
        }
        System.arraycopy(STOPS, 0, content, text.size(), STOPS.length);
        return content;
    }

    @Provide
    Arbitrary<List<Byte>> texts() {
        return Arbitraries.of(
                        (byte) 0,
                        (byte) 1,
                        (byte) '\n',
                        (byte) ' ',
                        (byte) '0',
                        (byte) '9',
                        (byte) '@',
                        (byte) 'A',
                        (byte) 'Z',
                        (byte) '[',
                        (byte) '`',
                        (byte) 'a',
                        (byte) 'x',
                        (byte) 'z',
                        (byte) '{',
                        (byte) 0x7e,
                        (byte) 0x7f,
                        (byte) 0x80,
                        (byte) 0xc3,
                        (byte) 0xff)
                .list()
                .ofMaxSize(40);
    }

    @Property(tries = 1500)
    void rangeJumpsLandOnTheFirstExitByte(
            @ForAll("texts") List<Byte> text,
            @ForAll @IntRange(min = 0, max = 126) int lo1,
            @ForAll @IntRange(min = 2, max = 60) int width1,
            @ForAll @IntRange(min = 0, max = 126) int lo2,
            @ForAll @IntRange(min = 2, max = 30) int width2,
            @ForAll @IntRange(min = 1, max = 3) int ranges,
            @ForAll @IntRange(min = 0, max = 45) int from) {
        int[] all = {lo1, Math.min(128, lo1 + width1), lo2, Math.min(128, lo2 + width2), 0x5f, 0x62};
        int[] bounds = java.util.Arrays.copyOf(all, 2 * ranges);
        byte[] content = withStops(text);
        int length = text.size();
        int i = Math.min(from, length);
        int expected = length;
        for (int k = i; k < length && expected == length; k++) {
            int b = content[k];
            boolean exit = b < 0;
            for (int r = 0; r < bounds.length; r += 2) {
                exit |= b > bounds[r] && b < bounds[r + 1];
            }
            if (exit) {
                expected = k;
            }
        }
        assertThat(Prefilter.ranges(bounds).next(content, i, length)).isEqualTo(expected);
    }

    @Property(tries = 1500)
    void pairJumpsLandOnTheFirstPair(
            @ForAll("texts") List<Byte> text,
            @ForAll("pairBytes") int first,
            @ForAll("pairBytes") int second,
            @ForAll @IntRange(min = 0, max = 45) int from) {
        byte[] content = withStops(text);
        int length = text.size();
        int i = Math.min(from, length);
        int expected = length;
        for (int k = i; k < length; k++) {
            if (content[k] < 0
                    || content[k] == first && (k + 1 >= length || content[k + 1] == second || content[k + 1] < 0)) {
                expected = k;
                break;
            }
        }
        assertThat(Prefilter.pair(first, second).next(content, i, length)).isEqualTo(expected);
    }

    @Provide
    Arbitrary<Integer> pairBytes() {
        return Arbitraries.of(1, (int) '\n', (int) '0', (int) 'A', (int) 'a', (int) 'x', 0x7f);
    }

    @Property(tries = 1000)
    void byteJumpsLandOnTheWantedByte(
            @ForAll("texts") List<Byte> text,
            @ForAll("pairBytes") int wanted,
            @ForAll @IntRange(min = 0, max = 45) int from) {
        byte[] content = withStops(text);
        int length = text.size();
        int i = Math.min(from, length);
        int expected = length;
        for (int k = i; k < length; k++) {
            if (content[k] == wanted) {
                expected = k;
                break;
            }
        }
        assertThat(Prefilter.nextByte(content, i, length, Swar.broadcast(wanted)))
                .isEqualTo(expected);
    }

    @Test
    void aPairAtTheEndOfTheTextIsAHitWhateverFollows() {
        byte[] content = "........0\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(Prefilter.pair('0', 'x').next(content, 0, 9)).isEqualTo(8);
        assertThat(Prefilter.pair('0', 'x').next(content, 0, 10)).isEqualTo(10);
        byte[] words = "0y0y0y0y0y0y0y0x0y".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertThat(Prefilter.pair('0', 'x').next(words, 0, words.length)).isEqualTo(14);
        assertThat(Prefilter.pair('0', 'x').next(words, 15, words.length)).isEqualTo(18);
    }

    @Test
    void badBoundsAreRefused() {
        assertThatThrownBy(() -> Prefilter.ranges(new int[] {1, 5, 9}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("exit ranges must be at most 3 lo, hi pairs, got 3 bounds");
        assertThatThrownBy(() -> Prefilter.ranges(new int[8]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("got 8 bounds");
        assertThat(Prefilter.ranges(new int[] {0, 2, 10, 12, 20, 22}).next(new byte[] {5, 21, 1}, 0, 3))
                .isEqualTo(1);
        assertThat(Prefilter.ranges(new int[0]).next(new byte[] {5, 21, 1}, 0, 3))
                .isEqualTo(3);
        assertThatThrownBy(() -> Prefilter.pair(0, 'x'))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a pair is of ASCII bytes, the first not NUL, got 0, 120");
        assertThatThrownBy(() -> Prefilter.pair(128, 'x')).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Prefilter.pair('x', -1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Prefilter.pair('x', 128)).isInstanceOf(IllegalArgumentException.class);
        assertThat(Prefilter.pair(127, 0).next(new byte[] {1, 127, 0}, 0, 3)).isEqualTo(1);
        assertThat(Prefilter.pair(1, 127).next(new byte[] {1, 1, 127}, 0, 3)).isEqualTo(1);
    }
}
