package io.trigrep.frontend.fanout;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The backends serving copies of one shard. Chooses the replica a search goes to (healthy first,
 * then the least outstanding work weighted by recent time to first frame; replicas within
 * {@link #NEAR} of each other take turns, so each keeps a current latency) and says how long to
 * wait for a first frame before asking another one: the shard's recent 95th percentile, within
 * {@link #HEDGE_FLOOR_NANOS} and {@link #HEDGE_CAP_NANOS}.
 */
final class ReplicaGroup {
    /** Below this a hedge would mostly duplicate searches about to answer. */
    static final long HEDGE_FLOOR_NANOS = 20_000_000;
    /** A hedge is never sent later than this, nor earlier while the shard's latency is unknown. */
    static final long HEDGE_CAP_NANOS = 500_000_000;

    /** A replica displaces the best so far only when it costs less than this share of it. */
    static final double NEAR = 0.8;

    private static final int WINDOW = 128;
    /** Fewer first-frame times than this say nothing of the percentile: the cap holds. */
    private static final int MIN_SAMPLES = 16;

    private final String name;
    private final List<Replica> replicas;
    private final long[] recent = new long[WINDOW];
    private int samples;

    ReplicaGroup(List<Replica> replicas) {
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("a shard needs at least one replica");
        }
        this.replicas = List.copyOf(replicas);
        StringJoiner names = new StringJoiner("|");
        for (Replica r : replicas) {
            names.add(r.name());
        }
        this.name = names.toString();
    }

    /** The shard's name: its replicas' addresses joined by {@code |}, one address when it has one. */
    String name() {
        return name;
    }

    List<Replica> replicas() {
        return replicas;
    }

    boolean replicated() {
        return replicas.size() > 1;
    }

    /**
     * The replica to ask next, none of {@code tried}: the healthy one expected to answer first;
     * when none is healthy, with {@code orUnhealthy}, the least busy of the others, else null.
     */
    Replica choose(Collection<Replica> tried, boolean orUnhealthy) {
        Replica best = null;
        boolean bestHealthy = false;
        double bestCost = 0;
        int n = replicas.size();
        int from = n == 1 ? 0 : ThreadLocalRandom.current().nextInt(n); // near costs take turns
        for (int i = 0; i < n; i++) {
            Replica r = replicas.get((from + i) % n);
            if (tried.contains(r)) {
                continue;
            }
            boolean healthy = r.healthy();
            double cost = r.cost();
            if (best == null || (healthy && !bestHealthy) || (healthy == bestHealthy && cost < bestCost * NEAR)) {
                best = r;
                bestHealthy = healthy;
                bestCost = cost;
            }
        }
        return best == null || bestHealthy || orUnhealthy ? best : null;
    }

    /** The replica a one-off request (a status, a file) goes to now. */
    Replica preferred() {
        return choose(List.of(), true);
    }

    /** A search of this shard had its first frame {@code nanos} after it was asked. */
    synchronized void firstFrame(long nanos) {
        recent[samples++ % WINDOW] = nanos;
    }

    /** How long a search waits for its first frame before the same is asked of another replica. */
    synchronized long hedgeDelayNanos() {
        if (samples < MIN_SAMPLES) {
            return HEDGE_CAP_NANOS;
        }
        long[] sorted = Arrays.copyOf(recent, Math.min(samples, WINDOW));
        Arrays.sort(sorted);
        long p95 = sorted[(int) Math.ceil(sorted.length * 0.95) - 1];
        return Math.max(HEDGE_FLOOR_NANOS, Math.min(HEDGE_CAP_NANOS, p95));
    }
}
