package io.trigrep.frontend.fanout;

import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One backend serving a copy of a shard: its kept connections, whether it answers its pings
 * ({@link ReplicaHealth}), how many searches it has outstanding and how soon it answers.
 */
final class Replica {
    /** Weight of the newest time to first frame in {@link #latencyNanos}. */
    private static final double ALPHA = 0.2;

    /** The time to first frame a replica is taken to have before it has answered anything. */
    private static final long UNKNOWN_NANOS = 1_000_000;

    /**
     * Pings failed in a row before a replica is taken as unhealthy: one late answer is a busy
     * machine as often as a hung backend; a search that fails on it counts at once.
     */
    static final int FAILED_PINGS = 2;

    private volatile InetSocketAddress address;
    /** Whether {@link #address} stands for its name alone, which may move (a restarted pod's): then looked up again when pings fail. */
    private final boolean named;

    private final String name;
    private final BackendConnections connections;
    private final AtomicInteger outstanding = new AtomicInteger();
    private volatile boolean healthy = true;
    private volatile String problem;
    /** Pings failed since the last answered one; written by its one pinging thread. */
    private volatile int failedPings;

    private volatile double latencyNanos = UNKNOWN_NANOS;

    Replica(InetSocketAddress address, BackendConnections connections, boolean named) {
        this.address = address;
        this.named = named;
        this.name = address.getHostString() + ":" + address.getPort();
        this.connections = connections;
    }

    InetSocketAddress address() {
        return address;
    }

    String name() {
        return name;
    }

    BackendConnections connections() {
        return connections;
    }

    /** Whether one of its last {@link #FAILED_PINGS} pings was answered and no search on it failed since. */
    boolean healthy() {
        return healthy;
    }

    /** Why it is not healthy; null when it is. */
    String problem() {
        return problem;
    }

    /** What its last ping said: null when it answered, else why not. */
    void pinged(String why) {
        failedPings = why == null ? 0 : failedPings + 1;
        if (why == null || failedPings >= FAILED_PINGS) {
            problem = why;
            healthy = why == null;
        }
        if (why != null && named) {
            InetSocketAddress now = new InetSocketAddress(address.getHostString(), address.getPort());
            if (!now.isUnresolved() && !now.equals(address)) {
                address = now;
                connections.readdress(now);
            }
        }
    }

    /** A search on it failed as its backend's fault: not chosen again until a ping is answered. */
    void failed(String why) {
        problem = why;
        healthy = false;
    }

    void started() {
        outstanding.incrementAndGet();
    }

    void ended() {
        outstanding.decrementAndGet();
    }

    int outstanding() {
        return outstanding.get();
    }

    /** A search's first frame came {@code nanos} after it was asked. */
    synchronized void firstFrame(long nanos) {
        latencyNanos = latencyNanos + ALPHA * (nanos - latencyNanos);
    }

    /** What asking it now is expected to cost: its recent time to first frame, times the searches it would have. */
    double cost() {
        return (outstanding.get() + 1) * latencyNanos;
    }

    @Override
    public String toString() {
        return name;
    }
}
