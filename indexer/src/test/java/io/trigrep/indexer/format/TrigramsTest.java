package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Trigram packing and the trigram set, against a byte-at-a-time reference over every path: short, blocked, grown, dense. */
class TrigramsTest {
    private final Random random = new Random(4);

    /** The distinct trigrams of the range in first-seen order, one byte at a time. */
    private static List<Integer> reference(byte[] bytes, int offset, int length) {
        LinkedHashSet<Integer> seen = new LinkedHashSet<>();
        for (int i = offset; i + 3 <= offset + length; i++) {
            seen.add(Trigrams.of(bytes[i], bytes[i + 1], bytes[i + 2]));
        }
        return new ArrayList<>(seen);
    }

    /** The reference grouped as membersByFirstByte groups: by first byte, first-seen order within a group. */
    private static int[] grouped(List<Integer> trigrams) {
        return trigrams.stream()
                .sorted(Comparator.comparingInt(t -> t >>> 16))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    private static int[] members(Trigrams.Set set) {
        return Arrays.copyOf(set.membersByFirstByte(), set.size());
    }

    private static int[] streamed(Trigrams.Set set) {
        List<Integer> out = new ArrayList<>();
        set.forEachByFirstByte(out::add);
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private byte[] randomBytes(int n, int alphabet) {
        byte[] bytes = new byte[n];
        for (int i = 0; i < n; i++) {
            bytes[i] = (byte) (alphabet == 256 ? random.nextInt(256) : 'a' + random.nextInt(alphabet));
        }
        return bytes;
    }

    @Test
    void ofPacksThreeBytesBigEndian() {
        assertThat(Trigrams.of('a', 'b', 'c')).isEqualTo(0x616263);
        assertThat(Trigrams.of(-1, 0x100, 0x1fe)).isEqualTo(0xff00fe);
        assertThat(Trigrams.of((byte) 0x80, 0, (byte) 0xff)).isEqualTo(0x8000ff);
    }

    @Test
    void rangesShorterThanATrigramAddNothing() {
        Trigrams.Set set = new Trigrams.Set();
        byte[] bytes = "xyzab".getBytes(StandardCharsets.US_ASCII);
        assertThat(Trigrams.collect(bytes, 3, 2, set, Integer.MAX_VALUE)).isZero();
        assertThat(Trigrams.collect(bytes, 0, 0, set, Integer.MAX_VALUE)).isZero();
        assertThat(Trigrams.collect(bytes, 2, 3, set, Integer.MAX_VALUE)).isEqualTo(1);
        assertThat(members(set)).containsExactly(Trigrams.of('z', 'a', 'b'));
        assertThat(Trigrams.collect(bytes, 1, 1, set, Integer.MAX_VALUE)).isEqualTo(1);
    }

    @Test
    void collectReadsOnlyItsRangeAndKeepsEachTrigramOnce() {
        Trigrams.Set set = new Trigrams.Set();
        byte[] bytes = "..abcabcd..".getBytes(StandardCharsets.US_ASCII);
        assertThat(Trigrams.collect(bytes, 2, 7, set, Integer.MAX_VALUE)).isEqualTo(4);
        assertThat(set.size()).isEqualTo(4);
        assertThat(set.dense()).isFalse();
        assertThat(members(set)).containsExactly(0x616263, 0x626361, 0x626364, 0x636162);
        assertThat(streamed(set)).containsExactly(0x616263, 0x626361, 0x626364, 0x636162);
    }

    @Test
    void everyLengthAndOffsetAgreesWithTheReference() {
        byte[] bytes = randomBytes(1200, 5);
        Trigrams.Set set = new Trigrams.Set();
        for (int offset = 0; offset < 9; offset++) {
            // every short length; around one and two blocks (a last block under six bytes carries the trigram before
            // it)
            for (int length : new int[] {
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 19, 100, 257, 258, 259, 260, 261, 263, 264, 300, 513,
                514, 515, 517, 519, 520, 1000, 1100
            }) {
                set.clear();
                int size = Trigrams.collect(bytes, offset, length, set, Integer.MAX_VALUE);
                List<Integer> expected = reference(bytes, offset, length);
                assertThat(size).as("offset %d length %d", offset, length).isEqualTo(expected.size());
                assertThat(members(set))
                        .as("offset %d length %d", offset, length)
                        .isEqualTo(grouped(expected));
            }
        }
    }

    @Test
    void manyMembersGrowTheArraysAndGroupByFirstByte() {
        byte[] bytes = randomBytes(30_000, 256);
        Trigrams.Set set = new Trigrams.Set();
        Trigrams.collect(bytes, 0, bytes.length, set, Integer.MAX_VALUE);
        List<Integer> expected = reference(bytes, 0, bytes.length);
        assertThat(set.size()).isEqualTo(expected.size());
        assertThat(members(set)).isEqualTo(grouped(expected));
        assertThat(streamed(set)).isEqualTo(grouped(expected));
    }

    @Test
    void collectStopsAtTheBlockThatReachesItsLimit() {
        byte[] bytes = randomBytes(2000, 256);
        Trigrams.Set set = new Trigrams.Set();
        int size = Trigrams.collect(bytes, 0, bytes.length, set, 10);
        // the first block ends 256 bytes after the first trigram's last byte
        assertThat(size).isEqualTo(reference(bytes, 0, 2 + Trigrams.Set.BLOCK).size());
        set.clear();
        assertThat(Trigrams.collect(bytes, 0, bytes.length, set, 300))
                .isEqualTo(reference(bytes, 0, 2 + 2 * Trigrams.Set.BLOCK).size());
        set.clear();
        assertThat(Trigrams.collect(bytes, 0, bytes.length, set, 0)).isZero();
    }

    @Test
    void clearForgetsEveryMemberWhetherFewOrMany() {
        Trigrams.Set set = new Trigrams.Set();
        byte[] few = randomBytes(500, 4);
        byte[] many = randomBytes(80_000, 256);
        for (byte[] bytes : new byte[][] {few, many, few}) {
            for (int round = 0; round < 2; round++) {
                set.clear();
                assertThat(set.size()).isZero();
                Trigrams.collect(bytes, 0, bytes.length, set, Integer.MAX_VALUE);
                assertThat(members(set)).isEqualTo(grouped(reference(bytes, 0, bytes.length)));
            }
        }
    }

    @Test
    void overAMillionMembersTheSetTurnsDenseAndStreamsInOrder() {
        byte[] bytes = randomBytes(1_300_000, 256);
        Trigrams.Set set = new Trigrams.Set();
        int size = Trigrams.collect(bytes, 0, bytes.length, set, Integer.MAX_VALUE);
        // the reference without boxing: a million Integers make this test ten times slower
        boolean[] seen = new boolean[1 << 24];
        for (int i = 0; i + 3 <= bytes.length; i++) {
            seen[Trigrams.of(bytes[i], bytes[i + 1], bytes[i + 2])] = true;
        }
        int[] expected = IntStream.range(0, 1 << 24).filter(t -> seen[t]).toArray();
        assertThat(set.dense()).isTrue();
        assertThat(size).isEqualTo(expected.length).isGreaterThan(Trigrams.Set.DENSE);
        IntStream.Builder streamed = IntStream.builder();
        set.forEachByFirstByte(streamed::add);
        assertThat(Arrays.equals(streamed.build().toArray(), expected))
                .as("members streamed in increasing order")
                .isTrue();
        assertThatThrownBy(set::membersByFirstByte)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("a dense set of " + size + " trigrams has no member array: use forEachByFirstByte");

        set.clear();
        assertThat(set.dense()).isFalse();
        assertThat(set.size()).isZero();
        // the tail's trigrams came after the set turned dense: only clearing every bit forgets them
        byte[] small = Arrays.copyOfRange(bytes, bytes.length - 3000, bytes.length);
        Trigrams.collect(small, 0, small.length, set, Integer.MAX_VALUE);
        assertThat(members(set)).isEqualTo(grouped(reference(small, 0, small.length)));
    }

    @Test
    void aSetStopsRecordingMembersJustPastTheDenseLimit() {
        // Distinct trigrams until the set holds DENSE - BLOCK, then one block more: still recorded.
        byte[] bytes = randomBytes(1_300_000, 256);
        Trigrams.Set set = new Trigrams.Set();
        int from = 0;
        while (set.size() + Trigrams.Set.BLOCK <= Trigrams.Set.DENSE && from + 2 + Trigrams.Set.BLOCK <= bytes.length) {
            Trigrams.collect(bytes, from, 2 + Trigrams.Set.BLOCK, set, Integer.MAX_VALUE);
            from += Trigrams.Set.BLOCK;
        }
        assertThat(set.dense()).isFalse();
        Trigrams.collect(bytes, from, 2 + Trigrams.Set.BLOCK, set, Integer.MAX_VALUE);
        assertThat(set.dense()).isTrue();
    }
}
