package io.trigrep.frontend.http;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * Pool workers that wait for work in vain and end, made to happen during the warm-up. A busy
 * warm-up never lets a worker time out, so HotSpot compiled {@code ThreadPoolExecutor.getTask},
 * which every pool of the process shares, with the queues' timed {@code poll} inlined, for a queue
 * that always handed out a task. The first worker to time out after ready (the cache's remover,
 * idle 10 s; the JDK HTTP client's, 60 s) threw that code away ({@code -XX:+LogCompilation}: a
 * {@code null_check} trap at the {@code poll}'s result), and it was compiled again during the first
 * user's query: 169 ms of one core, on a 2-core machine whose other work then was the backends'
 * search. With three time-outs here, the next time-out after ready still threw it away, at the
 * queue's own timed wait, which had run too few times to be profiled: so each queue a pool of this
 * process times out on ({@link #QUEUES}) times out here often enough for the JIT's profiling tier.
 */
final class IdleWorkers {
    /**
     * The queues of the pools whose workers time out: a fixed pool's ({@code LinkedBlockingQueue},
     * the cache's remover) and a cached pool's ({@code SynchronousQueue}, the JDK HTTP client's).
     */
    static final List<Supplier<BlockingQueue<Runnable>>> QUEUES =
            List.of(LinkedBlockingQueue::new, SynchronousQueue::new);

    /** How long a worker here waits for work: long enough to be a wait, short enough for a warm-up. */
    private static final long KEEP_ALIVE_MICROS = 200;
    /** How long to wait for one worker to end, at most: it should take about {@link #KEEP_ALIVE_MICROS}. */
    private static final long END_WAIT_MILLIS = 1_000;

    private IdleWorkers() {}

    /**
     * For each of {@link #QUEUES}, runs {@code times} tasks one after another on a pool with no core
     * workers, each once the worker before has timed out and ended, so that each gets a new worker
     * that times out in turn.
     *
     * @return the workers that ended by timing out
     */
    static int timeOut(int times) throws InterruptedException {
        int ended = 0;
        for (Supplier<BlockingQueue<Runnable>> queue : QUEUES) {
            ended += timeOut(queue.get(), times);
        }
        return ended;
    }

    private static int timeOut(BlockingQueue<Runnable> queue, int times) throws InterruptedException {
        AtomicInteger made = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(0, 1, KEEP_ALIVE_MICROS, TimeUnit.MICROSECONDS, queue, r -> {
            Thread t = new Thread(r, "trigrep-warmup-idle-" + made.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        int ended = 0;
        try {
            for (int i = 0; i < times; i++) {
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                ran.await();
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(END_WAIT_MILLIS);
                while (pool.getPoolSize() > 0 && System.nanoTime() - deadline < 0) {
                    LockSupport.parkNanos(KEEP_ALIVE_MICROS * 1_000 / 4);
                }
                if (pool.getPoolSize() == 0) {
                    ended++;
                }
            }
        } finally {
            pool.shutdownNow();
        }
        return ended;
    }
}
