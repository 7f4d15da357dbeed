package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import java.util.function.Consumer;

/** What a test's {@link FrameSink} was given: each framed response of a batch, read in turn. */
final class SinkFrames {
    private SinkFrames() {}

    /** Hands each response in {@code frames} to {@code each}, then releases {@code frames}, which the sink owned. */
    static void read(ByteBuf frames, Consumer<Response.Reader> each) {
        try {
            int at = frames.readerIndex();
            while (at < frames.writerIndex()) {
                int length = (int) Framing.frameLength(frames, at, frames.writerIndex() - at, FrameLimits.DEFAULT);
                each.accept(Messages.response(Framing.read(frames.slice(at, length), FrameLimits.DEFAULT)));
                at += length;
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            frames.release();
        }
    }
}
