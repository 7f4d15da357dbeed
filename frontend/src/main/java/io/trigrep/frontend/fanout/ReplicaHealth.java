package io.trigrep.frontend.fanout;

import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Failure;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import io.trigrep.proto.Tls;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.capnproto.MessageBuilder;

/**
 * Pings every replica on a timer of its own and tells it the answer ({@link Replica#pinged}):
 * a stopped, hung or not-ready backend is known as such after {@link Replica#FAILED_PINGS}
 * pings, each {@link #PERIOD_MILLIS} plus at most {@link #TIMEOUT_MILLIS}, which is what lets a
 * search give it up long before the deadline.
 * Each replica is pinged on its own schedule, so a hung one delays no other's ping.
 *
 * <p>Each ping is a heartbeat: it names this frontend and the generation it last learnt of that
 * replica, and the status that answers it teaches the shard's {@link ShardGenerations}. A backend
 * tells an update it switched only once every frontend's heartbeat says it has learnt the switch,
 * so no cached answer of the replaced generation is served after the update returns. A backend
 * that does not know heartbeats (an older version) is pinged plainly.
 */
final class ReplicaHealth implements AutoCloseable {
    static final long PERIOD_MILLIS = 250;
    static final int TIMEOUT_MILLIS = 500;

    private final ScheduledExecutorService timer;
    private final Tls tls;
    private final ShardGenerations generations;
    /** This frontend, as its heartbeats name it: random, never 0. */
    private final long frontend = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);

    @SuppressWarnings("FutureReturnValueIgnored") // the pings end when close() shuts the timer down
    ReplicaHealth(List<ReplicaGroup> shards, Tls tls, ShardGenerations generations) {
        this.tls = tls;
        this.generations = generations;
        int replicas = shards.stream().mapToInt(g -> g.replicas().size()).sum();
        timer = Executors.newScheduledThreadPool(Math.min(4, replicas), r -> {
            Thread t = new Thread(r, "trigrep-replica-health");
            t.setDaemon(true);
            return t;
        });
        for (int shard = 0; shard < shards.size(); shard++) {
            for (Replica r : shards.get(shard).replicas()) {
                Heartbeats beats = new Heartbeats(shard, r);
                timer.scheduleWithFixedDelay(beats::beat, 0, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
            }
        }
    }

    /** One replica's pings, one at a time. */
    private final class Heartbeats {
        private final int shard;
        private final Replica replica;
        private long known;
        private boolean plain;

        Heartbeats(int shard, Replica replica) {
            this.shard = shard;
            this.replica = replica;
        }

        void beat() {
            MessageBuilder request = plain ? Messages.ping() : Messages.heartbeat(frontend, known);
            long askedAt = generations.tick();
            long[] learnt = {known};
            replica.pinged(BackendClient.ping(tls, replica.address(), request, TIMEOUT_MILLIS, answer -> {
                if (answer.which() == Response.Which.STATUS) {
                    learnt[0] = answer.getStatus().getGeneration();
                    generations.learn(shard, learnt[0], askedAt);
                } else if (answer.which() == Response.Which.ERROR) {
                    // An older backend refuses a heartbeat as an unknown request: ping it plainly.
                    plain |= answer.getError().getCode() == Failure.Code.BAD_REQUEST;
                }
            }));
            if (learnt[0] != known) {
                // Says at once that it learnt the switch: an update is waiting for that.
                known = learnt[0];
                beat();
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
