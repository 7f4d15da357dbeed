package io.trigrep.frontend.fanout;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.trigrep.proto.MalformedFrame;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One backend's stream for one query. Reads only on demand (auto-read is off): the frames of one
 * socket read go to the query's writer thread as one batch (one task, not one per ~100-byte
 * frame), and the next read is asked for only while fewer than {@link #MAX_PENDING_BYTES} wait
 * to be teed, so a slow disk slows the backend, not the heap.
 */
final class StreamHandler extends ChannelInboundHandlerAdapter {
    static final int MAX_PENDING_BYTES = 1 << 20;

    private final QueryRun run;
    private final int shard;
    private final org.capnproto.MessageBuilder request;
    private final AtomicInteger pending = new AtomicInteger();
    /** Frames read since the last hand-off; event loop only. */
    private java.util.List<ByteBuf> batch = new java.util.ArrayList<>();
    private int batchBytes;
    private final java.util.concurrent.atomic.AtomicBoolean readWanted = new java.util.concurrent.atomic.AtomicBoolean();
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
            handOff();
            run.fail(shard, "malformed stream: " + bad.reason());
            ctx.close();
            return;
        }
        ByteBuf frame = (ByteBuf) msg;
        batch.add(frame);
        batchBytes += frame.readableBytes();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        handOff();
        if (pending.get() < MAX_PENDING_BYTES) {
            ctx.read();
            return;
        }
        // Ask the writer to resume reading; if it drained the backlog between the check above and
        // this flag, nobody else will: then resume here, once (whoever clears the flag reads).
        readWanted.set(true);
        if (pending.get() < MAX_PENDING_BYTES / 2 && readWanted.compareAndSet(true, false)) {
            ctx.read();
        }
    }

    /** Gives the frames read so far to the writer, in order; keeps failures and closes after them. */
    private void handOff() {
        if (batch.isEmpty()) {
            return;
        }
        java.util.List<ByteBuf> frames = batch;
        batch = new java.util.ArrayList<>(frames.size());
        pending.addAndGet(batchBytes);
        run.ingest(shard, frames, batchBytes, this);
        batchBytes = 0;
    }

    /** Called by the writer thread after each batch: reading resumes once the backlog is small. */
    void written(int bytes) {
        if (pending.addAndGet(-bytes) < MAX_PENDING_BYTES / 2 && readWanted.compareAndSet(true, false)) {
            ctx.channel().eventLoop().execute(ctx::read);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        handOff();
        run.closed(shard);
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        handOff();
        run.fail(shard, cause.getMessage() == null ? cause.toString() : cause.getMessage());
        ctx.close();
    }
}
