package io.trigrep.frontend.fanout;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.MalformedFrame;
import io.trigrep.proto.MalformedMessageException;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import io.trigrep.proto.Tls;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.capnproto.MessageBuilder;

/**
 * One connection to a backend, answering one query at a time ({@link #begin}); between queries
 * it waits in its {@link BackendConnections}. Reads only on demand (auto-read is off): the
 * complete frames of one socket read arrive as one slice ({@link io.trigrep.proto.FrameRunDecoder})
 * and go to the query's writer thread as one task, and the next read is asked for only while
 * fewer than {@link #MAX_PENDING_BYTES} wait to be teed, so a slow disk slows the backend, not
 * the heap. Everything but {@link Stream#written}, {@link Stream#stop} and {@link Stream#answered}
 * runs on the channel's event loop.
 */
final class StreamHandler extends ChannelInboundHandlerAdapter {
    /** Four of the largest reads ({@link FanOut#MAX_READ_BYTES}) per backend. */
    static final int MAX_PENDING_BYTES = 4 * FanOut.MAX_READ_BYTES;

    private final BackendConnections connections;
    private ChannelHandlerContext ctx;
    /** The query being answered, or null while the connection is idle. */
    private Stream current;

    private long idleSinceNanos;
    /** A ping was sent on this idle connection ({@link #ping}) and not answered yet. */
    private boolean pinging;
    /** Pings sent on this connection: a ping's timeout is its own. */
    private long pingsSent;

    StreamHandler(BackendConnections connections) {
        this.connections = connections;
    }

    /**
     * One query's answer on this connection, as its {@link QueryRun} sees it. A stream outlives
     * its turn on the connection only as a stale reference: what it is told then touches nothing.
     */
    final class Stream {
        private final QueryRun run;
        private final Attempt attempt;
        private final MessageBuilder request;
        /** Whether the connection served an earlier query: if it dies before a byte of this answer, ask again on a new one. */
        private final boolean reused;

        private final AtomicInteger pending = new AtomicInteger();
        private final AtomicBoolean readWanted = new AtomicBoolean();
        private boolean received;

        private Stream(QueryRun run, Attempt attempt, MessageBuilder request, boolean reused) {
            this.run = run;
            this.attempt = attempt;
            this.request = request;
            this.reused = reused;
        }

        /** Called by the writer thread after each batch: reading resumes once the backlog is small. */
        void written(int bytes) {
            if (pending.addAndGet(-bytes) < MAX_PENDING_BYTES / 2 && readWanted.compareAndSet(true, false)) {
                ctx.channel().eventLoop().execute(() -> {
                    if (current == this) {
                        ctx.read();
                    }
                });
            }
        }

        /** The query no longer wants this answer (failed, cancelled, capped): the backend sees the connection go and stops. */
        @SuppressWarnings(
                "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
        void stop() {
            ctx.channel().close();
        }

        /**
         * The backend's last message of this answer was recorded: the connection may serve another
         * query. Given back at once, before the run completes, so that the next query of a client
         * finds it; the event loop forgets this stream before any later query's {@link #begin},
         * which is queued after it.
         */
        void answered() {
            ctx.channel().eventLoop().execute(() -> {
                if (current == this) {
                    current = null;
                }
            });
            connections.giveBack(StreamHandler.this);
        }
    }

    Channel channel() {
        return ctx.channel();
    }

    long idleSince() {
        return idleSinceNanos;
    }

    void idleSince(long nanos) {
        idleSinceNanos = nanos;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    /** Sends {@code attempt}'s request of {@code run} on this connection. On the event loop. */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    void begin(QueryRun run, Attempt attempt, MessageBuilder request, boolean reused) {
        assert ctx.executor().inEventLoop();
        if (!ctx.channel().isActive()) {
            // Closed between being handed out and this task: its close was seen with no query on
            // it, so nothing else would tell the run. A kept connection is asked again anew.
            if (reused) {
                connections.askOnNew(run, attempt, request);
            } else {
                run.closed(attempt);
            }
            return;
        }
        Stream stream = new Stream(run, attempt, request, reused);
        current = stream;
        run.attach(attempt, stream);
        ByteBuf frame = ctx.alloc().buffer(Framing.frameBytes(request));
        Framing.write(request, frame);
        ctx.writeAndFlush(frame);
        ctx.read();
    }

    /**
     * Pings the backend on this idle connection, which {@link BackendConnections} took out of its
     * idle ones: the backend's status answer gives it back, and a connection not answered within
     * {@code timeoutMillis} is closed. On the event loop.
     */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    void ping(long timeoutMillis) {
        assert ctx.executor().inEventLoop();
        if (!ctx.channel().isActive() || current != null) {
            return; // closed meanwhile (and forgotten), or never idle: nothing to keep
        }
        MessageBuilder ping = Messages.ping();
        ByteBuf frame = ctx.alloc().buffer(Framing.frameBytes(ping));
        Framing.write(ping, frame);
        pinging = true;
        long sent = ++pingsSent;
        ctx.writeAndFlush(frame);
        ctx.executor()
                .schedule(
                        () -> {
                            // This ping, not a later one sent after this one was answered.
                            if (pinging && pingsSent == sent) {
                                ctx.close();
                            }
                        },
                        timeoutMillis,
                        TimeUnit.MILLISECONDS);
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Stream stream = current;
        if (stream == null) {
            boolean answer = pinging && msg instanceof ByteBuf run && isStatus(run);
            if (msg instanceof ByteBuf run) {
                run.release();
            }
            if (answer) {
                pinging = false;
                connections.pinged(this);
                return;
            }
            // Nothing was asked: a backend that speaks out of turn is not trusted with the next query.
            ctx.close();
            return;
        }
        stream.received = true;
        long now = System.nanoTime();
        if (stream.attempt.heard(now)) {
            stream.run.firstFrame(stream.attempt, now);
        }
        if (msg instanceof MalformedFrame bad) {
            stream.run.fail(stream.attempt, ShardStatus.Outcome.MALFORMED, "malformed stream: " + bad.reason());
            ctx.close();
            return;
        }
        ByteBuf frames = (ByteBuf) msg;
        int bytes = frames.readableBytes();
        stream.pending.addAndGet(bytes);
        stream.run.ingest(stream.attempt, frames, bytes, stream::written);
    }

    /** Whether {@code run} is one whole frame holding a status: a ping's answer, and nothing after it. */
    private static boolean isStatus(ByteBuf run) {
        ByteBuffer view = run.nioBuffer(run.readerIndex(), run.readableBytes());
        try {
            return Framing.frameLength(view, FrameLimits.DEFAULT) == run.readableBytes()
                    && Messages.peekResponse(view) == Response.Which.STATUS;
        } catch (MalformedMessageException e) {
            return false;
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        Stream stream = current;
        if (stream == null || stream.pending.get() < MAX_PENDING_BYTES) {
            ctx.read(); // idle, a read stays asked for: a connection the backend closes is noticed at once
            return;
        }
        // Ask the writer to resume reading; if it drained the backlog between the check above and
        // this flag, nobody else will: then resume here, once (whoever clears the flag reads).
        stream.readWanted.set(true);
        if (stream.pending.get() < MAX_PENDING_BYTES / 2 && stream.readWanted.compareAndSet(true, false)) {
            ctx.read();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Stream stream = current;
        current = null;
        if (stream == null) {
            connections.forget(this);
        } else if (stream.reused && !stream.received) {
            // Closed while idle (its backend restarted, or timed it out) before this query reached it.
            connections.askOnNew(stream.run, stream.attempt, stream.request);
        } else {
            stream.run.closed(stream.attempt);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        // Comes before the close that follows a refused handshake, so the shard fails for the right reason.
        Stream stream = current;
        if (stream != null && event instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            stream.run.fail(stream.attempt, ShardStatus.Outcome.TLS, Tls.handshakeFailure(done.cause()));
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Stream stream = current;
        if (stream != null && !(stream.reused && !stream.received)) {
            // Under TLS 1.3 a backend refuses a client certificate after the client's handshake ended: an alert on
            // read.
            String tls = Tls.reason(cause);
            if (tls != null) {
                stream.run.fail(stream.attempt, ShardStatus.Outcome.TLS, tls);
            } else {
                stream.run.fail(
                        stream.attempt,
                        ShardStatus.Outcome.ERROR,
                        cause.getMessage() == null ? cause.toString() : cause.getMessage());
            }
        }
        ctx.close(); // channelInactive follows: a reused connection that failed before answering is asked again there
    }
}
