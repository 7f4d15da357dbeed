package io.trigrep.backend.warm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SettlingTest {
    /** Feeds {@code batches} in turn; returns the 1-based batch at which it settled, 0 if never. */
    private static int settlesAt(Settling settling, long... batches) {
        for (int i = 0; i < batches.length; i++) {
            if (settling.settled(batches[i])) {
                return i + 1;
            }
        }
        return 0;
    }

    @Test
    void aFlatLatencySettlesAfterPatienceBatchesButNotBeforeTheMinimum() {
        assertThat(settlesAt(new Settling(1, 3), 10, 10, 10, 10, 10)).isEqualTo(4);
        assertThat(settlesAt(new Settling(6, 3), 10, 10, 10, 10, 10, 10, 10)).isEqualTo(6);
    }

    @Test
    void aFallOfATenthOrMoreStartsThePatienceAgain() {
        // 95 and 91 fall by less than a tenth of 100; 89 does, in small steps; 79 is a tenth under 89.
        Settling settling = new Settling(1, 4);
        assertThat(settlesAt(settling, 100, 95, 91, 89, 85, 82, 79, 81, 80, 83, 78, 80))
                .isEqualTo(11);
        assertThat(settling.best()).isEqualTo(78);
    }

    @Test
    void aFallingLatencyWithSlowBatchesOnTheWayIsNotSettled() {
        // The shape a fresh frontend showed: falls with batches 40 % slower than the last between them.
        long[] curve = {
            131, 111, 101, 116, 115, 50, 55, 57, 67, 48, 37, 37, 51, 69, 39, 43, 36, 60, 27, 27, 28, 25, 23, 23, 42, 18,
            16, 17, 17, 18, 17, 17, 19, 18, 17, 16, 18
        };
        Settling settling = new Settling(8, 8);
        int at = settlesAt(settling, curve);
        assertThat(at).as("settled only once the latency is near its floor").isGreaterThan(26);
        assertThat(settling.best()).isLessThanOrEqualTo(18);
    }

    @Test
    void theMedianIsTheMiddleOfTheCountedTimes() {
        assertThat(Settling.median(new long[] {5, 1, 3, 99, 99}, 3)).isEqualTo(3);
        assertThat(Settling.median(new long[] {4, 2}, 2)).isEqualTo(4);
        assertThatThrownBy(() -> Settling.median(new long[4], 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Settling(0, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void runAlternatesTimedAndOtherRequestsAndStopsForEachReason() throws Exception {
        AtomicLong clock = new AtomicLong();
        AtomicInteger timed = new AtomicInteger();
        AtomicInteger between = new AtomicInteger();
        // Each timed request takes 10 units, each other one 1: flat, so it settles after the minimum.
        Settling.Request slow = () -> {
            timed.incrementAndGet();
            clock.addAndGet(10);
            return true;
        };
        Settling.Request quick = () -> {
            between.incrementAndGet();
            clock.addAndGet(1);
            return true;
        };
        Settling.Run run = new Settling(3, 2).run(slow, quick, 8, 1_000, Long.MAX_VALUE, clock::get);
        assertThat(run).isEqualTo(new Settling.Run(24, 10, 10, "settled"));
        assertThat(timed.get()).isEqualTo(12);
        assertThat(between.get()).isEqualTo(12);

        assertThat(new Settling(3, 2).run(slow, quick, 8, 5, Long.MAX_VALUE, clock::get))
                .isEqualTo(new Settling.Run(5, -1, -1, "the request cap"));
        // 10, 11, 21, 22 (a batch), 32: past the deadline at 25, so the sixth is not sent.
        long deadline = clock.get() + 25;
        assertThat(new Settling(3, 2).run(slow, quick, 4, 1_000, deadline, clock::get))
                .isEqualTo(new Settling.Run(5, 10, 10, "the budget"));
        assertThat(new Settling(3, 2).run(slow, () -> false, 8, 1_000, Long.MAX_VALUE, clock::get))
                .isEqualTo(new Settling.Run(1, -1, -1, "a refused request"));
    }

    @Test
    void describeQuotesTheQueriesOrSaysNone() {
        Settling.Run run = new Settling.Run(640, 2_400_000, 1_100_000, "the budget");
        assertThat(run.describe(java.util.List.of("a_b", "c"), "nothing"))
                .isEqualTo(
                        "for \"a_b\", \"c\" (median 2.4 ms in the first batch, 1.1 ms at best; stopped: the budget)");
        assertThat(Settling.Run.NOT_RUN.describe(java.util.List.of(), "no word"))
                .isEqualTo("for no word (no whole batch; stopped: not run)");
    }
}
