package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** The open-addressing table of non-ASCII transitions holds what a map would, through growth and clears. */
class RuneTransitionsTest {
    @Property(tries = 200)
    void holdsWhatAMapHolds(
            @ForAll @Size(max = 300) List<@IntRange(min = 0, max = 40) Integer> states,
            @ForAll @IntRange(min = 1, max = 7) int runeStride,
            @ForAll @IntRange(min = 0, max = 400) int clearAt) {
        RuneTransitions table = new RuneTransitions();
        Map<Long, Integer> truth = new HashMap<>();
        for (int k = 0; k < states.size(); k++) {
            if (k == clearAt) {
                table.clear();
                truth.clear();
            }
            int state = states.get(k);
            int rune = 0x80 + (k * runeStride) % 50;
            int value = k % 2 == 0 ? k : DfaStates.MATCHED;
            table.put(state, rune, value);
            truth.put((long) state << 32 | rune, value);
        }
        for (int state = 0; state <= 40; state++) {
            for (int rune = 0x80; rune < 0x80 + 50; rune++) {
                Integer want = truth.get((long) state << 32 | rune);
                assertThat(table.get(state, rune))
                        .as("state %d rune %x", state, rune)
                        .isEqualTo(want == null ? DfaStates.UNKNOWN : want);
            }
        }
    }

    @Test
    void aKeyPutAgainKeepsOneSlotAndTheLastValue() {
        RuneTransitions table = new RuneTransitions();
        for (int k = 0; k < 1000; k++) {
            table.put(7, 0x10FFFF, k);
        }
        assertThat(table.get(7, 0x10FFFF)).isEqualTo(999);
        for (int rune = 0x100; rune < 0x100 + 31; rune++) {
            table.put(1, rune, rune);
        }
        for (int rune = 0x100; rune < 0x100 + 31; rune++) {
            assertThat(table.get(1, rune)).isEqualTo(rune);
        }
        assertThat(table.get(0, 0x10FFFF)).isEqualTo(DfaStates.UNKNOWN);
        assertThat(table.get(7 + 1, 0x10FFFF)).isEqualTo(DfaStates.UNKNOWN);
        table.clear();
        assertThat(table.get(7, 0x10FFFF)).isEqualTo(DfaStates.UNKNOWN);
        assertThat(table.get(1, 0x100)).isEqualTo(DfaStates.UNKNOWN);
    }
}
