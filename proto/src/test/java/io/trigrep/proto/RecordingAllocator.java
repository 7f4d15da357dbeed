package io.trigrep.proto;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An allocator of unpooled buffers that remembers each one it made, so a test can show every one
 * was released; it can also fail one allocation, as a full direct memory would.
 */
public final class RecordingAllocator extends AbstractByteBufAllocator {
    /** Every buffer made, in the order made; safe to add to from several threads. */
    public final Queue<ByteBuf> made = new ConcurrentLinkedQueue<>();

    private final AtomicLong allocations = new AtomicLong();
    private final long failAt;

    public RecordingAllocator() {
        this(Long.MAX_VALUE);
    }

    /** Allocation number {@code failAt} (from 1) throws an {@link OutOfMemoryError}. */
    public RecordingAllocator(long failAt) {
        this.failAt = failAt;
    }

    /** Allocations asked for so far, the failed one included. */
    public long allocations() {
        return allocations.get();
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        if (allocations.incrementAndGet() == failAt) {
            throw new OutOfMemoryError("allocation " + failAt + " fails, as the test asked");
        }
        ByteBuf buf = Unpooled.buffer(initialCapacity, maxCapacity);
        made.add(buf);
        return buf;
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return newHeapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    /** How many buffers made are not released yet. */
    public long unreleased() {
        return made.stream().filter(b -> b.refCnt() > 0).count();
    }
}
