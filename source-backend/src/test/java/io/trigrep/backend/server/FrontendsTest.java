package io.trigrep.backend.server;

import static io.trigrep.testing.Eventually.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FrontendsTest {
    private final AtomicLong clock = new AtomicLong();
    private final Frontends frontends = new Frontends(Duration.ofSeconds(2), clock::get);

    @Test
    void noFrontendHeardIsNoneBehind() throws Exception {
        assertThat(frontends.awaitLearnt(7, Duration.ZERO)).isZero();
    }

    @Test
    void countsTheFrontendsThatHaveNotLearntTheGeneration() throws Exception {
        frontends.heard(1, 6);
        frontends.heard(2, 6);
        assertThat(frontends.awaitLearnt(7, Duration.ZERO)).isEqualTo(2);
        frontends.heard(1, 7);
        assertThat(frontends.awaitLearnt(7, Duration.ZERO)).isEqualTo(1);
        frontends.heard(2, 7);
        assertThat(frontends.awaitLearnt(7, Duration.ZERO)).isZero();
    }

    @Test
    void aFrontendSilentPastTheLeaseIsNotWaitedFor() throws Exception {
        frontends.heard(1, 6);
        clock.addAndGet(TimeUnit.SECONDS.toNanos(2) + 1);
        frontends.heard(2, 7);
        assertThat(frontends.awaitLearnt(7, Duration.ZERO)).isZero();
    }

    @Test
    void madeUpIdsCannotGrowWhatIsKeptPastTheBound() throws Exception {
        for (long id = 1; id <= 10 * Frontends.MOST; id++) {
            frontends.heard(id, 6);
        }
        // Only the first MOST are waited for; the rest were not kept.
        assertThat(frontends.awaitLearnt(7, Duration.ZERO)).isEqualTo(Frontends.MOST);
        // Once those fall silent past the lease, new frontends are tracked again.
        clock.addAndGet(TimeUnit.SECONDS.toNanos(3));
        frontends.heard(-1, 6);
        assertThat(frontends.awaitLearnt(7, Duration.ZERO)).isEqualTo(1);
    }

    @Test
    void aHeartbeatWakesTheWait() throws Exception {
        Frontends real = new Frontends(Duration.ofMinutes(1));
        real.heard(1, 6);
        CompletableFuture<Integer> behind = CompletableFuture.supplyAsync(() -> {
            try {
                return real.awaitLearnt(7, Duration.ofMinutes(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        real.heard(1, 7);
        assertThat(behind.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isZero();
    }
}
