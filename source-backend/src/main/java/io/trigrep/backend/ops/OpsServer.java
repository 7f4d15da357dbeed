package io.trigrep.backend.ops;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.NetUtil;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Tls;
import io.trigrep.proto.Transport;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A backend's HTTP port for operators: {@code /metrics} (Prometheus text), {@code /healthz} (the
 * process is up) and {@code /readyz} (the search port answers a real Cap'n Proto ping, as the
 * frontend would send). Separate from the search port, so a probe never queues behind searches.
 */
public final class OpsServer implements AutoCloseable {
    static final int PING_MILLIS = 1000;

    private final BackendMetrics metrics;
    private final InetSocketAddress searchPort;
    private final Tls tls;
    private final EventLoopGroup group = Transport.DEFAULT.group(1);
    // Pings block: one thread, so a stuck search port cannot multiply threads; probes just wait.
    private final ExecutorService pings = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "trigrep-readyz");
        t.setDaemon(true);
        return t;
    });
    private Channel channel;

    public OpsServer(BackendMetrics metrics, InetSocketAddress searchPort) {
        this(metrics, searchPort, Tls.PLAIN);
    }

    /**
     * Pings a search port that speaks mutual TLS as a client with {@code tls}: the backend's own
     * certificate and CA, without the host name check, since it dials itself on loopback.
     */
    public OpsServer(BackendMetrics metrics, InetSocketAddress searchPort, Tls tls) {
        this.metrics = metrics;
        this.searchPort = searchPort;
        this.tls = tls;
    }

    public InetSocketAddress start(String host, int port) throws InterruptedException {
        channel = new ServerBootstrap()
                .group(group)
                .channel(Transport.DEFAULT.serverChannel())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline()
                                .addLast(
                                        new HttpServerCodec(4096, 8192, 8192),
                                        new HttpServerKeepAliveHandler(),
                                        new HttpObjectAggregator(4096),
                                        new Handler());
                    }
                })
                .bind(host, port)
                .sync()
                .channel();
        return (InetSocketAddress) channel.localAddress();
    }

    private final class Handler extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            String path = request.decoderResult().isSuccess() ? new QueryStringDecoder(request.uri()).path() : "";
            switch (path) {
                case "/metrics" ->
                    send(
                            ctx,
                            keepAlive,
                            HttpResponseStatus.OK,
                            "text/plain; version=0.0.4; charset=utf-8",
                            metrics.scrape());
                case "/healthz" ->
                    send(ctx, keepAlive, HttpResponseStatus.OK, "application/json", "{\"status\":\"ok\"}");
                case "/readyz" ->
                    pings.execute(() -> {
                        String problem = BackendClient.ping(tls, loopback(searchPort), PING_MILLIS);
                        send(
                                ctx,
                                keepAlive,
                                problem == null ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE,
                                "application/json",
                                problem == null
                                        ? "{\"status\":\"ready\"}"
                                        : "{\"status\":\"not ready\",\"reason\":\"" + jsonSafe(problem) + "\"}");
                    });
                default ->
                    send(
                            ctx,
                            keepAlive,
                            HttpResponseStatus.NOT_FOUND,
                            "application/json",
                            "{\"error\":\"no such endpoint; try /metrics, /healthz or /readyz\"}");
            }
        }
    }

    /** The search port as this host reaches it: a wildcard bind is pinged on loopback. */
    private static InetSocketAddress loopback(InetSocketAddress bound) {
        return bound.getAddress().isAnyLocalAddress()
                ? new InetSocketAddress(NetUtil.createInetAddressFromIpAddressString("127.0.0.1"), bound.getPort())
                : bound;
    }

    private static String jsonSafe(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"").replaceAll("[\\x00-\\x1f]", " ");
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    private static void send(
            ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, String type, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        FullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(bytes));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, type).setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive) {
            ctx.writeAndFlush(response);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close().syncUninterruptibly();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        pings.shutdownNow();
    }
}
