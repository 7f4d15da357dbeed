package io.trigrep.frontend.fanout;

import io.trigrep.proto.BackendClient;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import io.trigrep.proto.Skipped;
import io.trigrep.proto.Status;
import io.trigrep.proto.Tls;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.capnproto.MessageBuilder;

/**
 * What the backends can search and what their indexers left out, by reason: asked of every
 * backend with a ping on a timer of its own, kept as one immutable snapshot that pages and the
 * status API read without asking anyone. A backend that stops answering keeps its last known
 * counts, marked unreachable.
 */
public final class CorpusStatus implements AutoCloseable {
    public record Skip(String reason, long files, long bytes) {}

    /**
     * {@code generation}: which state of the shard the backend serves, as its status says (its
     * index's generation number, or the build time in milliseconds of a shard without
     * generations; 0 unknown); {@code segments} and {@code deletedFiles} of that state.
     */
    public record Shard(
            String backend,
            String name,
            long files,
            long bytes,
            int formatVersion,
            long generation,
            int segments,
            long deletedFiles,
            boolean reachable,
            String problem,
            List<Skip> skipped) {}

    /** Every shard, the searchable totals of those that ever answered, and the skipped totals by reason. */
    public record Snapshot(List<Shard> shards, long files, long bytes, List<Skip> skipped, long takenMillis) {}

    /** One backend per shard, asked anew at each refresh: a shard's replica that answers now. */
    private final Supplier<List<InetSocketAddress>> backends;

    private final Tls tls;
    private final int timeoutMillis;
    private final LongSupplier clock;
    /** Told each status's generation: cached answers of another are stale. */
    private final ShardGenerations generations;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "trigrep-corpus-status");
        t.setDaemon(true);
        return t;
    });
    private volatile Snapshot latest;

    public CorpusStatus(
            List<InetSocketAddress> backends,
            Tls tls,
            int timeoutMillis,
            LongSupplier clock,
            ShardGenerations generations) {
        this(constant(List.copyOf(backends)), tls, timeoutMillis, clock, generations, backends.size());
    }

    /** Asks, at each refresh, the backend per shard {@code backends} gives then (of {@code shards} shards). */
    public CorpusStatus(
            Supplier<List<InetSocketAddress>> backends,
            Tls tls,
            int timeoutMillis,
            LongSupplier clock,
            ShardGenerations generations,
            int shards) {
        if (generations.shards() != shards) {
            throw new IllegalArgumentException(
                    "generations of " + generations.shards() + " shards for " + shards + " backends");
        }
        this.generations = generations;
        this.backends = backends;
        this.tls = tls;
        this.timeoutMillis = timeoutMillis;
        this.clock = clock;
    }

    private static Supplier<List<InetSocketAddress>> constant(List<InetSocketAddress> backends) {
        return () -> backends;
    }

    /** Refreshes now and then every {@code periodMillis}. */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // the refreshes end when close() shuts the timer down: no handle needed
    public void start(long periodMillis) {
        timer.scheduleWithFixedDelay(this::refresh, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** The last snapshot, or null before the first refresh ended. Never blocks. */
    public Snapshot latest() {
        return latest;
    }

    /** Pings every backend (blocking, off the event loop) and publishes the new snapshot. */
    public synchronized Snapshot refresh() {
        Snapshot before = latest;
        List<InetSocketAddress> backends = this.backends.get();
        List<Shard> shards = new ArrayList<>();
        for (int i = 0; i < backends.size(); i++) {
            InetSocketAddress backend = backends.get(i);
            String address = backend.getHostString() + ":" + backend.getPort();
            Shard known = before == null ? null : before.shards().get(i);
            try {
                MessageBuilder ping = Messages.ping();
                long askedAt = generations.tick();
                ByteBuffer frame = BackendClient.ask(tls, backend, ping, timeoutMillis, timeoutMillis);
                Response.Reader response =
                        frame == null ? null : Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
                if (response == null || response.which() != Response.Which.STATUS) {
                    shards.add(unreachable(address, known, "no status"));
                    continue;
                }
                Status.Reader s = response.getStatus();
                generations.learn(i, s.getGeneration(), askedAt);
                List<Skip> skipped = new ArrayList<>();
                for (Skipped.Reader k : s.getSkipped()) {
                    skipped.add(new Skip(k.getReason().toString(), k.getFiles(), k.getBytes()));
                }
                shards.add(new Shard(
                        address,
                        s.getShard().toString(),
                        s.getFiles(),
                        s.getBytes(),
                        s.getFormatVersion(),
                        s.getGeneration(),
                        s.getSegments(),
                        s.getDeletedFiles(),
                        true,
                        null,
                        List.copyOf(skipped)));
            } catch (Exception e) {
                String tlsReason = Tls.reason(e);
                shards.add(unreachable(
                        address,
                        known,
                        tlsReason != null ? tlsReason : e.getMessage() == null ? e.toString() : e.getMessage()));
            }
        }
        long files = 0;
        long bytes = 0;
        Map<String, long[]> byReason = new TreeMap<>();
        for (Shard s : shards) {
            files += s.files();
            bytes += s.bytes();
            for (Skip k : s.skipped()) {
                long[] sum = byReason.computeIfAbsent(k.reason(), r -> new long[2]);
                sum[0] += k.files();
                sum[1] += k.bytes();
            }
        }
        List<Skip> skipped = new ArrayList<>();
        byReason.forEach((reason, sum) -> skipped.add(new Skip(reason, sum[0], sum[1])));
        latest = new Snapshot(List.copyOf(shards), files, bytes, List.copyOf(skipped), clock.getAsLong());
        return latest;
    }

    private static Shard unreachable(String address, Shard known, String problem) {
        return known == null
                ? new Shard(address, "", 0, 0, 0, 0, 0, 0, false, problem, List.of())
                : new Shard(
                        address,
                        known.name(),
                        known.files(),
                        known.bytes(),
                        known.formatVersion(),
                        known.generation(),
                        known.segments(),
                        known.deletedFiles(),
                        false,
                        problem,
                        known.skipped());
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
