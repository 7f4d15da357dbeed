package io.trigrep.backend.warm;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RoundsTest {
    private final AtomicLong jit = new AtomicLong();

    /** One round of {@code millis} in which the JIT compiled for {@code compiled} ms; whether the rounds may end. */
    private boolean round(Rounds rounds, long millis, long compiled) {
        rounds.begin();
        jit.addAndGet(compiled);
        return rounds.end(millis * 1_000_000L);
    }

    @Test
    void endAfterTheMinimumOnceARoundIsNoFasterAndTheJitQuiet() {
        Rounds rounds = new Rounds(2, jit::get, 50);
        assertThat(round(rounds, 3000, 400)).as("the first of two at least").isFalse();
        assertThat(round(rounds, 1500, 100)).as("a half faster").isFalse();
        assertThat(round(rounds, 1400, 20)).isTrue();
        assertThat(rounds.count()).isEqualTo(3);
    }

    @Test
    void goOnWhileTheJitCompilesEvenWhenTheRoundsAreFlat() {
        // A backend warming alone threw its compiled scan loop away in a late round and ran it at
        // the profiling tier through two flat rounds: their time did not say so, the JIT's did.
        Rounds rounds = new Rounds(2, jit::get, 50);
        round(rounds, 1500, 300);
        assertThat(round(rounds, 1500, 111))
                .as("flat, but 111 ms of compiling in 1.5 s")
                .isFalse();
        assertThat(round(rounds, 1500, 31)).as("31 ms: more than a fiftieth").isFalse();
        assertThat(round(rounds, 1500, 30)).as("30 ms: a fiftieth").isTrue();
    }

    @Test
    void endOnTheirTimesAloneWhenNotAskedToWaitForTheJit() {
        Rounds rounds = new Rounds(2, jit::get, 0);
        round(rounds, 1500, 900);
        assertThat(round(rounds, 1500, 900)).isTrue();
        assertThat(rounds.summary().describe())
                .isEqualTo("first round 1500 ms, last 1500 ms, JIT compiling 900, 900 ms");
    }

    @Test
    void goOnWhileARoundIsATenthFasterThanTheOneBefore() {
        Rounds rounds = new Rounds(2, jit::get, 50);
        round(rounds, 2000, 0);
        assertThat(round(rounds, 1790, 0)).isFalse();
        assertThat(round(rounds, 1612, 0))
                .as("not a tenth faster than the one before")
                .isTrue();
    }

    @Test
    void endOnTheirTimesAloneWhenTheJvmDoesNotSayWhatItCompiled() {
        Rounds rounds = new Rounds(2, () -> -1, 50);
        rounds.begin();
        assertThat(rounds.end(1_000_000_000L)).isFalse();
        rounds.begin();
        assertThat(rounds.end(1_000_000_000L)).isTrue();
        assertThat(rounds.summary().describe()).isEqualTo("first round 1000 ms, last 1000 ms");
    }

    @Test
    void sayTheFirstAndLastRoundsAndTheJitsTimeInEach() {
        Rounds rounds = new Rounds(1, jit::get, 50);
        round(rounds, 3672, 812);
        round(rounds, 914, 3);
        assertThat(rounds.summary().describe()).isEqualTo("first round 3672 ms, last 914 ms, JIT compiling 812, 3 ms");
    }

    @Test
    void saySoWhenNoRoundEnded() {
        // A Linux shard's round held a 2.3 s full scan: four searches used the rounds' share, and
        // the log said "first round -0 ms, last -0 ms".
        assertThat(new Rounds(2, jit::get, 50).summary().describe()).isEqualTo("no whole round");
        Rounds begunOnly = new Rounds(2, jit::get, 50);
        begunOnly.begin();
        assertThat(begunOnly.summary().describe()).isEqualTo("no whole round");
        assertThat(begunOnly.summary().count()).isZero();
    }

    @Test
    void thisJvmSaysWhatItsJitCompiled() {
        assertThat(Rounds.jitMillis().getAsLong()).isNotNegative();
    }
}
