package io.trigrep.frontend.http;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.AttributeKey;
import io.trigrep.frontend.metrics.FrontendMetrics;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * Answers a connection's requests one at a time, in the order they came: a pipelined request
 * waits here, decoded, until the answer before it is written to its end. Answers are written
 * when their work completes, so without this a quick answer could overtake a slow one. At most
 * {@link ConnectionLimits#maxPipelined} requests wait; a client that sends more is closed. As the
 * one place every answer passes, it also counts answers by route and status, and times each
 * search answer from its request read whole (waiting behind others included) to its answer.
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

    /**
     * Set by a view on the channel of a request it answers with a search's results: whether the
     * query had finished (cached) when the request came. Read and cleared with the answer.
     */
    private static final AttributeKey<Boolean> SEARCH_CACHED = AttributeKey.valueOf("trigrep.search.cached");

    /** A request read whole, waiting to be answered, and when it was read. */
    private record Waiting(FullHttpRequest request, long readNanos) {}

    private final ConnectionGuard guard;
    private final int maxWaiting;
    private final FrontendMetrics metrics;
    private final LongSupplier nanoTime;
    private final ArrayDeque<Waiting> waiting = new ArrayDeque<>();
    private boolean answering;
    private String route = "other";
    /** When the request being answered was read whole. */
    private long readNanos;

    RequestSequencer(ConnectionGuard guard, int maxWaiting, FrontendMetrics metrics, LongSupplier nanoTime) {
        this.guard = guard;
        this.maxWaiting = maxWaiting;
        this.metrics = metrics;
        this.nanoTime = nanoTime;
    }

    /**
     * Says that the answer to the request being answered on {@code channel} is a search's (any
     * thread, before the answer is written): {@code cached} when its query had finished already.
     */
    static void answersSearch(Channel channel, boolean cached) {
        channel.attr(SEARCH_CACHED).set(cached);
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
        if (!ctx.channel().isActive()) {
            // The codec's report of a request cut short by the close: no one is left to answer.
            request.release();
            return;
        }
        if (!answering) {
            answering = true;
            guard.requestRead();
            route = route(request.uri());
            readNanos = nanoTime.getAsLong();
            ctx.fireChannelRead(request);
        } else if (waiting.size() < maxWaiting) {
            waiting.add(new Waiting(request, nanoTime.getAsLong()));
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
            Boolean cached = ctx.channel().attr(SEARCH_CACHED).getAndSet(null);
            if (cached != null) {
                metrics.searchAnswered(cached, nanoTime.getAsLong() - readNanos);
            }
        }
        if (msg instanceof LastHttpContent) {
            ctx.write(msg, promise.unvoid()).addListener(written -> next(ctx));
        } else {
            ctx.write(msg, promise);
        }
    }

    private void next(ChannelHandlerContext ctx) {
        Waiting next = waiting.poll();
        if (next == null) {
            answering = false;
            guard.answered(false);
            return;
        }
        guard.answered(true);
        if (ctx.channel().isActive() && !guard.lingering()) {
            route = route(next.request().uri());
            readNanos = next.readNanos();
            ctx.fireChannelRead(next.request());
        } else {
            // Closed, or closing after a refusal: what was read ahead is not answered.
            next.request().release();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        for (Waiting next = waiting.poll(); next != null; next = waiting.poll()) {
            next.request().release();
        }
        ctx.fireChannelInactive();
    }
}
