package io.trigrep.indexer.build;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class BudgetTest {
    @Test
    void standardBuffersComeBackAndAreHandedOutAgain() throws Exception {
        Budget budget = new Budget(100, 10);
        byte[] first = budget.take(3);
        assertThat(first).hasSize(10);
        assertThat(budget.held()).isEqualTo(10);
        budget.give(first);
        assertThat(budget.held()).isZero();
        assertThat(budget.recycled()).isEqualTo(1);
        assertThat(budget.take(10)).isSameAs(first);
        assertThat(budget.recycled()).isZero();
    }

    @Test
    void aFileLargerThanABatchGetsAnExactBufferThatIsNotKept() throws Exception {
        Budget budget = new Budget(100, 10);
        byte[] big = budget.take(42);
        assertThat(big).hasSize(42);
        assertThat(budget.held()).isEqualTo(42);
        budget.give(big);
        assertThat(budget.held()).isZero();
        assertThat(budget.recycled()).isZero();
    }

    @Test
    void theEmptyBufferCostsNothing() {
        Budget budget = new Budget(100, 10);
        budget.give(Budget.none());
        assertThat(budget.held()).isZero();
        assertThat(budget.recycled()).isZero();
    }

    @Test
    void oneRequestOverTheWholeBudgetPassesWhenNothingElseIsHeld() throws Exception {
        Budget budget = new Budget(100, 10);
        assertThat(budget.take(500)).hasSize(500);
        assertThat(budget.held()).isEqualTo(500);
    }

    @Test
    void aReaderWaitsUntilAWorkerGivesBack() throws Exception {
        Budget budget = new Budget(20, 10);
        byte[] a = budget.take(10);
        byte[] b = budget.take(10);
        AtomicReference<byte[]> third = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try {
                third.set(budget.take(5));
            } catch (java.io.InterruptedIOException e) {
                Thread.currentThread().interrupt();
            } finally {
                done.countDown();
            }
        });
        reader.start();
        // The reader is parked in take: the budget is full.
        Thread.State parked = eventuallyGet("the reader parked in take, or ended", PATIENCE, () -> {
            Thread.State state = reader.getState();
            return state == Thread.State.WAITING || state == Thread.State.TERMINATED ? state : null;
        });
        assertThat(done.getCount()).isEqualTo(1);
        assertThat(parked).isEqualTo(Thread.State.WAITING);
        assertThat(third.get()).isNull();
        budget.give(b);
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(third.get()).isSameAs(b);
        assertThat(budget.held()).isEqualTo(20);
        budget.give(a);
        budget.give(third.get());
        assertThat(budget.held()).isZero();
    }

    @Test
    void theBuffersAliveNeverPassTheLimitByMoreThanOneRequest() throws Exception {
        Budget budget = new Budget(40, 10);
        java.util.List<byte[]> out = new java.util.ArrayList<>();
        for (int round = 0; round < 5; round++) {
            for (int i = 0; i < 4; i++) {
                out.add(budget.take(i));
            }
            assertThat(budget.held()).isEqualTo(40);
            out.forEach(budget::give);
            out.clear();
        }
        // Four standard buffers served every round: no more were ever made.
        assertThat(budget.recycled()).isEqualTo(4);
    }

    @Test
    void refusesNonsense() {
        assertThatThrownBy(() -> new Budget(0, 10)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Budget(10, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Budget(10, 1).take(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
