package io.trigrep.backend.warm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RoundsTest {
    @Test
    void saysTheFirstAndLastRoundsInMilliseconds() {
        assertThat(Rounds.describe(3_672_000_000L, 914_400_000L)).isEqualTo("first round 3672 ms, last 914 ms");
    }

    @Test
    void saysSoWhenNoRoundEnded() {
        // A Linux shard's round held a 2.3 s full scan: four searches used the rounds' share, and
        // the log said "first round -0 ms, last -0 ms".
        assertThat(Rounds.describe(-1, -1)).isEqualTo("no whole round");
    }
}
