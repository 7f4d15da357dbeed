package io.trigrep.frontend.http;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.trigrep.frontend.metrics.FrontendMetrics;
import java.util.ArrayDeque;
import java.util.Set;

/**
 * Answers a connection's requests one at a time, in the order they came: a pipelined request
 * waits here, decoded, until the answer before it is written to its end. Answers are written
 * when their work completes, so without this a quick answer could overtake a slow one. At most
 * {@link ConnectionLimits#maxPipelined} requests wait; a client that sends more is closed. As the
 * one place every answer passes, it also counts answers by route and status.
 */
final class RequestSequencer extends ChannelDuplexHandler {
    /** Routes counted by name; any other path counts as "other", so clients cannot mint labels. */
    static final Set<String> ROUTES = Set.of(
            "/",
            "/search",
            "/show",
            "/raw",
            "/healthz",
            "/readyz",
            "/metrics",
            "/api/v1/search",
            "/api/v1/search/packages",
            "/api/v1/search/events",
            "/api/v1/packages",
            "/api/v1/file",
            "/api/v1/file/raw",
            "/api/v1/status",
            "/api/v1/queries",
            "/api/v1/queries/cancel");

    private final ConnectionGuard guard;
    private final int maxWaiting;
    private final FrontendMetrics metrics;
    private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
    private boolean answering;
    private String route = "other";

    RequestSequencer(ConnectionGuard guard, int maxWaiting, FrontendMetrics metrics) {
        this.guard = guard;
        this.maxWaiting = maxWaiting;
        this.metrics = metrics;
    }

    static String route(String uri) {
        String path = new QueryStringDecoder(uri).rawPath();
        return ROUTES.contains(path) ? path : path.startsWith("/static/") ? "/static" : "other";
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest request)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (!answering) {
            answering = true;
            guard.requestRead();
            route = route(request.uri());
            ctx.fireChannelRead(request);
        } else if (waiting.size() < maxWaiting) {
            waiting.add(request);
        } else {
            request.release();
            ctx.close();
        }
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpResponse response) {
            metrics.response(route, response.status().code());
        }
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
            route = route(request.uri());
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
