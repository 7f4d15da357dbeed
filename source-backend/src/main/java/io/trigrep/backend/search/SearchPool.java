package io.trigrep.backend.search;

import io.trigrep.proto.sched.BackgroundPriority;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where a backend's search chunks and file fetches run: two pools of {@code threads} each. The
 * foreground pool takes every query's first chunks, oldest query first ({@link SearchQueue}), and
 * every other task. A query past its {@link SearchExecution} quantum (a full scan, a query matching
 * everywhere) sends its next chunks to the background pool instead, whose threads run at the lowest
 * Java priority, which the launcher makes a higher nice value ({@link BackgroundPriority}); there
 * such queries take turns chunk by chunk, in the order their chunks were queued.
 *
 * <p>Why two pools and not one queue with two classes (as before): with one pool, a selective
 * query's first chunk waited for a thread, and every thread could be in a heavy chunk; lowering a
 * pool thread's priority for a heavy chunk only made that chunk, and so the wait, longer. Now a
 * selective query never waits for a heavy chunk to end, and once running it gets a core first.
 * Heavy queries still progress under any load: their threads are lowered, not stopped (a thread at
 * nice 10 weighs about a tenth of one at nice 0), and they take every core nobody else wants
 * (bench/heavy_and_selective.py measures selective queries beside heavy ones).
 */
public final class SearchPool implements Executor {
    private final ThreadPoolExecutor foreground;
    private final ThreadPoolExecutor background;

    /**
     * @param threads threads in each pool
     * @param capacity tasks each pool may queue (each running query queues at most {@code threads})
     */
    public SearchPool(int threads, int capacity) {
        AtomicInteger ids = new AtomicInteger();
        this.foreground =
                new ThreadPoolExecutor(threads, threads, 0, TimeUnit.SECONDS, new SearchQueue(capacity), r -> {
                    Thread t = new Thread(r, "trigrep-search-" + ids.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        AtomicInteger backgroundIds = new AtomicInteger();
        this.background = new ThreadPoolExecutor(
                threads,
                threads,
                0,
                TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(capacity),
                r -> BackgroundPriority.thread(r, "trigrep-search-bg-" + backgroundIds.incrementAndGet()));
    }

    /** Runs a background {@link SearchQueue.Task} on the background pool, anything else on the foreground pool. */
    @Override
    public void execute(Runnable task) {
        if (task instanceof SearchQueue.Task t && t.background()) {
            background.execute(task);
        } else {
            foreground.execute(task);
        }
    }

    /** Stops both pools, interrupting their running tasks. */
    public void shutdownNow() {
        foreground.shutdownNow();
        background.shutdownNow();
    }
}
