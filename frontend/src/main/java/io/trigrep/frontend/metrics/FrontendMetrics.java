package io.trigrep.frontend.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.DiskSpaceMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The frontend's metrics, in base units, scraped at {@code /metrics}: query duration and time to
 * first result as histograms (buckets for {@code histogram_quantile}: p50, p95, p99), per-backend
 * duration and failures by reason, results per query, bytes received from backends, queries in
 * flight, the latency of every search answer (cached or searched), HTTP responses by route and
 * status, HTTP connections, and the JVM's own.
 */
public final class FrontendMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Timer queryDuration;
    private final Timer firstResult;
    private final DistributionSummary resultsPerQuery;
    private final Counter bytesReceived;
    private final Timer searchCached;
    private final Timer searchSearched;
    private final AtomicInteger inFlight = new AtomicInteger();
    /**
     * What function counters read through, held here: the registry holds it weakly, and a
     * supplier nothing else holds was collected, its counter frozen at 0.
     */
    private final List<Object> held = new CopyOnWriteArrayList<>();

    public FrontendMetrics() {
        queryDuration = Timer.builder("trigrep.query.duration")
                .description("Time from a query's start until every backend answered")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(registry);
        firstResult = Timer.builder("trigrep.query.first.result")
                .description("Time from a query's start until its first result arrived")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(registry);
        searchCached = searchAnswers("cached");
        searchSearched = searchAnswers("searched");
        resultsPerQuery = DistributionSummary.builder("trigrep.query.results")
                .description("Results of each finished query")
                .baseUnit("results")
                .publishPercentileHistogram()
                .register(registry);
        bytesReceived = Counter.builder("trigrep.backend.received")
                .description("Bytes of result streams received from backends")
                .baseUnit("bytes")
                .register(registry);
        Gauge.builder("trigrep.queries.in.flight", inFlight, AtomicInteger::get)
                .description("Queries running now")
                .register(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    private Timer searchAnswers(String source) {
        return Timer.builder("trigrep.http.search.duration")
                .description("Time from a search request read whole to its answer handed to the connection, every"
                        + " search answer of the API and the web UI: source cached (the query had finished) or"
                        + " searched (it waited on a running search, its own or one it joined)")
                .tag("source", source)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000)) // cached answers need buckets under 1 ms
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(registry);
    }

    /** Cache hits, misses and evictions, and the disk its query files take. */
    public void bind(CacheCounts cache) {
        io.micrometer.core.instrument.FunctionCounter.builder("trigrep.cache.hits", cache, c -> c.hits())
                .description("Queries answered from a running or finished query")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("trigrep.cache.misses", cache, c -> c.misses())
                .description("Queries that had to be started")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("trigrep.cache.evictions", cache, c -> c.evictions())
                .description("Finished queries removed from the store")
                .register(registry);
        io.micrometer.core.instrument.FunctionCounter.builder("trigrep.cache.stale", cache, c -> c.stale())
                .description("Cached queries dropped because a shard's generation moved on since they were searched")
                .register(registry);
        Gauge.builder("trigrep.store.used", cache, c -> c.bytes())
                .baseUnit("bytes")
                .description("Disk used by the query files of the result store")
                .register(registry);
        // disk_free_bytes and disk_total_bytes of the store's file system, for the disk-full alert.
        new DiskSpaceMetrics(cache.folder().toFile()).bindTo(registry);
    }

    /** Connections opened to a backend so far: kept across queries, so it grows only with the queries at once. */
    public void backendConnections(String shard, LongSupplier opened) {
        FunctionCounter.builder("trigrep.backend.connections.opened", opened, o -> o.getAsLong())
                .description("Connections opened to a backend (each kept open for later queries)")
                .tag("shard", shard)
                .register(registry);
        held.add(opened);
    }

    /**
     * Native memory the tees' buffers hold, pooled or in use: arenas' memory, which the JVM's
     * direct-buffer figures do not count.
     */
    public void teeBuffers(LongSupplier bytes) {
        Gauge.builder("trigrep.tee.buffers", bytes, b -> (double) b.getAsLong())
                .baseUnit("bytes")
                .description("Native memory of the tee buffers, pooled or in use")
                .strongReference(true)
                .register(registry);
    }

    /**
     * The newest generation the frontend knows of a backend's shard (its index's generation
     * number, or the build time in milliseconds of a shard without generations; 0 unknown).
     */
    public void shardGeneration(String shard, LongSupplier generation) {
        Gauge.builder("trigrep.shard.generation", generation, g -> (double) g.getAsLong())
                .description("Newest generation known of each backend's shard, from status polls and search answers")
                .tag("shard", shard)
                .strongReference(true) // the supplier is held by nothing else: weakly held, it read NaN
                .register(registry);
    }

    public void queryStarted() {
        inFlight.incrementAndGet();
    }

    public void queryFinished(long nanos, long firstResultNanos, long results) {
        inFlight.decrementAndGet();
        queryDuration.record(nanos, TimeUnit.NANOSECONDS);
        if (firstResultNanos >= 0) {
            firstResult.record(firstResultNanos, TimeUnit.NANOSECONDS);
        }
        resultsPerQuery.record((double) results);
    }

    /**
     * One backend's part of a query: how long it took, and how it ended ("ok" or another kind);
     * {@code failed} counts it as a backend failure.
     */
    public void backend(String shard, long nanos, String outcome, boolean failed) {
        Timer.builder("trigrep.backend.duration")
                .description("Time each backend took for its part of a query")
                .tag("shard", shard)
                .tag("outcome", outcome)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
        if (failed) {
            Counter.builder("trigrep.backend.failures")
                    .description("Backend failures by kind")
                    .tag("shard", shard)
                    .tag("reason", outcome)
                    .register(registry)
                    .increment();
        }
    }

    /** A query the frontend could not answer because its own disk failed (full, or an I/O error). */
    public void diskError() {
        Counter.builder("trigrep.frontend.disk.errors")
                .description("Queries lost to the frontend's own disk (full or failing)")
                .register(registry)
                .increment();
    }

    /** One HTTP answer begun, by its route (a fixed set: see the caller) and status code. */
    public void response(String route, int status) {
        Counter.builder("trigrep.http.responses")
                .description("HTTP responses by route and status code")
                .tag("route", route)
                .tag("status", Integer.toString(status))
                .register(registry)
                .increment();
    }

    /** The HTTP server's connections: open now, closed to make room at the cap, refused at the cap. */
    public void connections(IntSupplier open, LongSupplier evicted, LongSupplier refused) {
        // Held strongly: the registry holds what a meter reads weakly, and these method references
        // are held by nothing else (the gauge read NaN, the counters froze, once they were collected).
        held.add(evicted);
        held.add(refused);
        Gauge.builder("trigrep.http.connections", open, o -> o.getAsInt())
                .description("HTTP connections open now")
                .strongReference(true)
                .register(registry);
        FunctionCounter.builder("trigrep.http.connections.evicted", evicted, e -> e.getAsLong())
                .description("Idle or half-sent HTTP connections closed to admit a new one at the cap")
                .register(registry);
        FunctionCounter.builder("trigrep.http.connections.refused", refused, r -> r.getAsLong())
                .description("HTTP connections closed at once at the cap, every other one being busy")
                .register(registry);
    }

    /**
     * One search answered over HTTP: {@code nanos} from its request read whole to its answer
     * handed to the connection; {@code cached} when the query had finished before the request
     * came (an answer from disk), else it waited on a running search, its own or one it joined.
     */
    public void searchAnswered(boolean cached, long nanos) {
        (cached ? searchCached : searchSearched).record(nanos, TimeUnit.NANOSECONDS);
    }

    /** A search refused with 429, by why: client_share, expensive or slots. */
    public void rejected(String reason) {
        Counter.builder("trigrep.http.rejected")
                .description("Searches refused with 429, by reason: client_share (the client's share is in"
                        + " use), expensive (the slots for full scans are), slots (every slot is)")
                .tag("reason", reason)
                .register(registry)
                .increment();
    }

    public void received(long bytes) {
        bytesReceived.increment((double) bytes);
    }

    /** The Prometheus text exposition. */
    public String scrape() {
        return registry.scrape();
    }

    // Replicas: per-replica latency, hedges and failovers.

    /**
     * A replica's attempt at a shard's part of a query won: how long it took, start to its last
     * message; {@code hedge} counts it as a hedge won.
     */
    public void replicaAnswered(String shard, String replica, long nanos, boolean hedge) {
        Timer.builder("trigrep.replica.duration")
                .description("Time each replica took for the shard's part of a query it answered")
                .tag("shard", shard)
                .tag("replica", replica)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(1))
                .register(registry)
                .record(nanos, TimeUnit.NANOSECONDS);
        if (hedge) {
            Counter.builder("trigrep.replica.hedges.won")
                    .description("Hedged requests that answered before the replica first asked")
                    .tag("shard", shard)
                    .register(registry)
                    .increment();
        }
    }

    /** A shard's part of a query was asked of a second replica, the first having sent nothing within the hedge delay. */
    public void hedgeSent(String shard) {
        Counter.builder("trigrep.replica.hedges.sent")
                .description("Requests sent to a second replica of a shard because the first was slow to answer")
                .tag("shard", shard)
                .register(registry)
                .increment();
    }

    /** A shard's part of a query was asked of another replica after the one asked failed. */
    public void failover(String shard) {
        Counter.builder("trigrep.replica.failovers")
                .description("Requests sent to another replica of a shard after the one asked failed")
                .tag("shard", shard)
                .register(registry)
                .increment();
    }
}
