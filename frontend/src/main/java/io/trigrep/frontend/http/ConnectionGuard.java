package io.trigrep.frontend.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.ScheduledFuture;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * First in each connection's pipeline: admits the connection under the server's cap and keeps
 * one timer running for whatever the connection is doing, so that no connection is held by a
 * client that does nothing. Waiting for a request: the idle timeout. A request begun but not
 * complete: the request timeout, then a 408. A request being answered: the answer timeout. A
 * reset by the client is one line on stderr, not a stack trace. All on the event loop but
 * {@link #evict}.
 */
final class ConnectionGuard extends ChannelDuplexHandler {
    private static final byte[] TIMEOUT =
            ("HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 57\r\n\r\n{\"error\":\"the request was not complete within the timeout\"}")
                    .getBytes(StandardCharsets.US_ASCII);

    private enum State {
        WAITING,
        READING,
        ANSWERING
    }

    private final Connections connections;
    private final ConnectionLimits limits;
    private ChannelHandlerContext ctx;
    private State state = State.WAITING;
    private boolean admitted;
    private ScheduledFuture<?> timer;

    ConnectionGuard(Connections connections, ConnectionLimits limits) {
        this.connections = connections;
        this.limits = limits;
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
        if (another) {
            arm(limits.answerTimeout(), ctx::close);
        } else if (ctx.channel().isActive()) {
            waiting();
        }
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
        ctx.writeAndFlush(Unpooled.wrappedBuffer(TIMEOUT)).addListener(ChannelFutureListener.CLOSE);
    }

    private void arm(Duration after, Runnable action) {
        if (timer != null) {
            timer.cancel(false);
        }
        timer = ctx.executor().schedule(action, after.toNanos(), TimeUnit.NANOSECONDS);
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
