package io.trigrep.indexer.build;

import java.io.InterruptedIOException;

/**
 * Bytes of file contents read but not yet spooled, across every reader: readers wait here, so a
 * fast reader cannot queue a corpus in memory ahead of the workers. One request larger than the
 * whole budget is let through when nothing else is held (a single file up to the size cap).
 */
final class Budget {
    private final long limit;
    private long held;

    Budget(long limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be > 0, got " + limit);
        }
        this.limit = limit;
    }

    synchronized boolean tryAcquire(long bytes) {
        if (held > 0 && held + bytes > limit) {
            return false;
        }
        held += bytes;
        return true;
    }

    synchronized void acquire(long bytes) throws InterruptedIOException {
        try {
            while (held > 0 && held + bytes > limit) {
                wait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for read buffer space");
        }
        held += bytes;
    }

    synchronized void release(long bytes) {
        held -= bytes;
        assert held >= 0 : "released more than held: " + held;
        notifyAll();
    }
}
