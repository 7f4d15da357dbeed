package io.trigrep.frontend.fanout;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * Joins what one socket read decrypts into one buffer, passed on when the read completes. The
 * JDK's TLS engine opens one record (16 KiB) at a time and SslHandler hands each on by itself:
 * without this the frame-run decoder would cut every record's last frame into a carry, and the
 * query's writer would get two tasks and two tee writes per 16 KiB instead of one per read.
 * Costs one copy of the decrypted bytes; owns {@code batch} until it passes it on.
 */
final class ReadBatcher extends ChannelInboundHandlerAdapter {
    private ByteBuf batch;
    /** Whether {@code batch} is a buffer of this handler's, sized for a whole read, rather than the first record's. */
    private boolean sized;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf in)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (batch == null) {
            batch = in; // a read of one record passes on without a copy
            sized = false;
            return;
        }
        try {
            if (!sized) {
                ByteBuf whole = ctx.alloc()
                        .buffer(Math.max(
                                batch.readableBytes() + in.readableBytes(), FanOut.MAX_READ_BYTES + (32 << 10)));
                whole.writeBytes(batch);
                batch.release();
                batch = whole;
                sized = true;
            }
            batch.writeBytes(in);
        } finally {
            in.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        passOn(ctx);
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        passOn(ctx);
        ctx.fireChannelInactive();
    }

    private void passOn(ChannelHandlerContext ctx) {
        if (batch != null) {
            ByteBuf out = batch;
            batch = null;
            ctx.fireChannelRead(out);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (batch != null) {
            batch.release();
            batch = null;
        }
    }
}
