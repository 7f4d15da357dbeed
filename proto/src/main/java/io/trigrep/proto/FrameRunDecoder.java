package io.trigrep.proto;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.nio.ByteBuffer;

/**
 * Splits a byte stream into runs of complete framed messages without copying it: each socket
 * read's complete frames go on as one retained slice of that read's buffer (the receiver owns
 * it, releases it, and walks its frames with {@link Framing#frameLength}). Only a frame cut by a
 * read's end is copied, into a small carry buffer that the next read completes and that goes on
 * as a run of its own. {@link FrameDecoder} accumulates instead, which copies every read that
 * follows a cut frame: the whole stream, for a frontend receiving a gigabyte of results.
 *
 * <p>A segment table that breaks {@link FrameLimits} is answered, after the runs before it,
 * with one {@link MalformedFrame}; every byte after it is discarded unread. A stream that ends
 * inside a frame is answered with a {@link MalformedFrame} before the channel goes inactive.
 */
public final class FrameRunDecoder extends ChannelInboundHandlerAdapter {
    private final FrameLimits limits;
    private ByteBuf carry;
    private boolean failed;

    public FrameRunDecoder(FrameLimits limits) {
        this.limits = limits;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            if (failed) {
                return;
            }
            if (carry != null) {
                try {
                    if (!completeCarry(ctx, in)) {
                        return;
                    }
                } catch (MalformedMessageException e) {
                    fail(ctx, e.getMessage());
                    return;
                }
            }
            int start = in.readerIndex();
            int end = in.writerIndex();
            int at = start;
            String malformed = null;
            // One NIO view of the read for the walk: ByteBuf accessors check bounds and liveness on
            // every call, which showed in the frontend's samples at a few million frames a query.
            ByteBuffer view = end > start ? in.nioBuffer(start, end - start) : null;
            int viewBase = view == null ? 0 : view.position() - start;
            while (at < end) {
                long length;
                try {
                    length = Framing.frameLength(view, viewBase + at, end - at, limits);
                } catch (MalformedMessageException e) {
                    malformed = e.getMessage();
                    break;
                }
                if (length < 0 || length > end - at) {
                    break;
                }
                at += (int) length;
            }
            if (at > start) {
                ctx.fireChannelRead(in.retainedSlice(start, at - start));
            }
            if (malformed != null) {
                fail(ctx, malformed);
            } else if (at < end) {
                carry = ctx.alloc().buffer(Math.max(8, end - at));
                carry.writeBytes(in, at, end - at);
            }
        } finally {
            in.release();
        }
    }

    /**
     * Moves bytes of {@code in} into the carry until it holds its whole frame (never a byte of
     * the next), then passes it on; false when {@code in} ran out first: the carry waits for the
     * next read.
     */
    private boolean completeCarry(ChannelHandlerContext ctx, ByteBuf in) throws MalformedMessageException {
        while (true) {
            int held = carry.readableBytes();
            long length = Framing.frameLength(carry, carry.readerIndex(), held, limits);
            int need;
            if (length >= 0) {
                need = (int) length - held;
            } else if (held < 8) {
                need = 8 - held;
            } else {
                // the segment count is in (frameLength checked it), the rest of its table is not
                need = Framing.tableBytes((int) (carry.getUnsignedIntLE(carry.readerIndex()) + 1)) - held;
            }
            if (length >= 0 && need <= 0) {
                ByteBuf whole = carry;
                carry = null;
                ctx.fireChannelRead(whole);
                return true;
            }
            int take = Math.min(need, in.readableBytes());
            if (take == 0) {
                return false;
            }
            carry.writeBytes(in, take);
        }
    }

    private void fail(ChannelHandlerContext ctx, String reason) {
        failed = true;
        releaseCarry();
        ctx.fireChannelRead(new MalformedFrame(reason));
    }

    private void releaseCarry() {
        if (carry != null) {
            carry.release();
            carry = null;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (carry != null && !failed) {
            int partial = carry.readableBytes();
            fail(ctx, "stream ended inside a frame, " + partial + " bytes into it");
        }
        releaseCarry();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        releaseCarry();
    }
}
