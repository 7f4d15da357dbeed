package io.trigrep.backend.search;

import static io.trigrep.testing.Eventually.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Which chunk the foreground pool runs next: oldest query first, each query's chunks in order. */
class SearchQueueTest {
    private final List<String> ran = new ArrayList<>();

    private SearchQueue.Task task(long arrival, boolean background, String name) {
        return new SearchQueue.Task(arrival, background, () -> ran.add(name));
    }

    private List<String> drainRunning(SearchQueue queue) {
        Runnable r;
        while ((r = queue.poll()) != null) {
            r.run();
        }
        return ran;
    }

    @Test
    void theOldestQueryGoesFirstAndAQuerysChunksKeepTheirOrder() {
        SearchQueue queue = new SearchQueue(16);
        queue.offer(task(20, false, "b1"));
        queue.offer(task(10, false, "a1"));
        queue.offer(task(20, false, "b2"));
        queue.offer(task(10, false, "a2"));
        assertThat(drainRunning(queue)).containsExactly("a1", "a2", "b1", "b2");
    }

    @Test
    void aPlainTaskIsForegroundWorkThatArrivedWhenQueued() {
        SearchQueue queue = new SearchQueue(8);
        long before = SearchQueue.arrival();
        queue.offer(() -> ran.add("fetch"));
        queue.offer(task(before, false, "older search"));
        queue.offer(task(SearchQueue.arrival(), false, "newer search"));
        assertThat(drainRunning(queue)).containsExactly("older search", "fetch", "newer search");
    }

    @Test
    void aFullQueueRefusesAndPutSaysSo() {
        SearchQueue queue = new SearchQueue(2);
        assertThat(queue.offer(task(1, false, "a"))).isTrue();
        assertThat(queue.offer(task(1, true, "b"))).isTrue();
        assertThat(queue.offer(task(1, false, "c"))).isFalse();
        assertThat(queue.remainingCapacity()).isZero();
        assertThatThrownBy(() -> queue.put(task(1, false, "d"))).isInstanceOf(IllegalStateException.class);
        assertThat(queue).hasSize(2);
        assertThatThrownBy(() -> queue.offer(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> new SearchQueue(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void peekShowsWhatPollTakesAndRemoveAndDrainWork() {
        SearchQueue queue = new SearchQueue(16);
        SearchQueue.Task later = task(6, false, "later");
        SearchQueue.Task foreground = task(5, false, "fg");
        SearchQueue.Task oldest = task(1, false, "oldest");
        assertThat(queue.peek()).isNull();
        queue.offer(later);
        assertThat(queue.peek()).isSameAs(later);
        queue.offer(foreground);
        queue.offer(oldest);
        assertThat(queue.peek()).isSameAs(oldest);
        assertThat(queue.iterator()).toIterable().containsExactlyInAnyOrder(oldest, foreground, later);
        assertThat(queue.remove(foreground)).isTrue();
        assertThat(queue.remove(foreground)).isFalse();
        List<Runnable> drained = new ArrayList<>();
        assertThat(queue.drainTo(drained, 1)).isEqualTo(1);
        assertThat(drained).containsExactly(oldest);
        assertThat(queue.drainTo(drained)).isEqualTo(1);
        assertThat(drained).containsExactly(oldest, later);
        assertThat(queue).isEmpty();
    }

    @Test
    void takeWaitsForATaskAndATimedPollGivesUp() throws Exception {
        SearchQueue queue = new SearchQueue(4);
        assertThat(queue.poll(0, TimeUnit.NANOSECONDS)).isNull();
        AtomicReference<Runnable> taken = new AtomicReference<>();
        CountDownLatch waiting = new CountDownLatch(1);
        Thread taker = new Thread(() -> {
            try {
                waiting.countDown();
                taken.set(queue.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        taker.start();
        waiting.await();
        SearchQueue.Task t = task(1, false, "t");
        queue.offer(t);
        taker.join(PATIENCE.toMillis());
        assertThat(taken.get()).isSameAs(t);
        assertThat(queue.offer(t, 1, TimeUnit.SECONDS)).isTrue();
        assertThat(queue.poll(1, TimeUnit.SECONDS)).isSameAs(t);
    }

    /** Through a real one-thread pool, as the backend runs it: a selective query queued behind another's chunks runs next. */
    @Test
    void aPoolRunsTheNewSelectiveQueryBeforeAnOlderQuerysNextChunks() throws Exception {
        SearchQueue queue = new SearchQueue(64);
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, queue);
        try {
            CountDownLatch hold = new CountDownLatch(1);
            CountDownLatch busy = new CountDownLatch(1);
            pool.execute(() -> {
                busy.countDown();
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            busy.await();
            long older = SearchQueue.arrival();
            long selective = SearchQueue.arrival();
            List<String> order = java.util.Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(5);
            for (String name : List.of("selective-a", "selective-b")) {
                pool.execute(new SearchQueue.Task(selective, false, () -> {
                    order.add(name);
                    done.countDown();
                }));
            }
            for (String name : List.of("older-1", "older-2")) {
                pool.execute(new SearchQueue.Task(older, false, () -> {
                    order.add(name);
                    done.countDown();
                }));
            }
            pool.execute(new SearchQueue.Task(selective, false, () -> {
                order.add("selective-c");
                done.countDown();
            }));
            hold.countDown();
            assertThat(done.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(order).containsExactly("older-1", "older-2", "selective-a", "selective-b", "selective-c");
        } finally {
            pool.shutdownNow();
        }
    }
}
