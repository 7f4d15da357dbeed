package io.trigrep.frontend.fanout;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.ScheduledFuture;
import io.trigrep.frontend.metrics.FrontendMetrics;
import io.trigrep.frontend.store.TeeBuffers;
import io.trigrep.frontend.store.TeeFile;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Tls;
import io.trigrep.proto.Transport;
import io.trigrep.proto.sched.BackgroundPriority;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.capnproto.MessageBuilder;

/**
 * Sends each query to every shard, each to one of its replicas (hedged and failed over as
 * {@link QueryRun} says), and gathers the streams into a {@link QueryRun}.
 */
public final class FanOut implements AutoCloseable {
    /**
     * The largest socket read from a backend: large enough that a result-heavy stream costs few
     * reads, hand-offs to the writer and selector updates (reads are asked for one at a time),
     * small enough not to slow the backends sharing the machine (BENCHMARKS.md, "Tried and dropped").
     */
    static final int MAX_READ_BYTES = 256 * 1024;

    /** Per shard, the backends serving it. */
    private final List<ReplicaGroup> groups;
    /** Pings every replica: whether each answers decides where searches go and when they are given up. */
    private final ReplicaHealth health;

    private final Path dataDir;
    /** Whether the tees write their full buffers with direct I/O, around the page cache ({@link TeeFile}). */
    private final boolean directTee;
    /** Direct writes' alignment in {@link #dataDir}, found once; 0 without direct writes. */
    private final int teeAlignment;
    /**
     * The tees' buffers, kept across queries: 16 cover as many selective queries at once (each
     * fills less than one), and keeping them never raises the direct memory held above what the
     * tees have held at once ({@link TeeBuffers}).
     */
    private final TeeBuffers teeBuffers = new TeeBuffers(16);

    private final EventLoopGroup group = Transport.DEFAULT.group(2);
    private final ExecutorService writers;
    /** The writers of queries past their quantum ({@link SerialExecutor}), as many, at a lower OS priority. */
    private final ExecutorService heavyWriters;
    /** Writes the tees' full buffers; its tasks never wait on anything but the disk. */
    private final ExecutorService teeIo;

    private final AtomicLong runs = new AtomicLong();
    private final FrontendMetrics metrics;
    private final Tls tls;
    /** The newest generation known of each backend's shard, told by every run's answers and the status polls. */
    private final ShardGenerations generations;

    static final int CONNECT_MILLIS = 5000;

    public FanOut(List<InetSocketAddress> backends, Path dataDir, int writerThreads) throws IOException {
        this(backends, dataDir, writerThreads, new FrontendMetrics(), Tls.PLAIN);
    }

    public FanOut(List<InetSocketAddress> backends, Path dataDir, int writerThreads, FrontendMetrics metrics)
            throws IOException {
        this(backends, dataDir, writerThreads, metrics, Tls.PLAIN);
    }

    /** Talks to the backends over mutual TLS when {@code tls} (a client configuration) is enabled: searches, fetches and pings. */
    public FanOut(List<InetSocketAddress> backends, Path dataDir, int writerThreads, FrontendMetrics metrics, Tls tls)
            throws IOException {
        this(backends, dataDir, writerThreads, metrics, tls, false);
    }

    /** The same; the tees write with direct I/O when {@code directTee}, else through the page cache ({@link TeeFile}). */
    public FanOut(
            List<InetSocketAddress> backends,
            Path dataDir,
            int writerThreads,
            FrontendMetrics metrics,
            Tls tls,
            boolean directTee)
            throws IOException {
        this(backends, dataDir, writerThreads, metrics, tls, directTee, BackendConnections.Idle.DEFAULT);
    }

    /** The same, keeping idle connections to the backends as {@code idle} says. */
    FanOut(
            List<InetSocketAddress> backends,
            Path dataDir,
            int writerThreads,
            FrontendMetrics metrics,
            Tls tls,
            boolean directTee,
            BackendConnections.Idle idle)
            throws IOException {
        this(Topology.ofBackends(backends), dataDir, writerThreads, metrics, tls, directTee, idle);
    }

    /** Over the shards and replicas of {@code topology}. */
    public FanOut(
            Topology topology, Path dataDir, int writerThreads, FrontendMetrics metrics, Tls tls, boolean directTee)
            throws IOException {
        this(topology, dataDir, writerThreads, metrics, tls, directTee, BackendConnections.Idle.DEFAULT);
    }

    FanOut(
            Topology topology,
            Path dataDir,
            int writerThreads,
            FrontendMetrics metrics,
            Tls tls,
            boolean directTee,
            BackendConnections.Idle idle)
            throws IOException {
        this.metrics = metrics;
        this.tls = tls;
        this.dataDir = Files.createDirectories(dataDir);
        this.directTee = directTee;
        this.teeAlignment = directTee ? TeeFile.directAlignment(this.dataDir) : 0;
        this.writers = Executors.newFixedThreadPool(writerThreads, r -> {
            Thread t = new Thread(r, "trigrep-tee");
            t.setDaemon(true);
            return t;
        });
        this.heavyWriters =
                Executors.newFixedThreadPool(writerThreads, r -> BackgroundPriority.thread(r, "trigrep-tee-heavy"));
        this.teeIo = Executors.newFixedThreadPool(TeeFile.DEPTH, r -> {
            // Only large answers write through these (a selective one never fills a buffer).
            return BackgroundPriority.thread(r, "trigrep-tee-io");
        });
        List<ReplicaGroup> shards = new ArrayList<>();
        for (List<InetSocketAddress> addresses : topology.shards()) {
            List<Replica> replicas = new ArrayList<>();
            for (InetSocketAddress backend : addresses) {
                replicas.add(new Replica(
                        backend,
                        new BackendConnections(backend, group, tls, CONNECT_MILLIS, idle),
                        !topology.expanded(backend)));
            }
            shards.add(new ReplicaGroup(replicas));
        }
        this.groups = List.copyOf(shards);
        this.generations = new ShardGenerations(groups.size());
        this.health = new ReplicaHealth(groups, tls, generations);
        metrics.teeBuffers(TeeBuffers::allocatedBytes);
        List<String> names = shardNames();
        for (int i = 0; i < names.size(); i++) {
            int shard = i;
            metrics.backendConnections(names.get(i), () -> connectionsOpened(shard));
            metrics.shardGeneration(names.get(i), () -> generations.newest(shard));
        }
    }

    public Path dataDir() {
        return dataDir;
    }

    public FrontendMetrics metrics() {
        return metrics;
    }

    /**
     * One backend per shard, in shard order: the replica a one-off request (a status, a file, a
     * readiness ping) goes to now, a healthy one when the shard has any.
     */
    public List<InetSocketAddress> backends() {
        List<InetSocketAddress> out = new ArrayList<>();
        for (ReplicaGroup g : groups) {
            out.add(g.preferred().address());
        }
        return out;
    }

    /** The newest generation known of each backend's shard, in backend order. */
    public ShardGenerations generations() {
        return generations;
    }

    /** How every connection to the backends is made: searches here, and the blocking fetches and pings elsewhere. */
    public Tls tls() {
        return tls;
    }

    /** Each shard's name: its backend's {@code host:port}, or its replicas' joined by {@code |}. */
    public List<String> shardNames() {
        List<String> names = new ArrayList<>();
        for (ReplicaGroup g : groups) {
            names.add(g.name());
        }
        return names;
    }

    /** A search under the default caps of a 1 GiB cache. */
    public QueryRun search(String query, boolean literal, int contextLines, Duration deadline) throws IOException {
        return search(query, literal, contextLines, deadline, QueryCaps.forCache(1L << 30));
    }

    /** A search that keeps at most what {@code caps} allow; each backend is asked for its part of the results. */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // a completion callback run for its effect: nothing waits on the stage it
    // returns
    public QueryRun search(String query, boolean literal, int contextLines, Duration deadline, QueryCaps caps)
            throws IOException {
        Path tee = dataDir.resolve("query-" + runs.incrementAndGet() + "-" + System.nanoTime() + ".tee");
        QueryRun run = new QueryRun(
                shardNames(),
                new TeeFile(tee, teeIo, directTee, teeAlignment, teeBuffers),
                writers,
                heavyWriters,
                caps,
                generations);
        // Started before any backend is asked, finished before the run completes: a client that got
        // its answer finds the query in /metrics.
        metrics.queryStarted();
        run.beforeCompletion(done -> {
            metrics.queryFinished(
                    done.elapsedNanos(), done.firstResultNanos(), done.index().size());
            metrics.received(done.bytesReceived());
            if (done.diskFailure() != null) {
                metrics.diskError();
            }
            List<ShardStatus> statuses = done.statuses();
            for (int i = 0; i < statuses.size(); i++) {
                ShardStatus.Outcome outcome = statuses.get(i).outcome();
                metrics.backend(statuses.get(i).shard(), done.shardNanos(i), outcome.label(), outcome.backendFailed());
            }
        });
        int shards = groups.size();
        run.start(new QueryRun.Replicated(
                groups,
                shard -> {
                    MessageBuilder request = Messages.newBuilder();
                    request.initRoot(Request.factory)
                            .initSearch()
                            .setQuery(query)
                            .setLiteral(literal)
                            .setContextLines(contextLines)
                            .setDeadlineMillis((int) Math.min(Integer.MAX_VALUE, deadline.toMillis()))
                            .setMaxResults(caps.resultsOf(shard, shards))
                            .setFileResults(true);
                    return request;
                },
                group,
                metrics));
        // The deadline's task holds the run, and with it every result record, until it fires:
        // cancelled once the run ends, so no query's records stay on the heap for the rest of its
        // deadline.
        ScheduledFuture<?> expiry = group.schedule(run::expire, deadline.toMillis(), TimeUnit.MILLISECONDS);
        run.completion().whenComplete((done, failure) -> expiry.cancel(false));
        return run;
    }

    /** Connections opened to the backends of {@code shard} so far (each is kept for later queries). */
    public long connectionsOpened(int shard) {
        long opened = 0;
        for (Replica r : groups.get(shard).replicas()) {
            opened += r.connections().opened();
        }
        return opened;
    }

    /** Idle connections to the backends of {@code shard} now. */
    int connectionsIdle(int shard) {
        int idle = 0;
        for (Replica r : groups.get(shard).replicas()) {
            idle += r.connections().idle();
        }
        return idle;
    }

    /** Pings the backends of {@code shard} answered on idle connections so far. */
    long connectionPings(int shard) {
        long pings = 0;
        for (Replica r : groups.get(shard).replicas()) {
            pings += r.connections().pings();
        }
        return pings;
    }

    @Override
    public void close() {
        health.close();
        for (ReplicaGroup g : groups) {
            for (Replica r : g.replicas()) {
                r.connections().close();
            }
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        writers.shutdownNow();
        heavyWriters.shutdownNow();
        teeIo.shutdown();
        teeBuffers.clear();
    }
}
