package io.trigrep.proto;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/** An allocator of unpooled buffers that remembers each one it made, so a test can show every one was released. */
public final class RecordingAllocator extends AbstractByteBufAllocator {
    /** Every buffer made, in the order made; safe to add to from several threads. */
    public final Queue<ByteBuf> made = new ConcurrentLinkedQueue<>();

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
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
