package io.trigrep.backend.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.trigrep.backend.ops.BackendMetrics;
import io.trigrep.backend.search.Scratch;
import io.trigrep.backend.search.SearchPool;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.indexer.segments.LiveShard;
import io.trigrep.proto.Tls;
import io.trigrep.proto.Transport;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The source backend: serves one shard over TCP, at its index's newest generation (see
 * {@link Generations}; {@link #watch} picks up newer ones while serving). Event loops only frame
 * and dispatch; searches run on a bounded pool of {@code threads}. {@link #start} binds (port 0
 * picks a free one).
 */
public final class BackendServer implements AutoCloseable {
    /** A frontend that has not pinged for this long is not waited for. */
    static final Duration FRONTEND_LEASE = Duration.ofSeconds(2);
    /** How long a switch waits for the frontends to learn it before it is announced anyway. */
    static final Duration LEARN_WAIT = Duration.ofSeconds(5);

    private final Generations generations;
    private final String name;
    private GenerationWatcher watcher;
    private ServingFile servingFile;
    private final Frontends frontends = new Frontends(FRONTEND_LEASE);

    private final BackendConfig config;
    private final EventLoopGroup boss = Transport.DEFAULT.group(1);
    private final EventLoopGroup workers = Transport.DEFAULT.group(2);
    private final SearchPool searchPool;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder produced = new LongAdder();
    private final BackendMetrics metrics;
    private Channel channel;

    private final ShardCheck check;
    private final Tls tls;
    private final PrintStream log;

    /**
     * Serves the shard in {@code shard}'s folder over plain TCP, its checksums not verified (see
     * {@link #verifying}): its index's newest generation, which the server opens and maps itself.
     */
    public BackendServer(Shard shard, BackendConfig config) {
        this(shard, config, Tls.PLAIN);
    }

    /** Serves {@code shard} as opened, over mutual TLS when {@code tls} (a server configuration) is enabled. */
    public BackendServer(Shard shard, BackendConfig config, Tls tls) {
        this(shard, config, ShardCheck.none(shard), tls, System.err);
    }

    BackendServer(Shard shard, BackendConfig config, ShardCheck check, Tls tls, PrintStream log) {
        this(shard.folder(), config, check, tls, log);
    }

    BackendServer(Path folder, BackendConfig config, ShardCheck check, Tls tls, PrintStream log) {
        this.check = check;
        this.tls = tls;
        this.log = log;
        LiveShard first;
        try {
            first = LiveShard.open(folder);
        } catch (IOException e) {
            // A corrupt file (symbols.tgs included) is refused as any corrupt shard file is, its path named.
            throw new UncheckedIOException("cannot open the shard in " + folder + ": " + e.getMessage(), e);
        }
        this.name = first.segments().isEmpty()
                ? first.name()
                : first.segments().get(0).shard().manifest().shard();
        this.config = config;
        this.metrics = new BackendMetrics(name);
        metrics.bind(inFlight::get, produced::sum);
        try {
            this.generations = new Generations(first, log, metrics);
        } catch (IOException | RuntimeException e) {
            first.close();
            throw new UncheckedIOException(
                    "cannot read the shard in " + folder + ": " + e.getMessage(),
                    e instanceof IOException io ? io : new IOException(e));
        }
        Generations served = generations;
        metrics.bindSize(() -> served.peek().liveDocs(), served::liveBytes);
        metrics.bindGeneration(() -> served.peek().generation());
        // Each query has at most `threads` tasks queued: the queues cannot grow past this.
        this.searchPool = new SearchPool(config.threads(), config.maxConcurrent() * config.threads() + 16);
    }

    public InetSocketAddress start(String host, int port) throws InterruptedException {
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(boss, workers)
                .channel(Transport.DEFAULT.serverChannel())
                .option(ChannelOption.SO_BACKLOG, 256)
                .childOption(ChannelOption.TCP_NODELAY, true)
                // A client may send its request and shut down its output: the answer must still go out.
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(256 << 10, 1 << 20))
                // Results go out in batches of a few hundred KiB: the pooled allocator reuses their
                // memory, where Netty's default one makes and frees a direct buffer per batch.
                .childOption(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .childHandler(new BackendServerInitializer(
                        new Backend(
                                generations,
                                config,
                                searchPool,
                                inFlight,
                                produced,
                                metrics,
                                check,
                                new Scratch(),
                                frontends),
                        tls,
                        new HandshakeLog(log, metrics)));
        channel = bootstrap.bind(host, port).sync().channel();
        return (InetSocketAddress) channel.localAddress();
    }

    /**
     * Serves the shard in {@code folder} (its index's newest generation): verified in the
     * background when {@code verifyInBackground} (see {@link #verifying}), warmed up before it is
     * ready when {@code warm} (see {@link #warmUp}), else as opened.
     */
    public static BackendServer open(
            Path folder, BackendConfig config, Tls tls, boolean verifyInBackground, boolean warm) {
        String shardName = folder.toAbsolutePath().normalize().getFileName().toString();
        ShardCheck check = verifyInBackground
                ? ShardCheck.pending(shardName, warm)
                : warm ? ShardCheck.warming(shardName) : ShardCheck.none(shardName);
        return new BackendServer(folder, config, check, tls, System.err);
    }

    /**
     * Picks up newer generations of the index while serving: watches the folder above the shard's
     * for them, and also looks every {@code interval} (zero: never; the watch alone), since not
     * every file system reports changes. Call once, after {@link #start}. In an index folder
     * with generations, the backend also keeps its file among the folder's {@link
     * io.trigrep.indexer.segments.ServingBackends}, which updates wait on.
     */
    public void watch(Duration interval) {
        if (watcher != null) {
            throw new IllegalStateException(
                    "already watching " + generations.peek().folder().getParent());
        }
        Path root = generations.peek().folder().toAbsolutePath().normalize().getParent();
        if (hasGenerations(root)) {
            servingFile = new ServingFile(
                    root,
                    (InetSocketAddress) channel.localAddress(),
                    generations.peek().generation(),
                    log);
        }
        watcher = new GenerationWatcher(generations, generations.peek().folder(), interval, log, true, this::switched);
        watcher.start();
    }

    private boolean hasGenerations(Path root) {
        try {
            return !IndexFolder.generations(root).isEmpty();
        } catch (IOException e) {
            log.println("backend: cannot list " + root + ": " + e);
            return false;
        }
    }

    /** After a switch: waits for the frontends to learn it, then tells updates. On the watcher's thread. */
    private void switched() {
        LiveShard live = generations.peek();
        try {
            int behind = frontends.awaitLearnt(Generations.number(live), LEARN_WAIT);
            if (behind > 0) {
                log.println("backend " + name + ": " + behind + " frontend(s) did not learn generation "
                        + live.generation() + " within " + LEARN_WAIT.toSeconds() + " s; announcing it anyway");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        if (servingFile != null) {
            servingFile.serving(live.generation());
        }
    }

    /** The shard's name, as its manifest has it. */
    public String name() {
        return name;
    }

    /** Live files of the generation served now. */
    public int files() {
        return generations.peek().liveDocs();
    }

    /** The generation new queries are served from now. */
    public long generation() {
        return generations.peek().generation();
    }

    /**
     * A server that answers "not ready" until {@code verify} (run it on a thread of its own, after
     * {@link #start}) has read every checksum of the shard, and refuses a corrupt shard for good.
     */
    public static BackendServer verifying(Shard shard, BackendConfig config) {
        return verifying(shard, config, Tls.PLAIN);
    }

    /** {@link #verifying(Shard, BackendConfig)} over mutual TLS when {@code tls} is enabled. */
    public static BackendServer verifying(Shard shard, BackendConfig config, Tls tls) {
        return new BackendServer(shard, config, ShardCheck.pending(shard), tls, System.err);
    }

    /**
     * Warms the server up ({@link Warmup}) through its own port, with {@code client} (the TLS
     * configuration of a client, when the server wants one), for at most {@code budget}, then
     * reports it ready. Call after {@link #start} and {@link #verify}; blocks. A failed warm-up is
     * logged and the server is ready all the same: a cold server is slower, not wrong.
     */
    public void warmUp(Tls client, Duration budget) {
        if (!check.isWarming()) {
            return;
        }
        try {
            InetSocketAddress self = (InetSocketAddress) channel.localAddress();
            if (self.getAddress().isAnyLocalAddress()) {
                self = new InetSocketAddress(InetAddress.getLoopbackAddress(), self.getPort());
            }
            Warmup.Outcome done = Warmup.run(self, client, budget.toNanos(), System::nanoTime);
            log.printf(
                    "backend %s: warmed up, %d rounds, %d searches answered and %d refused in %.2f s%n",
                    name, done.rounds(), done.answered(), done.refused(), done.nanos() / 1e9);
        } catch (IOException | RuntimeException e) {
            log.println("backend " + name + ": warm-up stopped, serving cold: " + e);
        } finally {
            check.warmed();
        }
    }

    /** Verifies the shard's checksums (a no-op for a server built without a check); blocks until done. */
    public void verify(PrintStream log) {
        if (check.refusal() != null && !check.corrupt()) {
            Served s = generations.acquire();
            try {
                check.run(s.live(), log);
            } finally {
                s.release();
            }
        }
    }

    /** Null while the shard is served; else why it is not (being verified, or corrupt). */
    public String refusal() {
        return check.refusal();
    }

    public BackendMetrics metrics() {
        return metrics;
    }

    /** Results produced since start, by all queries: shows whether searches advance. */
    public long resultsProduced() {
        return produced.sum();
    }

    /** Queries running now. */
    public int queriesInFlight() {
        return inFlight.get();
    }

    private final AtomicBoolean closed = new AtomicBoolean();

    /** Stops serving; a second call does nothing. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        if (channel != null) {
            channel.close().syncUninterruptibly();
        }
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        searchPool.shutdownNow();
        if (servingFile != null) {
            servingFile.close();
        }
        if (watcher != null) {
            watcher.close();
        }
        // Searches still on the pool hold their generation: it is unmapped when the last one ends.
        generations.close();
    }
}
