package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;

/** Where a search's framed messages go: a Netty channel in the server, anything in a benchmark. */
public interface FrameSink {
    /** False while the peer is not keeping up: the search pauses until {@link SearchExecution#resume}. */
    boolean isWritable();

    /** Takes ownership of {@code frames}. */
    void write(ByteBuf frames);

    /** Takes ownership of {@code frames}, the last of the stream, and ends the stream once they are flushed. */
    void finish(ByteBuf frames);

    io.netty.buffer.ByteBufAllocator allocator();
}
