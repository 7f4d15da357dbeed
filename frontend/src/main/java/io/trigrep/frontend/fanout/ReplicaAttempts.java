package io.trigrep.frontend.fanout;

import io.netty.buffer.ByteBuf;
import io.trigrep.frontend.fanout.QueryRun.Replicated;
import io.trigrep.frontend.fanout.ShardStatus.Outcome;
import io.trigrep.frontend.store.StagedResults;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The attempts of one run at its shards' replicas. A shard is asked of one replica, and of
 * another when the first has sent nothing within the shard's hedge delay or has failed; the
 * first attempt to finish wins and the others are cut. An attempt on a replica whose pings fail
 * that has sent nothing for {@link #STALL_NANOS} is given up: a shard without a healthy replica
 * fails within about a second, not at the deadline. Its state is guarded by the run's monitor,
 * which a method takes itself unless it says that its caller holds it.
 */
final class ReplicaAttempts {
    /** An attempt silent this long on a replica whose pings fail is given up. */
    static final long STALL_NANOS = 500_000_000;

    /** How often the run looks for such attempts. */
    static final long WATCH_MILLIS = 100;

    private final QueryRun run;
    private final List<String> shards;
    /** The run's; guarded by the run. */
    private final ShardStatuses statuses;
    /** The run's writer: hedges and the watch run on it, in order with the frames. */
    private final Executor writer;
    /** Per shard, its attempts still answering; guarded by the run. */
    private final List<List<Attempt>> live = new ArrayList<>();
    /** Per shard, the replicas asked so far, each at most once a run; guarded by the run. */
    private final List<List<Replica>> tried = new ArrayList<>();
    /** Per shard, why each of its attempts that failed did; guarded by the run. */
    private final List<List<String>> failures = new ArrayList<>();
    /** How to ask replicas; null for a run whose streams are begun from outside ({@link QueryRun#ingest(int, ByteBuf, int, IntConsumer)}). */
    private volatile Replicated replicated;

    ReplicaAttempts(QueryRun run, List<String> shards, ShardStatuses statuses, Executor writer) {
        this.run = run;
        this.shards = shards;
        this.statuses = statuses;
        this.writer = writer;
        for (int i = 0; i < shards.size(); i++) {
            live.add(new ArrayList<>(2));
            tried.add(new ArrayList<>(2));
            failures.add(new ArrayList<>(0));
        }
    }

    /** Asks each shard of one of its replicas; returns the watch for attempts to give up, which runs until cancelled. */
    ScheduledFuture<?> start(Replicated how) {
        if (how.groups().size() != shards.size()) {
            throw new IllegalArgumentException(
                    how.groups().size() + " replica groups for a run of " + shards.size() + " shards");
        }
        replicated = how;
        for (int shard = 0; shard < shards.size(); shard++) {
            launch(shard, false, true);
        }
        return how.timer()
                .scheduleWithFixedDelay(
                        () -> writer.execute(this::watch), WATCH_MILLIS, WATCH_MILLIS, TimeUnit.MILLISECONDS);
    }

    /**
     * Asks {@code shard} of a replica it has not asked in this run: a healthy one, or, with
     * {@code orUnhealthy}, whichever is least bad. False when there is none or the shard is settled.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // a hedge check that finds the attempt over does nothing
    private boolean launch(int shard, boolean hedge, boolean orUnhealthy) {
        Replicated how = replicated;
        ReplicaGroup group = how.groups().get(shard);
        Attempt attempt;
        synchronized (run) {
            if (!statuses.running(shard)) {
                return false;
            }
            Replica replica = group.choose(tried.get(shard), orUnhealthy);
            if (replica == null) {
                return false;
            }
            tried.get(shard).add(replica);
            attempt = new Attempt(shard, replica, hedge, group.replicated() ? new StagedResults() : null);
            live.get(shard).add(attempt);
            replica.started();
        }
        attempt.replica.connections().ask(run, attempt, how.requests().apply(shard));
        if (group.replicated()) {
            how.timer()
                    .schedule(
                            () -> writer.execute(() -> hedge(attempt)), group.hedgeDelayNanos(), TimeUnit.NANOSECONDS);
        }
        return true;
    }

    /** {@code attempt} has sent nothing within its shard's hedge delay: the same is asked of another healthy replica. */
    private void hedge(Attempt attempt) {
        synchronized (run) {
            if (attempt.ended
                    || attempt.heardAny()
                    || !statuses.running(attempt.shard)
                    || live.get(attempt.shard).size() > 1) {
                return;
            }
        }
        if (launch(attempt.shard, true, false)) {
            replicated.metrics().hedgeSent(shards.get(attempt.shard));
        }
    }

    /** Gives up the attempts silent for {@link #STALL_NANOS} on replicas whose pings fail. On the writer. */
    private void watch() {
        long now = System.nanoTime();
        List<Attempt> stalled = new ArrayList<>();
        synchronized (run) {
            for (List<Attempt> attempts : live) {
                for (Attempt a : attempts) {
                    if (a.replica != null && !a.replica.healthy() && a.silentNanos(now) >= STALL_NANOS) {
                        stalled.add(a);
                    }
                }
            }
        }
        for (Attempt a : stalled) {
            String problem = a.replica.problem();
            if (problem != null && problem.startsWith("TLS ")) {
                // The handshake the attempt waits on fails as the ping's did (Tls.reason's words).
                failNow(a, Outcome.TLS, problem);
                continue;
            }
            failNow(
                    a,
                    Outcome.STALLED,
                    "no answer for " + TimeUnit.NANOSECONDS.toMillis(a.silentNanos(now)) + " ms, and "
                            + (problem == null ? "its pings failed" : "its ping failed: " + problem));
        }
    }

    /** {@code attempt}'s first bytes came at {@code now}: how soon its replica and shard answer. */
    void firstFrame(Attempt attempt, long now) {
        Replicated how = replicated;
        if (how != null && attempt.replica != null) {
            long nanos = now - attempt.startedNanos;
            attempt.replica.firstFrame(nanos);
            how.groups().get(attempt.shard).firstFrame(nanos);
        }
    }

    void attach(Attempt attempt, StreamHandler.Stream stream) {
        synchronized (run) {
            attempt.stream = stream;
            if (attempt.ended) {
                stream.stop();
                attempt.stream = null;
            }
        }
    }

    /** Whether what {@code attempt} sends still counts: it has not ended and its shard is running. */
    boolean counts(Attempt attempt) {
        synchronized (run) {
            return !attempt.ended && statuses.running(attempt.shard);
        }
    }

    /** The attempt of {@code shard} that frames come on when its streams are begun from outside the run. */
    Attempt direct(int shard) {
        synchronized (run) {
            List<Attempt> attempts = live.get(shard);
            if (attempts.isEmpty()) {
                Attempt a = new Attempt(shard, null, false, null);
                attempts.add(a);
                return a;
            }
            return attempts.get(0);
        }
    }

    /** Whether {@code shard} has more than one replica to ask. */
    boolean replicatedShard(int shard) {
        Replicated how = replicated;
        return how != null && how.groups().get(shard).replicated();
    }

    /**
     * Ends {@code attempt}: nothing more of it counts. Its connection is given back when its
     * answer ended as the protocol says ({@code answered}), else closed, which stops the backend.
     * Holds the run's monitor.
     */
    void end(Attempt attempt, boolean answered) {
        attempt.ended = true;
        live.get(attempt.shard).remove(attempt);
        if (attempt.replica != null) {
            attempt.replica.ended();
        }
        if (attempt.stream != null) {
            if (answered) {
                attempt.stream.answered();
            } else {
                attempt.stream.stop();
            }
            attempt.stream = null;
        }
    }

    /** Ends every attempt of {@code shard} still answering. Holds the run's monitor. */
    void endAll(int shard) {
        for (Attempt a : List.copyOf(live.get(shard))) {
            end(a, false);
        }
    }

    /** {@code attempt} finished first: the shard's other attempts are cut. Holds the run's monitor. */
    void won(Attempt attempt) {
        for (Attempt other : List.copyOf(live.get(attempt.shard))) {
            if (other != attempt) {
                end(other, false);
            }
        }
        Replicated how = replicated;
        if (how != null && attempt.replica != null) {
            how.metrics()
                    .replicaAnswered(
                            shards.get(attempt.shard),
                            attempt.replica.name(),
                            System.nanoTime() - attempt.startedNanos,
                            attempt.hedge);
        }
    }

    /**
     * {@code attempt} failed. Its replica is marked unhealthy when the fault is the backend's.
     * A shard with one replica fails with it; a replicated one goes on with its other attempt
     * still answering, or asks a healthy replica not asked yet (its staged results are dropped
     * with the failed attempt), and fails, naming every replica's reason, when there is none.
     * On the writer.
     */
    void failNow(Attempt attempt, Outcome outcome, String reason) {
        int shard = attempt.shard;
        synchronized (run) {
            if (!counts(attempt)) {
                return;
            }
            if (attempt.replica != null && outcome.backendFailed()) {
                attempt.replica.failed(reason);
            }
            if (!replicatedShard(shard)) {
                run.failNow(shard, outcome, reason);
                return;
            }
            end(attempt, false);
            failures.get(shard).add(attempt.replica.name() + ": " + reason);
            if (!live.get(shard).isEmpty()) {
                return;
            }
        }
        if (launch(shard, false, false)) {
            replicated.metrics().failover(shards.get(shard));
            return;
        }
        run.failNow(shard, outcome, noReplica(shard));
    }

    /** Why no replica of {@code shard} answered: each one asked, with its reason, and each one not asked, with its problem. */
    private String noReplica(int shard) {
        synchronized (run) {
            StringJoiner why = new StringJoiner("; ", "no replica answered: ", "");
            for (String failure : failures.get(shard)) {
                why.add(failure);
            }
            for (Replica r : replicated.groups().get(shard).replicas()) {
                if (!tried.get(shard).contains(r)) {
                    String problem = r.problem();
                    why.add(r.name() + ": not asked, " + (problem == null ? "unhealthy" : problem));
                }
            }
            return why.toString();
        }
    }
}
