package io.trigrep.backend.ops;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * One backend's metrics, in base units, for Prometheus: searches by how long they took (a
 * histogram), searches refused by reason, results produced, searches running, the shard's size,
 * and the JVM's own.
 */
public final class BackendMetrics {
    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Timer searchDuration;
    // Micrometer holds a gauge's or function counter's object weakly: these fields keep them alive, unread.
    @SuppressWarnings("UnusedVariable")
    private LongSupplier produced;

    @SuppressWarnings("UnusedVariable")
    private LongSupplier generation;

    @SuppressWarnings("UnusedVariable")
    private LongSupplier files;

    @SuppressWarnings("UnusedVariable")
    private LongSupplier contentBytes;

    private final String shard;
    private final Counter reloads;
    private final Counter failedReloads;

    public BackendMetrics(String shard, long files, long contentBytes) {
        this(shard);
        bindSize(() -> files, () -> contentBytes);
    }

    /** Metrics of a shard whose size {@link #bindSize} gives later. */
    public BackendMetrics(String shard) {
        this.shard = shard;
        searchDuration = Timer.builder("trigrep.backend.search.duration")
                .description("Time from a search's start until its stream ended")
                .tag("shard", shard)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(5))
                .register(registry);
        reloads = Counter.builder("trigrep.backend.generation.reloads")
                .description("Newer generations of the shard opened and served")
                .tag("shard", shard)
                .register(registry);
        failedReloads = Counter.builder("trigrep.backend.generation.reload.failures")
                .description("Newer generations of the shard refused: they did not open or verify")
                .tag("shard", shard)
                .register(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
    }

    /** Counters the server keeps anyway, read at scrape time. */
    public void bind(IntSupplier running, LongSupplier produced) {
        this.produced = produced;
        Gauge.builder("trigrep.backend.searches.running", running::getAsInt)
                .description("Searches running now")
                .register(registry);
        FunctionCounter.builder("trigrep.backend.results", produced, LongSupplier::getAsLong)
                .baseUnit("results")
                .description("Results produced by all searches")
                .register(registry);
    }

    /** The shard's size, read at scrape time: it changes with each generation served. */
    public void bindSize(LongSupplier files, LongSupplier contentBytes) {
        this.files = files;
        this.contentBytes = contentBytes;
        Gauge.builder("trigrep.backend.shard.files", files, LongSupplier::getAsLong)
                .description("Files in the shard served")
                .tag("shard", shard)
                .register(registry);
        Gauge.builder("trigrep.backend.shard.content", contentBytes, LongSupplier::getAsLong)
                .baseUnit("bytes")
                .description("Bytes of file contents in the shard")
                .tag("shard", shard)
                .register(registry);
    }

    /** The generation served, read at scrape time. */
    public void bindGeneration(LongSupplier generation) {
        this.generation = generation;
        Gauge.builder("trigrep.backend.generation", generation, LongSupplier::getAsLong)
                .description("Index generation of the shard served to new queries (0: a plain shard folder)")
                .tag("shard", shard)
                .register(registry);
    }

    public void reloaded() {
        reloads.increment();
    }

    public void reloadFailed() {
        failedReloads.increment();
    }

    public void searchFinished(long nanos) {
        searchDuration.record(nanos, TimeUnit.NANOSECONDS);
    }

    /** A search refused before it ran: "bad_query" or "overloaded". */
    public void refused(String reason) {
        Counter.builder("trigrep.backend.refused")
                .description("Searches refused before they ran, by reason")
                .tag("reason", reason)
                .register(registry)
                .increment();
    }

    /** A connection refused during the TLS handshake: wrong or missing client certificate, or no TLS at all. */
    public void tlsHandshakeFailed() {
        Counter.builder("trigrep.backend.tls.handshake.failures")
                .description("Connections refused during the TLS handshake")
                .register(registry)
                .increment();
    }

    public String scrape() {
        return registry.scrape();
    }
}
