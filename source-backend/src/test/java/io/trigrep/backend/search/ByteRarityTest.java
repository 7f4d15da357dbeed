package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The literal scan tests the two rarest bytes of its literal: which two, by the table's ranks. */
class ByteRarityTest {
    private static int[] pair(String needle, boolean fold) {
        return ByteRarity.rarestPair(needle.getBytes(StandardCharsets.ISO_8859_1), fold);
    }

    @Test
    void ranksRunFromTheCommonestByteToTheRarest() {
        assertThat(ByteRarity.rank((byte) ' ')).isZero();
        assertThat(ByteRarity.rank((byte) 'e')).isEqualTo(1);
        assertThat(ByteRarity.rank((byte) 0x1e)).isEqualTo(255);
        assertThat(ByteRarity.rank((byte) 0xff)).isEqualTo(227);
        assertThat(ByteRarity.rank((byte) 'J')).isGreaterThan(ByteRarity.rank((byte) 'j'));
    }

    @Test
    void thePairIsTheTwoRarestOffsetsInOrder() {
        assertThat(pair("x", false)).containsExactly(0, 0);
        assertThat(pair("ab", false)).containsExactly(0, 1);
        assertThat(pair("ba", false)).containsExactly(0, 1);
        // i4 n7 f16 l15 a9 t3 e1: f and l.
        assertThat(pair("inflate", false)).containsExactly(2, 3);
        assertThat(pair("inflate", true)).containsExactly(2, 3);
        // The rarest (b) comes after the second rarest (u): the pair is still in offset order.
        assertThat(pair("source_buffer", false)).containsExactly(2, 7);
        // Ties go to the first offsets.
        assertThat(pair("zqzq", false)).containsExactly(0, 2);
        assertThat(pair("JxJ", false)).containsExactly(0, 2);
        assertThat(pair("eeee", false)).containsExactly(0, 1);
        assertThat(pair("aXe", false)).containsExactly(0, 1);
    }

    @Property(tries = 300)
    void noOtherOffsetHoldsARarerByte(@ForAll @Size(min = 2, max = 12) byte[] needle) {
        int[] p = ByteRarity.rarestPair(needle, false);
        assertThat(p[0]).isLessThan(p[1]);
        int least = Math.min(ByteRarity.rank(needle[p[0]]), ByteRarity.rank(needle[p[1]]));
        for (int i = 0; i < needle.length; i++) {
            if (i != p[0] && i != p[1]) {
                assertThat(ByteRarity.rank(needle[i])).as("offset %d", i).isLessThanOrEqualTo(least);
            }
        }
    }
}
