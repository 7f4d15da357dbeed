package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/** Where a search's framed messages go: a Netty channel in the server, anything in a benchmark. */
public interface FrameSink {
    /** False while the peer is not keeping up: the search pauses until {@link SearchExecution#resume}. */
    boolean isWritable();

    /** Takes ownership of {@code frames}. */
    void write(ByteBuf frames);

    /** Takes ownership of {@code frames}, the last of the stream, and ends the stream once they are flushed. */
    void finish(ByteBuf frames);

    /**
     * The capacity of the buffers a search fills with batches of results, from {@link #allocator}:
     * an allocator may keep buffers of this size for the next batches.
     */
    int BATCH_CAPACITY = ResultEncoder.BATCH_BYTES + ResultEncoder.BATCH_HEADROOM;

    ByteBufAllocator allocator();
}
