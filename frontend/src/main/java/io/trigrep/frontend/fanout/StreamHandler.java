package io.trigrep.frontend.fanout;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.trigrep.proto.MalformedFrame;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One backend's stream for one query. Reads only on demand (auto-read is off): frames go to the
 * query's writer thread, and the next read is asked for only while fewer than
 * {@link #MAX_PENDING} frames wait to be teed, so a slow disk slows the backend, not the heap.
 */
final class StreamHandler extends ChannelInboundHandlerAdapter {
    static final int MAX_PENDING = 256;

    private final QueryRun run;
    private final int shard;
    private final org.capnproto.MessageBuilder request;
    private final AtomicInteger pending = new AtomicInteger();
    private volatile boolean readWanted;
    private ChannelHandlerContext ctx;

    StreamHandler(QueryRun run, int shard, org.capnproto.MessageBuilder request) {
        this.run = run;
        this.shard = shard;
        this.request = request;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        run.attach(shard, ctx.channel());
        ByteBuf frame = ctx.alloc().buffer(io.trigrep.proto.Framing.frameBytes(request));
        io.trigrep.proto.Framing.write(request, frame);
        ctx.writeAndFlush(frame);
        ctx.read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof MalformedFrame bad) {
            run.fail(shard, "malformed stream: " + bad.reason());
            ctx.close();
            return;
        }
        pending.incrementAndGet();
        run.ingest(shard, (ByteBuf) msg, this);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (pending.get() < MAX_PENDING) {
            ctx.read();
        } else {
            readWanted = true;
        }
    }

    /** Called by the writer thread after each frame: reading resumes once the backlog is small. */
    void written() {
        if (pending.decrementAndGet() < MAX_PENDING / 2 && readWanted) {
            readWanted = false;
            ctx.channel().eventLoop().execute(ctx::read);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        run.closed(shard);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        run.fail(shard, cause.getMessage() == null ? cause.toString() : cause.getMessage());
        ctx.close();
    }
}
