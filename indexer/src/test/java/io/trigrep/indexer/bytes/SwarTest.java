package io.trigrep.indexer.bytes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Each test of {@link Swar} against a byte-by-byte reference: every pair of byte values in every
 * two adjacent lanes (where a carry or borrow would leak from one byte into the next), with the
 * other lanes random, and random words biased towards the bytes the tests look for.
 */
class SwarTest {
    private final Random random = new Random(17);

    /** A word's byte {@code k}, as the scans read it (little endian). */
    private static int lane(long v, int k) {
        return (int) (v >>> (8 * k)) & 0xff;
    }

    /** The mask a test should return: the high bit of each byte {@code k} for which {@code test} holds. */
    private static long expected(long v, java.util.function.IntPredicate test) {
        long mask = 0;
        for (int k = 0; k < 8; k++) {
            if (test.test(lane(v, k))) {
                mask |= 0x80L << (8 * k);
            }
        }
        return mask;
    }

    private static long withLanes(long fill, int at, int a, int b) {
        long cleared = fill & ~(0xffffL << (8 * at));
        return cleared | (long) a << (8 * at) | (long) b << (8 * (at + 1));
    }

    /** Calls {@code check} on every pair of byte values at every two adjacent lanes, then on random words. */
    private void forWords(java.util.function.LongConsumer check) {
        for (int at = 0; at < 7; at++) {
            long fill = random.nextLong();
            for (int a = 0; a < 256; a++) {
                for (int b = 0; b < 256; b++) {
                    check.accept(withLanes(fill, at, a, b));
                }
            }
        }
        int[] special = {0, 1, '\n', 0x0b, 'A', 'Z', 'a', 'z', '@', '[', 0x7f, 0x80, 0x81, 0xff};
        for (int n = 0; n < 200_000; n++) {
            long v = random.nextLong();
            for (int k = 0; k < 8; k++) {
                if (random.nextInt(3) == 0) {
                    v = v & ~(0xffL << (8 * k)) | (long) special[random.nextInt(special.length)] << (8 * k);
                }
            }
            check.accept(v);
        }
    }

    @Test
    void zeroBytesFlagsExactlyTheZeroBytes() {
        forWords(v -> assertThat(Swar.zeroBytes(v)).as("%016x", v).isEqualTo(expected(v, x -> x == 0)));
    }

    @Test
    void newlinesFlagsExactlyTheNewlines() {
        forWords(v -> assertThat(Swar.newlines(v)).as("%016x", v).isEqualTo(expected(v, x -> x == '\n')));
    }

    @Test
    void equalBytesFlagsExactlyTheBroadcastByte() {
        for (int c = 0; c < 256; c++) {
            int want = c;
            long repeated = Swar.broadcast(c);
            for (int k = 0; k < 8; k++) {
                assertThat(lane(repeated, k)).isEqualTo(c);
            }
            for (int n = 0; n < 2_000; n++) {
                long v = random.nextLong();
                if (n % 2 == 0) {
                    v = v & ~(0xffL << (8 * (n % 8))) | (long) c << (8 * (n % 8));
                }
                long word = v;
                assertThat(Swar.equalBytes(word, repeated))
                        .as("%016x for %02x", word, want)
                        .isEqualTo(expected(word, x -> x == want));
            }
        }
        forWords(v ->
                assertThat(Swar.equalBytes(v, Swar.broadcast(1))).as("%016x", v).isEqualTo(expected(v, x -> x == 1)));
    }

    @Test
    void nonAsciiFlagsTheBytesOf0x80OrMore() {
        forWords(v -> assertThat(Swar.nonAscii(v)).isEqualTo(expected(v, x -> x >= 0x80)));
    }

    @Test
    void inRangeIsExactForEveryRangeAndEveryByteAtEveryLane() {
        for (int lo = -1; lo <= 127; lo++) {
            for (int hi = Math.max(lo + 1, 1); hi <= 128; hi++) {
                int l = lo;
                int h = hi;
                long below = Swar.below(hi);
                long above = Swar.above(lo);
                for (int k = 0; k < 8; k++) {
                    long fill = random.nextLong();
                    for (int x = 0; x < 256; x++) {
                        long v = fill & ~(0xffL << (8 * k)) | (long) x << (8 * k);
                        long got = Swar.inRange(v, below, above);
                        if (got != expected(v, y -> y < 128 && y > l && y < h)) {
                            assertThat(got)
                                    .as("%016x in (%d, %d)", v, l, h)
                                    .isEqualTo(expected(v, y -> y < 128 && y > l && y < h));
                        }
                    }
                }
            }
        }
        forWords(v -> assertThat(Swar.inRange(v, Swar.below('9' + 1), Swar.above('0' - 1)))
                .isEqualTo(expected(v, y -> y >= '0' && y <= '9')));
    }

    @Test
    void lowerAsciiLowersOnlyUpperCaseAsciiLetters() {
        forWords(v -> {
            long want = 0;
            for (int k = 0; k < 8; k++) {
                int x = lane(v, k);
                want |= (long) (x >= 'A' && x <= 'Z' ? x + 32 : x) << (8 * k);
            }
            assertThat(Swar.lowerAscii(v)).as("%016x", v).isEqualTo(want);
        });
    }

    @Test
    void firstAndLastByteNameTheLowestAndHighestFlaggedLanes() {
        for (int mask = 1; mask < 256; mask++) {
            long hits = 0;
            for (int k = 0; k < 8; k++) {
                if ((mask >>> k & 1) != 0) {
                    hits |= 0x80L << (8 * k);
                }
            }
            assertThat(Swar.firstByte(hits)).isEqualTo(Integer.numberOfTrailingZeros(mask));
            assertThat(Swar.lastByte(hits)).isEqualTo(31 - Integer.numberOfLeadingZeros(mask));
        }
    }

    @Test
    void wordsAreReadAndWrittenLittleEndian() {
        byte[] bytes = new byte[11];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (0xa0 + i);
        }
        for (int at = 0; at + 8 <= bytes.length; at++) {
            long v = Swar.word(bytes, at);
            for (int k = 0; k < 8; k++) {
                assertThat(lane(v, k)).isEqualTo(bytes[at + k] & 0xff);
            }
        }
        byte[] into = new byte[10];
        Swar.setWord(into, 1, 0x0807060504030201L);
        assertThat(into).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 0);
    }
}
