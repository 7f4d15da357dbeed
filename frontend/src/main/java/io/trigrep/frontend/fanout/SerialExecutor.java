package io.trigrep.frontend.fanout;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/** Runs tasks one at a time, in order, on a shared pool: a query's single writer without a thread of its own. */
final class SerialExecutor implements Executor {
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
        while (true) {
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
    }
}
