package io.trigrep.frontend.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.ArrayDeque;

/**
 * Answers a connection's requests one at a time, in the order they came: a pipelined request
 * waits here, decoded, until the answer before it is written to its end. Answers are written
 * when their work completes, so without this a quick answer could overtake a slow one. At most
 * {@link ConnectionLimits#maxPipelined} requests wait; a client that sends more is closed.
 */
final class RequestSequencer extends ChannelDuplexHandler {
    private final ConnectionGuard guard;
    private final int maxWaiting;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    private boolean answering;

    RequestSequencer(ConnectionGuard guard, int maxWaiting) {
        this.guard = guard;
        this.maxWaiting = maxWaiting;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (!answering) {
            answering = true;
            guard.requestRead();
            ctx.fireChannelRead(request);
        } else if (waiting.size() < maxWaiting) {
            waiting.add(request);
        } else {
            request.release();
            ctx.close();
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof LastHttpContent) {
            ctx.write(msg, promise.unvoid()).addListener(written -> next(ctx));
        } else {
            ctx.write(msg, promise);
        }
    }

    private void next(ChannelHandlerContext ctx) {
        FullHttpRequest request = waiting.poll();
        if (request == null) {
            answering = false;
            guard.answered(false);
            return;
        }
        guard.answered(true);
        if (ctx.channel().isActive()) {
            ctx.fireChannelRead(request);
        } else {
            request.release();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        for (FullHttpRequest request = waiting.poll(); request != null; request = waiting.poll()) {
            request.release();
        }
        ctx.fireChannelInactive();
    }
}
