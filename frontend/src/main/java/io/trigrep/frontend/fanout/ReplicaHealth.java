package io.trigrep.frontend.fanout;

import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Tls;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Pings every replica on a timer of its own and tells it the answer ({@link Replica#pinged}):
 * a stopped, hung or not-ready backend is known as such within {@link #PERIOD_MILLIS} plus
 * {@link #TIMEOUT_MILLIS}, which is what lets a search give it up long before the deadline.
 * Each replica is pinged on its own schedule, so a hung one delays no other's ping.
 */
final class ReplicaHealth implements AutoCloseable {
    static final long PERIOD_MILLIS = 250;
    static final int TIMEOUT_MILLIS = 500;

    private final ScheduledExecutorService timer;

    @SuppressWarnings("FutureReturnValueIgnored") // the pings end when close() shuts the timer down
    ReplicaHealth(List<Replica> replicas, Tls tls) {
        timer = Executors.newScheduledThreadPool(Math.min(4, replicas.size()), r -> {
            Thread t = new Thread(r, "trigrep-replica-health");
            t.setDaemon(true);
            return t;
        });
        for (Replica r : replicas) {
            timer.scheduleWithFixedDelay(
                    () -> r.pinged(BackendClient.ping(tls, r.address(), TIMEOUT_MILLIS)),
                    0,
                    PERIOD_MILLIS,
                    TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
