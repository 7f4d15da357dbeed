package io.trigrep.frontend.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpContentCompressor;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerKeepAliveHandler;
import io.trigrep.frontend.fanout.CorpusStatus;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.query.QueryService;
import io.trigrep.proto.Transport;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The frontend's HTTP server: the JSON API under /api/v1/, /healthz and /readyz. Requests are
 * limited to an 8 KiB request line (414 past it), 16 KiB of headers (431) and a 64 KiB body (413);
 * connections by {@link ConnectionLimits}; new searches are admitted by the {@link QueryService}
 * (by cost and per client, the excess gets 429) and each keeps at most its {@link SearchLimits#caps()}.
 * Pages are rendered off the event loop, on a bounded pool. Each request goes one way: the
 * {@link RequestRouter} gives it to the JSON API or the web UI, which ask the query service.
 */
public final class FrontendServer implements AutoCloseable {
    static final int MAX_INITIAL_LINE = 8192;
    static final int MAX_HEADER_BYTES = 16 << 10;
    static final int MAX_REQUEST_BYTES = 64 << 10;

    private final FanOut fanOut;
    private final EventLoopGroup boss = Transport.DEFAULT.group(1);
    private final EventLoopGroup workers = Transport.DEFAULT.group(2);
    private final ExecutorService pages;
    /** Stateless views over the query service: one of each for all connections. */
    private final ApiHandler api;

    private final WebUi ui;
    private final ClientAddress clients;
    private final ConnectionLimits limits;
    private final Connections connections;
    /** What is searchable and what was left out: refreshed on its own timer, read by pages and /api/v1/status. */
    private final CorpusStatus corpus;

    /**
     * How often the backends' status is asked for by default. A poll is a ping per backend
     * answered from memory; besides the counts it tells a shard's generation to a frontend that
     * runs no search (the searches' answers tell it too), which bounds how long a cached answer can
     * outlive its generation (API.md).
     */
    static final Duration STATUS_POLL = Duration.ofSeconds(5);

    private Duration statusPoll = STATUS_POLL;
    private final QueryService queries;
    private Channel channel;

    public FrontendServer(FanOut fanOut, int maxQueries) {
        this(fanOut, maxQueries, new QueryCache(fanOut.dataDir(), 1L << 30, 1L << 30));
    }

    public FrontendServer(FanOut fanOut, int maxQueries, QueryCache cache) {
        this(fanOut, maxQueries, cache, ConnectionLimits.defaults());
    }

    public FrontendServer(FanOut fanOut, int maxQueries, QueryCache cache, ConnectionLimits limits) {
        this(fanOut, SearchLimits.total(maxQueries, cache.maxBytes()), cache, limits);
    }

    public FrontendServer(FanOut fanOut, SearchLimits search, QueryCache cache, ConnectionLimits limits) {
        this.fanOut = fanOut;
        this.limits = limits;
        this.connections = new Connections(limits.maxConnections());
        fanOut.metrics().bind(cache);
        fanOut.metrics().connections(connections::open, connections::evicted, connections::refused);
        this.clients = ClientAddress.parse(search.trustedProxies());
        this.pages = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "trigrep-pages");
            t.setDaemon(true);
            return t;
        });
        this.corpus = new CorpusStatus(
                fanOut::backends,
                fanOut.tls(),
                1000,
                System::currentTimeMillis,
                fanOut.generations(),
                fanOut.shardNames().size());
        this.queries = new QueryService(
                fanOut,
                cache,
                corpus,
                search.maxQueries(),
                search.maxExpensive(),
                search.maxPerClient(),
                search.caps());
        this.api = new ApiHandler(queries, pages);
        this.ui = new WebUi(queries, pages);
    }

    public InetSocketAddress start(String host, int port) throws InterruptedException {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(Transport.DEFAULT.serverChannel())
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ConnectionGuard guard = new ConnectionGuard(connections, limits, fanOut.metrics());
                        ch.pipeline()
                                .addLast(guard)
                                .addLast(new HttpServerCodec(MAX_INITIAL_LINE, MAX_HEADER_BYTES, 16 << 10))
                                .addLast(new HttpServerKeepAliveHandler())
                                .addLast(new HttpContentCompressor())
                                .addLast(new RequestAggregator(MAX_REQUEST_BYTES))
                                .addLast(new RequestSequencer(
                                        guard, limits.maxPipelined(), fanOut.metrics(), System::nanoTime))
                                .addLast(new RequestRouter(api, ui, clients, guard));
                    }
                });
        channel = bootstrap.bind(host, port).sync().channel();
        corpus.start(statusPoll.toMillis());
        return (InetSocketAddress) channel.localAddress();
    }

    /** Polls the backends' status every {@code period} instead of {@link #STATUS_POLL}; call before {@link #start}. */
    public void pollStatusEvery(Duration period) {
        if (channel != null) {
            throw new IllegalStateException("the status poll is set before the server starts");
        }
        if (period.toMillis() < 1) {
            throw new IllegalArgumentException("the status poll period must be >= 1 ms, got " + period);
        }
        statusPoll = period;
    }

    /** Not ready from now until {@link #warmUp} ends; call before {@link #start}, so that no probe sees a cold frontend ready. */
    public void holdReadinessForWarmUp() {
        queries.warming();
    }

    /** Whether every backend answers a ping now (the frontend's own warming aside). Blocks. */
    public boolean backendsReady() {
        return queries.readiness(false).unreachable().isEmpty();
    }

    /** Gives up warming (the backends never came): ready as soon as they are. */
    public void skipWarmUp() {
        queries.warmed();
    }

    /**
     * Warms the frontend up ({@link FrontendWarmup}) through its own port and its fan-out, for at
     * most {@code budget}, then reports it ready. Blocks; call after {@link #start}, once {@link
     * #backendsReady}. A failed warm-up is logged, and the frontend is ready all the same.
     */
    public void warmUp(Duration budget, PrintStream log) {
        try {
            InetSocketAddress address = (InetSocketAddress) channel.localAddress();
            String host = address.getAddress().isAnyLocalAddress() ? "127.0.0.1" : address.getHostString();
            FrontendWarmup.Outcome done = new FrontendWarmup(
                            fanOut, URI.create("http://" + host + ":" + address.getPort()), System::nanoTime)
                    .run(budget.toNanos());
            log.printf(
                    "frontend: warmed up, %d rounds, %d requests answered and %d not in %.2f s%n",
                    done.rounds(), done.ok(), done.failed(), done.nanos() / 1e9);
        } catch (IOException | RuntimeException e) {
            log.println("frontend: warm-up stopped, serving cold: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            queries.warmed();
        }
    }

    /** Connections open now. */
    public int openConnections() {
        return connections.open();
    }

    @Override
    public void close() {
        if (channel != null) {
            channel.close().syncUninterruptibly();
        }
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        pages.shutdownNow();
        corpus.close();
    }
}
