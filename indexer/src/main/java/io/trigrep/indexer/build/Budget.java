package io.trigrep.indexer.build;

import java.io.InterruptedIOException;
import java.util.ArrayDeque;

/**
 * The buffers that hold file contents read but not yet spooled, across every reader, and the bound
 * on their bytes: readers wait here, so a fast reader cannot queue a corpus in memory ahead of the
 * workers. One request larger than the whole budget is let through when nothing else is held (a
 * single file up to the size cap).
 *
 * <p>Buffers of the standard (batch) size come back when their batch is spooled and are handed out
 * again. Allocating a fresh one per batch, grown by doubling, allocated twice the corpus in short-
 * lived arrays, and every young collection copied the batches in flight; recycled, they settle in
 * the old generation once and the collector leaves them alone.
 */
final class Budget {
    private static final byte[] NONE = new byte[0];

    private final long limit;
    private final int standard;
    /** Standard buffers given back and not yet handed out again; their bytes are not in {@link #held}. */
    private final ArrayDeque<byte[]> free = new ArrayDeque<>();

    private long held;

    /** A budget of {@code limit} bytes, recycling buffers of {@code standard} bytes. */
    Budget(long limit, int standard) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be > 0, got " + limit);
        }
        if (standard < 1) {
            throw new IllegalArgumentException("standard must be > 0, got " + standard);
        }
        this.limit = limit;
        this.standard = standard;
    }

    /** An empty buffer: what a reader holds between batches. Giving it back is a no-op. */
    static byte[] none() {
        return NONE;
    }

    /**
     * A buffer of at least {@code length} bytes: a standard one when {@code length} fits in it,
     * else one of exactly {@code length}. Waits while the bytes held would pass the limit.
     */
    byte[] take(int length) throws InterruptedIOException {
        if (length < 0) {
            throw new IllegalArgumentException("length must be >= 0, got " + length);
        }
        int size = Math.max(length, standard);
        byte[] recycled;
        synchronized (this) {
            try {
                while (held > 0 && held + size > limit) {
                    wait();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for read buffer space");
            }
            held += size;
            recycled = size == standard ? free.poll() : null;
        }
        // Allocated (and zeroed) outside the lock: other readers and the workers giving back go on.
        return recycled != null ? recycled : new byte[size];
    }

    /** Gives back a buffer from {@link #take} (or {@link #none()}): its bytes leave the budget. */
    synchronized void give(byte[] buffer) {
        if (buffer.length == 0) {
            return;
        }
        held -= buffer.length;
        assert held >= 0 : "gave back more than held: " + held;
        if (buffer.length == standard) {
            free.push(buffer);
        }
        notifyAll();
    }

    /** Bytes in buffers handed out and not given back. */
    synchronized long held() {
        return held;
    }

    /** Standard buffers waiting to be handed out again. */
    synchronized int recycled() {
        return free.size();
    }
}
