package io.trigrep.testing;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class EventuallyTest {
    private static final Duration SHORT = Duration.ofMillis(100);

    @Test
    void returnsAsSoonAsTheConditionHolds() throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        eventually(
                "the third call",
                PATIENCE,
                () -> assertThat(calls.incrementAndGet()).isEqualTo(3));
        assertThat(calls).hasValue(3);

        AtomicInteger once = new AtomicInteger();
        eventually("the first call", PATIENCE, once::incrementAndGet);
        assertThat(once).as("a condition that holds at once is checked once").hasValue(1);
    }

    @Test
    void returnsTheFirstValueThatIsNotNull() throws InterruptedException {
        AtomicInteger calls = new AtomicInteger();
        String value = eventuallyGet("a value", PATIENCE, () -> {
            int call = calls.incrementAndGet();
            if (call == 1) {
                throw new IllegalStateException("not ready");
            }
            return call < 4 ? null : "ready at " + call;
        });
        assertThat(value).isEqualTo("ready at 4");
        assertThat(calls).hasValue(4);
    }

    @Test
    void failsWithWhatItAwaitedAndTheLastFailure() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> eventually("the answer", SHORT, () -> {
                    throw new IllegalStateException("call " + calls.incrementAndGet());
                }))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("the answer: not within PT0.1S (waited ")
                .satisfies(e -> assertThat(e.getCause())
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage("call " + calls.get()));
        assertThat(calls.get()).as("tried more than once").isGreaterThan(1);
    }

    @Test
    void aFailedAssertionIsTheCause() {
        assertThatThrownBy(() -> eventually(
                        "zero", SHORT, () -> assertThat(1).as("count").isZero()))
                .hasMessageContaining("zero: not within")
                .cause()
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("count");
    }

    @Test
    void aValueThatStaysNullFails() {
        assertThatThrownBy(() -> eventuallyGet("a value", SHORT, () -> null))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("a value: not within")
                .hasMessageEndingWith("last: still null")
                .hasNoCause();
    }

    @Test
    void anInterruptStopsTheWait() {
        AtomicInteger calls = new AtomicInteger();
        assertThatThrownBy(() -> eventually("never", PATIENCE, () -> {
                    calls.incrementAndGet();
                    throw new InterruptedException("stop");
                }))
                .isInstanceOf(InterruptedException.class)
                .hasMessage("stop");
        assertThat(calls).hasValue(1);
    }
}
