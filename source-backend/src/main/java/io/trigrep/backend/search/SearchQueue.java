package io.trigrep.backend.search;

import java.util.AbstractQueue;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The search pool's queue: which query's chunk runs next. A search queues one task per chunk, so
 * a plain FIFO queue interleaves every running query chunk by chunk, and under load each query
 * takes as long as all of them together.
 *
 * <p>Oldest query first instead, so selective queries finish in the order they came, each in
 * about its own time once its turn comes. This is the foreground pool's queue ({@link SearchPool}):
 * a query past its quantum (a full scan, a query matching everywhere) is no longer in it, but in
 * the background pool's, where such queries take turns chunk by chunk on threads of their own.
 * Other tasks (a file fetch) count as work that arrived when queued.
 *
 * <p>Bounded: {@link #offer} refuses past {@code capacity}, as the pool's executor expects.
 */
public final class SearchQueue extends AbstractQueue<Runnable> implements BlockingQueue<Runnable> {
    /** A search's chunk, placed by when its query arrived and whether it has had its quantum ({@link SearchPool}). */
    record Task(long arrival, boolean background, Runnable chunk) implements Runnable {
        @Override
        public void run() {
            chunk.run();
        }
    }

    /** A foreground entry: its query's arrival, then the order it was queued in. */
    private record Queued(long arrival, long sequence, Runnable task) {}

    private static final AtomicLong ARRIVALS = new AtomicLong();

    private final int capacity;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final PriorityQueue<Queued> foreground =
            new PriorityQueue<>(Comparator.comparingLong(Queued::arrival).thenComparingLong(Queued::sequence));
    private long sequence;

    public SearchQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, got " + capacity);
        }
        this.capacity = capacity;
    }

    /** A new query's place in the foreground order: later than every query before it. */
    static long arrival() {
        return ARRIVALS.incrementAndGet();
    }

    @Override
    public boolean offer(Runnable task) {
        if (task == null) {
            throw new NullPointerException("task");
        }
        lock.lock();
        try {
            if (size() >= capacity) {
                return false;
            }
            long arrival = task instanceof Task t ? t.arrival() : arrival();
            foreground.add(new Queued(arrival, sequence++, task));
            notEmpty.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean offer(Runnable task, long timeout, TimeUnit unit) {
        return offer(task);
    }

    @Override
    public void put(Runnable task) {
        if (!offer(task)) {
            throw new IllegalStateException("the search queue is full (" + capacity + " tasks)");
        }
    }

    @Override
    public Runnable poll() {
        lock.lock();
        try {
            return next();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            Runnable task;
            while ((task = next()) == null) {
                notEmpty.await();
            }
            return task;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Runnable poll(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            Runnable task;
            while ((task = next()) == null) {
                if (nanos <= 0) {
                    return null;
                }
                nanos = notEmpty.awaitNanos(nanos);
            }
            return task;
        } finally {
            lock.unlock();
        }
    }

    /** The next task by arrival, or null; the lock is held. */
    private Runnable next() {
        Queued q = foreground.poll();
        return q == null ? null : q.task();
    }

    @Override
    public Runnable peek() {
        lock.lock();
        try {
            Queued q = foreground.peek();
            return q == null ? null : q.task();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        lock.lock();
        try {
            return foreground.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int remainingCapacity() {
        return capacity - size();
    }

    @Override
    public boolean remove(Object o) {
        lock.lock();
        try {
            return foreground.removeIf(q -> q.task() == o);
        } finally {
            lock.unlock();
        }
    }

    /** A snapshot: the executor only iterates to purge cancelled futures or to report. */
    @Override
    public Iterator<Runnable> iterator() {
        return snapshot().iterator();
    }

    private List<Runnable> snapshot() {
        lock.lock();
        try {
            List<Runnable> all = new ArrayList<>(size());
            for (Queued q : foreground) {
                all.add(q.task());
            }
            return all;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int drainTo(Collection<? super Runnable> into) {
        return drainTo(into, Integer.MAX_VALUE);
    }

    @Override
    public int drainTo(Collection<? super Runnable> into, int max) {
        lock.lock();
        try {
            int n = 0;
            Runnable task;
            while (n < max && (task = next()) != null) {
                into.add(task);
                n++;
            }
            return n;
        } finally {
            lock.unlock();
        }
    }
}
