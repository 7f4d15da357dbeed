package io.trigrep.proto;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;

/**
 * Splits a byte stream into framed Cap'n Proto messages. Emits each complete frame as a retained
 * {@link ByteBuf} slice (the receiver owns and releases it), never a partial one; a
 * {@link #batching batching} decoder instead emits all the complete frames at hand as one slice
 * (the receiver walks them with {@link Framing#frameLength}), which saves a buffer and a
 * pipeline event per frame where frames are small and many. A segment table that breaks
 * {@link FrameLimits} is answered with one {@link MalformedFrame} (after the complete frames
 * before it) instead of an exception; every byte after it is discarded unread, since the stream
 * cannot be re-synchronised.
 */
public final class FrameDecoder extends ByteToMessageDecoder {
    private final FrameLimits limits;
    private final boolean batching;
    private boolean failed;

    public FrameDecoder(FrameLimits limits) {
        this(limits, false);
    }

    private FrameDecoder(FrameLimits limits, boolean batching) {
        this.limits = limits;
        this.batching = batching;
    }

    /** A decoder that emits every run of complete frames as one slice. */
    public static FrameDecoder batching(FrameLimits limits) {
        return new FrameDecoder(limits, true);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        int start = in.readerIndex();
        int end = in.writerIndex();
        int at = start;
        MalformedMessageException malformed = null;
        do {
            long length;
            try {
                length = Framing.frameLength(in, at, end - at, limits);
            } catch (MalformedMessageException e) {
                malformed = e;
                break;
            }
            if (length < 0 || end - at < length) {
                break;
            }
            at += (int) length;
        } while (batching);
        if (at > start) {
            out.add(in.readRetainedSlice(at - start));
        }
        if (malformed != null) {
            failed = true;
            in.skipBytes(in.readableBytes());
            out.add(new MalformedFrame(malformed.getMessage()));
        }
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
