package io.trigrep.backend.search;

import static io.trigrep.testing.Eventually.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Heavy chunks on lowered threads of their own; everything else on the foreground pool, never waiting for them. */
class SearchPoolTest {
    @Test
    void aSelectiveChunkRunsWhileEveryBackgroundThreadIsInAHeavyOne() throws Exception {
        SearchPool pool = new SearchPool(2, 64);
        CountDownLatch hold = new CountDownLatch(1);
        try {
            List<String> where = new CopyOnWriteArrayList<>();
            CountDownLatch heavyRunning = new CountDownLatch(2);
            for (int i = 0; i < 3; i++) {
                pool.execute(new SearchQueue.Task(1, true, () -> {
                    where.add("heavy " + Thread.currentThread().getName() + " "
                            + Thread.currentThread().getPriority());
                    heavyRunning.countDown();
                    try {
                        hold.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            assertThat(heavyRunning.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .isTrue();
            CountDownLatch done = new CountDownLatch(2);
            pool.execute(new SearchQueue.Task(SearchQueue.arrival(), false, () -> {
                where.add("selective " + Thread.currentThread().getName() + " "
                        + Thread.currentThread().getPriority());
                done.countDown();
            }));
            pool.execute(() -> {
                where.add("fetch " + Thread.currentThread().getName() + " "
                        + Thread.currentThread().getPriority());
                done.countDown();
            });
            assertThat(done.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            // Two heavy chunks hold both background threads; the third waits for one of them.
            assertThat(where).hasSize(4);
            assertThat(where.subList(0, 2))
                    .allMatch(s -> s.matches("heavy trigrep-search-bg-\\d+ " + Thread.MIN_PRIORITY));
            assertThat(where.subList(2, 4))
                    .anyMatch(s -> s.matches("selective trigrep-search-\\d+ " + Thread.NORM_PRIORITY))
                    .anyMatch(s -> s.matches("fetch trigrep-search-\\d+ " + Thread.NORM_PRIORITY));
        } finally {
            hold.countDown();
            pool.shutdownNow();
        }
    }
}
