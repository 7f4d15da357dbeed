package io.trigrep.frontend.store;

import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The direct buffers ({@link #BUFFER_BYTES} each) tees gather their appends in, kept across queries: the JVM zeroes a
 * new direct buffer and the kernel faults its fresh pages in one by one, a cost a selective query,
 * which tees a few kilobytes, must not pay per query.
 *
 * <p>Up to {@code retained} buffers wait here between queries; one given back beyond that is
 * freed. A buffer is allocated only when none waits, so the memory held never exceeds
 * the most the tees have held at once: the pool adds nothing to the budget of 4 buffers per query
 * slot. Buffers are aligned to {@link #ALIGNMENT}, enough for the direct writes of every file
 * system whose block size is at most that; a tee that needs more gets buffers of its own. Reused
 * buffers hold the bytes of an earlier query: a tee writes only the bytes it appended, so none
 * reaches another query's file. Each buffer is native memory of a shared arena of its own, which
 * freeing closes: released at once, and a late access throws instead of touching freed memory.
 * Thread-safe.
 */
public final class TeeBuffers {
    static final int BUFFER_BYTES = 1 << 20;
    static final int ALIGNMENT = 4096;

    /** A buffer: {@code aligned}, exactly {@link #BUFFER_BYTES}, and the arena whose closing frees it. */
    record Buffer(Arena arena, ByteBuffer aligned) {}

    /** Bytes of tee buffers allocated and not yet freed in this JVM, pooled or in use. */
    private static final AtomicLong ALLOCATED = new AtomicLong();

    private final int retained;
    private final ArrayDeque<Buffer> spare = new ArrayDeque<>();

    /** Keeps up to {@code retained} buffers between queries; 0 frees every buffer given back. */
    public TeeBuffers(int retained) {
        if (retained < 0) {
            throw new IllegalArgumentException("retained must be at least 0, got " + retained);
        }
        this.retained = retained;
    }

    /** A buffer whose address is a multiple of {@code block} (a power of two), position 0, limit and capacity {@link #BUFFER_BYTES}. */
    Buffer take(int block) {
        if (block <= ALIGNMENT) {
            synchronized (this) {
                Buffer b = spare.poll();
                if (b != null) {
                    b.aligned().clear();
                    return b;
                }
            }
            return allocate(ALIGNMENT);
        }
        return allocate(block);
    }

    /** Takes {@code b} back: kept for the next query when it fits and room is left, else freed. */
    void give(Buffer b) {
        if (isPoolable(b)) {
            synchronized (this) {
                if (spare.size() < retained) {
                    spare.push(b);
                    return;
                }
            }
        }
        free(b);
    }

    /** Bytes of tee buffers allocated and not yet freed in this JVM, by every pool. */
    public static long allocatedBytes() {
        return ALLOCATED.get();
    }

    /** Buffers waiting now. */
    synchronized int waiting() {
        return spare.size();
    }

    /** Frees every waiting buffer; the pool stays usable. */
    public void clear() {
        while (true) {
            Buffer b;
            synchronized (this) {
                b = spare.poll();
            }
            if (b == null) {
                return;
            }
            free(b);
        }
    }

    private static boolean isPoolable(Buffer b) {
        return b.aligned().alignmentOffset(0, ALIGNMENT) == 0;
    }

    private static Buffer allocate(int block) {
        Arena arena = Arena.ofShared();
        Buffer b = new Buffer(arena, arena.allocate(BUFFER_BYTES, block).asByteBuffer());
        ALLOCATED.addAndGet(BUFFER_BYTES);
        return b;
    }

    private static void free(Buffer b) {
        b.arena().close();
        ALLOCATED.addAndGet(-BUFFER_BYTES);
    }
}
