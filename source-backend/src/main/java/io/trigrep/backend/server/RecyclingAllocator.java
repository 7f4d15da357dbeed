package io.trigrep.backend.server;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledUnsafeDirectByteBuf;
import java.nio.ByteBuffer;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.atomic.LongAdder;

/**
 * The allocator of a backend's connections: {@code pooled} (Netty's pooled allocator), except for
 * direct buffers of exactly {@code capacity} bytes, the buffers searches fill with batches of
 * results, of which up to {@code kept} are made once and used again for good.
 *
 * <p>From the pooled allocator, those buffers came from 4 MiB chunks that it gives back to the
 * system once they empty after being a quarter full: each result-heavy query that followed a
 * quiet spell took new chunks, whose pages the search threads then faulted in (on this
 * project's VM, about 2,000 minor faults, 8 MiB, in a backend's search threads in some
 * case-blind Linux {@code (?i)copyright} queries and none in others, and 40 to 50 ms more of
 * their CPU in those). Kept buffers keep their pages. Beyond {@code kept} at once (many
 * result-heavy queries together), batches come from the pooled allocator as before.
 *
 * <p>All {@code kept} are made at once, when the allocator is: made as batches first needed
 * them, the first user's result-heavy query after ready, which held more batches at once than
 * any warm-up search, was the first to make one after its code had been compiled, and that
 * compiled code was thrown away there ({@code -XX:+LogCompilation}: a {@code null_check} trap
 * when the free list came back empty) and compiled again during the query.
 */
final class RecyclingAllocator extends AbstractByteBufAllocator {
    /**
     * Whether Netty writes direct buffers through their address, as its pooled ones are written
     * here. Without (never on the JDKs this project runs on), every batch is the pooled allocator's.
     */
    private static final boolean UNSAFE = probeUnsafe();

    private final ByteBufAllocator pooled;
    private final int capacity;
    /** The kept buffers, made at once: {@code kept}, or fewer when direct memory ran short. */
    private final int made;
    /** Given back last, taken first: its pages were touched last, so they are the likeliest to be in the caches. */
    private final LinkedBlockingDeque<ByteBuffer> free;

    private final LongAdder lent = new LongAdder();

    RecyclingAllocator(ByteBufAllocator pooled, int capacity, int kept) {
        super(true);
        if (capacity < 1 || kept < 1) {
            throw new IllegalArgumentException("capacity and kept must be >= 1, got " + capacity + " and " + kept);
        }
        this.pooled = pooled;
        this.capacity = capacity;
        this.free = new LinkedBlockingDeque<>(kept);
        int n = 0;
        try {
            for (; UNSAFE && n < kept; n++) {
                free.addFirst(ByteBuffer.allocateDirect(capacity));
            }
        } catch (OutOfMemoryError e) {
            // Direct memory is short (-XX:MaxDirectMemorySize): fewer kept, the pool serves the rest.
        }
        this.made = n;
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        ByteBuffer memory = initialCapacity == capacity ? free.pollFirst() : null;
        if (memory == null) {
            return pooled.directBuffer(initialCapacity, maxCapacity);
        }
        lent.increment();
        return toLeakAwareBuffer(new Kept(this, memory, maxCapacity));
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return pooled.heapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return true;
    }

    /** Kept buffers: {@code kept}, or fewer when direct memory ran short; those not in use wait for the next batch. */
    int made() {
        return made;
    }

    /** Batches written in kept buffers so far. */
    long lent() {
        return lent.sum();
    }

    /** Kept buffers not in use now. */
    int free() {
        return free.size();
    }

    /**
     * Takes back a kept buffer's memory once its last reference is released. A batch that grew
     * past {@code capacity} wrote on in new memory, which Netty frees; the kept memory was left
     * as it was, and is taken back all the same.
     */
    private void giveBack(ByteBuffer memory) {
        memory.clear();
        if (!free.offerFirst(memory)) {
            throw new IllegalStateException("more kept buffers given back than made: " + made);
        }
    }

    private static boolean probeUnsafe() {
        ByteBuf probe = io.netty.buffer.Unpooled.directBuffer(1);
        try {
            return probe.hasMemoryAddress();
        } finally {
            probe.release();
        }
    }

    /** A batch in kept memory, written through its address as Netty's pooled direct buffers are. */
    private static final class Kept extends UnpooledUnsafeDirectByteBuf {
        private final RecyclingAllocator owner;
        private final ByteBuffer memory;

        Kept(RecyclingAllocator owner, ByteBuffer memory, int maxCapacity) {
            super(owner, memory, maxCapacity);
            this.owner = owner;
            this.memory = memory;
            clear(); // wrapped memory starts out readable: a new batch is empty
        }

        @Override
        protected void deallocate() {
            super.deallocate(); // frees only memory a growth allocated: the kept memory is not Netty's to free
            owner.giveBack(memory);
        }
    }
}
