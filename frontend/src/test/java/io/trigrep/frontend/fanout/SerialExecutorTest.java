package io.trigrep.frontend.fanout;

import static io.trigrep.testing.Eventually.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A query's writer runs its tasks in order, one at a time, and in turns with the other queries on the pool. */
class SerialExecutorTest {
    @Test
    void twoBusyQueriesTakeTurnsOnOneThreadEachInItsOwnOrder() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch hold = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            SerialExecutor heavy = new SerialExecutor(pool, pool);
            SerialExecutor selective = new SerialExecutor(pool, pool);
            List<String> ran = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(12);
            for (int i = 0; i < 10; i++) {
                String name = "h" + i;
                heavy.execute(() -> {
                    ran.add(name);
                    done.countDown();
                });
            }
            for (int i = 0; i < 2; i++) {
                String name = "s" + i;
                selective.execute(() -> {
                    ran.add(name);
                    done.countDown();
                });
            }
            hold.countDown();
            assertThat(done.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            // The heavy query's first turn, then the selective one's whole work, then the rest.
            assertThat(ran).containsExactly("h0", "h1", "h2", "h3", "s0", "s1", "h4", "h5", "h6", "h7", "h8", "h9");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aTaskQueuedWhileTheWriterRunsIsRunByItAfterTheOthers() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            SerialExecutor writer = new SerialExecutor(pool, pool);
            List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger running = new AtomicInteger();
            AtomicInteger mostAtOnce = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(20);
            // The writer waits until all ten are queued: else task 0 could queue its follow-up
            // before this thread queued task 1, and that order would be right too.
            CountDownLatch queued = new CountDownLatch(1);
            writer.execute(() -> {
                try {
                    queued.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            for (int i = 0; i < 10; i++) {
                int n = i;
                writer.execute(() -> {
                    mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                    ran.add(n);
                    // Queued from inside a task: it must still run after every task before it, never beside one.
                    writer.execute(() -> {
                        mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                        ran.add(100 + n);
                        running.decrementAndGet();
                        done.countDown();
                    });
                    running.decrementAndGet();
                    done.countDown();
                });
            }
            queued.countDown();
            assertThat(done.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(mostAtOnce.get())
                    .as("tasks of one writer running at once")
                    .isEqualTo(1);
            assertThat(ran.subList(0, 10)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 8, 9);
            assertThat(ran.subList(10, 20)).containsExactly(100, 101, 102, 103, 104, 105, 106, 107, 108, 109);
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A writer whose tasks have taken more than the quantum runs its next turns on the heavy pool;
     * another writer's tasks still run on the pool, even while every heavy thread is busy.
     */
    @Test
    void aWriterPastItsQuantumMovesToTheHeavyPoolAndLeavesThePoolToTheOthers() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "pool"));
        ExecutorService heavyPool = Executors.newSingleThreadExecutor(r -> new Thread(r, "heavy"));
        try {
            SerialExecutor heavy = new SerialExecutor(pool, heavyPool);
            SerialExecutor selective = new SerialExecutor(pool, heavyPool);
            List<String> ran = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch first = new CountDownLatch(1);
            heavy.execute(() -> {
                ran.add("h0 on " + Thread.currentThread().getName());
                try {
                    Thread.sleep(TimeUnit.NANOSECONDS.toMillis(SerialExecutor.QUANTUM_NANOS) + 20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                first.countDown();
            });
            assertThat(first.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            // The turn that ran h0 ends after h0 returns; until then it would take h1 too. The pool's
            // one thread runs this no-op only once that turn has ended and counted its time.
            pool.submit(() -> {}).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            // The heavy pool's one thread held: the heavy writer's next task waits; the selective one does not.
            CountDownLatch hold = new CountDownLatch(1);
            heavyPool.execute(() -> {
                try {
                    hold.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            CountDownLatch heavyDone = new CountDownLatch(1);
            heavy.execute(() -> {
                ran.add("h1 on " + Thread.currentThread().getName());
                heavyDone.countDown();
            });
            CountDownLatch selectiveDone = new CountDownLatch(1);
            selective.execute(() -> {
                ran.add("s0 on " + Thread.currentThread().getName());
                selectiveDone.countDown();
            });
            assertThat(selectiveDone.await(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                    .isTrue();
            assertThat(ran).containsExactly("h0 on pool", "s0 on pool");
            hold.countDown();
            assertThat(heavyDone.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(ran).containsExactly("h0 on pool", "s0 on pool", "h1 on heavy");
        } finally {
            pool.shutdownNow();
            heavyPool.shutdownNow();
        }
    }
}
