package io.trigrep.proto;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Splits a byte stream into framed Cap'n Proto messages. Emits each complete frame as a retained
 * {@link ByteBuf} slice (the receiver owns and releases it), never a partial one. A segment table
 * that breaks {@link FrameLimits} is answered with one {@link MalformedFrame} instead of an
 * exception; every byte after it is discarded unread, since the stream cannot be re-synchronised.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private final FrameLimits limits;
    private boolean failed;

    public FrameDecoder(FrameLimits limits) {
        this.limits = limits;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        long length;
        try {
            length = Framing.frameLength(in, in.readerIndex(), in.readableBytes(), limits);
        } catch (MalformedMessageException e) {
            failed = true;
            in.skipBytes(in.readableBytes());
            out.add(new MalformedFrame(e.getMessage()));
            return;
        }
        if (length < 0 || in.readableBytes() < length) {
            return;
        }
        out.add(in.readRetainedSlice((int) length));
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        decode(ctx, in, out);
        if (!failed && in.isReadable()) {
            int partial = in.readableBytes();
            in.skipBytes(partial);
            failed = true;
            out.add(new MalformedFrame("stream ended inside a frame, " + partial + " bytes into it"));
        }
    }
}
