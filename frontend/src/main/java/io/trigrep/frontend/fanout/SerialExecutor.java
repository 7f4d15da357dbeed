package io.trigrep.frontend.fanout;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Runs tasks one at a time, in order, on a shared pool: a query's single writer without a thread
 * of its own. It runs at most {@link #TURN} tasks in a row, then queues itself again behind the
 * pool's other work: a query whose backends stream without pause (millions of results) would
 * otherwise keep a pool thread for as long as it runs, and with two threads and two such queries
 * a selective query's few results would wait for one of them to end.
 */
final class SerialExecutor implements Executor {
    /** Tasks (each one read's frames) run in a row before the pool's other queries get a turn. */
    static final int TURN = 4;

    private final Executor pool;
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private boolean running;

    SerialExecutor(Executor pool) {
        this.pool = pool;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (tasks) {
            tasks.add(task);
            if (running) {
                return;
            }
            running = true;
        }
        pool.execute(this::drain);
    }

    private void drain() {
        for (int ran = 0; ran < TURN; ran++) {
            Runnable task;
            synchronized (tasks) {
                task = tasks.poll();
                if (task == null) {
                    running = false;
                    return;
                }
            }
            task.run();
        }
        // Still running: tasks queued meanwhile wait for this next turn, not for a second drain.
        pool.execute(this::drain);
    }
}
