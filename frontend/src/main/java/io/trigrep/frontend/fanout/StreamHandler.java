package io.trigrep.frontend.fanout;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.trigrep.proto.MalformedFrame;
import io.trigrep.proto.Tls;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One backend's stream for one query. Reads only on demand (auto-read is off): the complete
 * frames of one socket read arrive as one slice ({@link io.trigrep.proto.FrameRunDecoder})
 * and go to the query's writer thread as one task, and the next read is asked for only while
 * fewer than {@link #MAX_PENDING_BYTES} wait to be teed, so a slow disk slows the backend, not
 * the heap.
 */
final class StreamHandler extends ChannelInboundHandlerAdapter {
    /** Four of the largest reads ({@link FanOut#MAX_READ_BYTES}) per backend. */
    static final int MAX_PENDING_BYTES = 4 * FanOut.MAX_READ_BYTES;

    private final QueryRun run;
    private final int shard;
    private final org.capnproto.MessageBuilder request;
    private final AtomicInteger pending = new AtomicInteger();
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
            run.fail(shard, ShardStatus.Outcome.MALFORMED, "malformed stream: " + bad.reason());
            ctx.close();
            return;
        }
        ByteBuf frames = (ByteBuf) msg;
        int bytes = frames.readableBytes();
        pending.addAndGet(bytes);
        run.ingest(shard, frames, bytes, this);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
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

    /** Called by the writer thread after each batch: reading resumes once the backlog is small. */
    void written(int bytes) {
        if (pending.addAndGet(-bytes) < MAX_PENDING_BYTES / 2 && readWanted.compareAndSet(true, false)) {
            ctx.channel().eventLoop().execute(ctx::read);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        run.closed(shard);
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        // Comes before the close that follows a refused handshake, so the shard fails for the right reason.
        if (event instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            run.fail(shard, ShardStatus.Outcome.TLS, Tls.handshakeFailure(done.cause()));
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Under TLS 1.3 a backend refuses a client certificate after the client's handshake ended: an alert on read.
        String tls = Tls.reason(cause);
        if (tls != null) {
            run.fail(shard, ShardStatus.Outcome.TLS, tls);
        } else {
            run.fail(shard, ShardStatus.Outcome.ERROR, cause.getMessage() == null ? cause.toString() : cause.getMessage());
        }
        ctx.close();
    }
}
