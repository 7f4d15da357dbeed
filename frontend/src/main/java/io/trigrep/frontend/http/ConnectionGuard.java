package io.trigrep.frontend.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.socket.DuplexChannel;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.trigrep.frontend.metrics.FrontendMetrics;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * First in each connection's pipeline: admits the connection under the server's cap and keeps
 * one timer running for whatever the connection is doing, so that no connection is held by a
 * client that does nothing. Waiting for a request: the idle timeout. A request begun but not
 * complete: the request timeout, then a 408. A request being answered: the answer timeout. A
 * request refused unread (too large, malformed) is closed lingering: once its answer is written
 * the output is shut and what the client still sends is read and dropped until it closes or the
 * request timeout passes, so that the client reads the answer rather than a reset. A reset by the
 * client is one line on stderr, not a stack trace. All on the event loop but {@link #evict}.
 */
final class ConnectionGuard extends ChannelDuplexHandler {
    private static final byte[] TIMEOUT =
            ("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 57\r\n\r\n{\"error\":\"the request was not complete within the timeout\"}")
                    .getBytes(StandardCharsets.US_ASCII);

    private enum State {
        WAITING,
        READING,
        ANSWERING,
        /** A refusal is being answered or was: reads are dropped, the connection closes lingering. */
        LINGERING
    }

    private final Connections connections;
    private final ConnectionLimits limits;
    private final FrontendMetrics metrics;
    private ChannelHandlerContext ctx;
    private State state = State.WAITING;
    private boolean admitted;
    private ScheduledFuture<?> timer;

    ConnectionGuard(Connections connections, ConnectionLimits limits, FrontendMetrics metrics) {
        this.connections = connections;
        this.limits = limits;
        this.metrics = metrics;
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void channelActive(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (!connections.admit(ctx.channel())) {
            ctx.close();
            return;
        }
        admitted = true;
        waiting();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (state == State.LINGERING) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (state == State.WAITING) {
            state = State.READING;
            arm(limits.requestTimeout(), this::requestTimedOut);
        }
        ctx.fireChannelRead(msg);
    }

    /** The request begun is complete (called by the {@link RequestSequencer}): its answer's timer starts. */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    void requestRead() {
        if (state == State.LINGERING) {
            return;
        }
        if (state != State.ANSWERING) {
            state = State.ANSWERING;
            connections.busy(this);
        }
        arm(limits.answerTimeout(), ctx::close);
    }

    /** An answer is written; {@code another} when a pipelined request is answered next. */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    void answered(boolean another) {
        if (state == State.LINGERING) {
            return;
        }
        if (another) {
            arm(limits.answerTimeout(), ctx::close);
        } else if (ctx.channel().isActive()) {
            waiting();
        }
    }

    /**
     * The request being answered is refused without being read to its end (called by the {@link
     * RequestRouter} before it writes the refusal): from now on reads are dropped, and closing
     * after the answer shuts the output and lingers, for at most the request timeout.
     */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    void refusing() {
        if (state != State.LINGERING) {
            state = State.LINGERING;
            connections.waiting(this); // nothing left to answer: first in line to make room at the cap
            arm(limits.requestTimeout(), ctx::close);
        }
    }

    /** Whether the connection was refused and lingers: requests read ahead are not answered. */
    boolean lingering() {
        return state == State.LINGERING;
    }

    /** Closes the connection to make room for a new one (any thread). */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    void evict() {
        ctx.close();
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    private void waiting() {
        state = State.WAITING;
        connections.waiting(this);
        arm(limits.idleTimeout(), ctx::close);
    }

    private void requestTimedOut() {
        // Written here, under the codec: counted here too, under "other" (the route never arrived whole).
        metrics.response("other", 408);
        ctx.writeAndFlush(Unpooled.wrappedBuffer(TIMEOUT)).addListener(ChannelFutureListener.CLOSE);
    }

    private void arm(Duration after, Runnable action) {
        if (timer != null) {
            timer.cancel(false);
        }
        timer = ctx.executor().schedule(action, after.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * A close from the handlers after a refusal (the answer's "Connection: close") shuts only the
     * output: the client reads the answer and an end of stream, and closing its side closes the
     * connection (half-closure is off), as does the lingering timer.
     */
    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void close(ChannelHandlerContext ctx, ChannelPromise promise) {
        if (state == State.LINGERING && ctx.channel() instanceof DuplexChannel duplex && duplex.isActive()) {
            duplex.shutdownOutput().addListener(shut -> {
                if (!shut.isSuccess()) {
                    ctx.close();
                }
            });
            promise.trySuccess();
            return;
        }
        ctx.close(promise);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (timer != null) {
            timer.cancel(false);
        }
        if (admitted) {
            connections.busy(this);
            connections.closed();
        }
        ctx.fireChannelInactive();
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            // A client that resets or vanishes is ordinary traffic.
            System.err.println(
                    "frontend: connection from " + ctx.channel().remoteAddress() + " ended: " + cause.getMessage());
            ctx.close();
            return;
        }
        ctx.fireExceptionCaught(cause);
    }
}
