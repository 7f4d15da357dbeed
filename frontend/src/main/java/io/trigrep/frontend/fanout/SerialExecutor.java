package io.trigrep.frontend.fanout;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;

/**
 * Runs tasks one at a time, in order, on a shared pool: a query's single writer without a thread
 * of its own. It runs at most {@link #TURN} tasks in a row, then queues itself again behind the
 * pool's other work: a query whose backends stream without pause (millions of results) would
 * otherwise keep a pool thread for as long as it runs, and with two threads and two such queries
 * a selective query's few results would wait for one of them to end. Once its tasks have taken
 * {@link #QUANTUM_NANOS} in all, its turns go to the heavy pool instead, whose threads run at a
 * lower OS priority ({@link io.trigrep.proto.sched.BackgroundPriority}): a selective query's
 * turn then neither waits for a heavy query's turn to end nor shares a core with it.
 */
final class SerialExecutor implements Executor {
    /** Tasks (each one read's frames) run in a row before the pool's other queries get a turn. */
    static final int TURN = 4;

    /** Time in tasks after which the turns go to the heavy pool: the backends' quantum, far above a selective query's ingest. */
    static final long QUANTUM_NANOS = 50_000_000;

    private final Executor pool;
    private final Executor heavy;
    private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
    private boolean running;
    /** Time spent in tasks so far; written by the one turn running at a time, under the lock. */
    private long ranNanos;

    SerialExecutor(Executor pool, Executor heavy) {
        this.pool = pool;
        this.heavy = heavy;
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
        next().execute(this::turn);
    }

    /** The pool for the next turn: the heavy one once the tasks have had their quantum. */
    private Executor next() {
        synchronized (tasks) {
            return ranNanos > QUANTUM_NANOS ? heavy : pool;
        }
    }

    private void turn() {
        long started = System.nanoTime();
        try {
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
        } finally {
            long took = System.nanoTime() - started;
            synchronized (tasks) {
                ranNanos += took;
            }
        }
        // Still running: tasks queued meanwhile wait for this next turn, not for a second drain.
        next().execute(this::turn);
    }
}
