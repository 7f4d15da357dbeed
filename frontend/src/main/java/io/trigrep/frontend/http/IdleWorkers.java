package io.trigrep.frontend.http;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
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
     * The queues of the pools whose workers time out: a {@code LinkedBlockingQueue} (the cache's
     * remover, a pool of at most one worker and none kept) and a cached pool's {@code
     * SynchronousQueue} (the JDK HTTP client's).
     */
    static final List<Supplier<BlockingQueue<Runnable>>> QUEUES =
            List.of(LinkedBlockingQueue::new, SynchronousQueue::new);

    /** How long a worker here waits for work: long enough to be a wait, short enough for a warm-up. */
    private static final long KEEP_ALIVE_MICROS = 200;
    /** How long to wait for one worker to end, at most: it should take about {@link #KEEP_ALIVE_MICROS}. */
    private static final long END_WAIT_MILLIS = 1_000;

    private IdleWorkers() {}

    /**
     * For each of {@link #QUEUES}, runs up to {@code times} tasks one after another on a pool with
     * no core workers, each once the worker before has timed out and ended, so that each gets a new
     * worker that times out in turn. Stops on a queue when a worker has not ended within {@link
     * #END_WAIT_MILLIS} (a stalled machine): the next task would find no worker free.
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
        AtomicReference<Thread> last = new AtomicReference<>();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(0, 1, KEEP_ALIVE_MICROS, TimeUnit.MICROSECONDS, queue, r -> {
            Thread t = new Thread(r, "trigrep-warmup-idle");
            t.setDaemon(true);
            last.set(t);
            return t;
        });
        int ended = 0;
        try {
            for (int i = 0; i < times; i++) {
                CountDownLatch ran = new CountDownLatch(1);
                pool.execute(ran::countDown);
                ran.await();
                // The task ran, so its worker exists; it can only end by timing out.
                Thread worker = last.get();
                worker.join(END_WAIT_MILLIS);
                if (worker.isAlive()) {
                    break;
                }
                ended++;
            }
        } finally {
            pool.shutdownNow();
        }
        return ended;
    }
}
