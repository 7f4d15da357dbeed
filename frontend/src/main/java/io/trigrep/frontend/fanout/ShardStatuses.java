package io.trigrep.frontend.fanout;

import io.trigrep.frontend.fanout.QueryRun.Capped;
import io.trigrep.frontend.fanout.ShardStatus.Outcome;
import io.trigrep.proto.Done;
import io.trigrep.proto.Failure;
import io.trigrep.proto.Progress;
import java.util.ArrayList;
import java.util.List;

/**
 * How each shard's part of one run stands: running, done or failed with its reason, how long it
 * took, the cap that ended it, and whether a backend stopped at its own deadline. Guarded by the
 * run's monitor, which every caller holds.
 */
final class ShardStatuses {
    private final ShardStatus[] statuses;
    /** Per shard, from the run's start to its last message or failure. */
    private final long[] nanos;
    /** Per shard, the cap that ended it, or null. */
    private final Capped[] capped;
    /** A backend answered "done" but stopped at its own deadline: what it found depended on its load. */
    private boolean cutByDeadline;

    private final long startedNanos;
    private final QueryCaps caps;

    ShardStatuses(List<String> shards, long startedNanos, QueryCaps caps) {
        this.statuses = new ShardStatus[shards.size()];
        for (int i = 0; i < statuses.length; i++) {
            statuses[i] = ShardStatus.running(shards.get(i));
        }
        this.nanos = new long[shards.size()];
        this.capped = new Capped[shards.size()];
        this.startedNanos = startedNanos;
        this.caps = caps;
    }

    boolean running(int shard) {
        return statuses[shard].state() == ShardStatus.State.RUNNING;
    }

    /** Whether every shard is done or failed. */
    boolean settled() {
        for (ShardStatus s : statuses) {
            if (s.state() == ShardStatus.State.RUNNING) {
                return false;
            }
        }
        return true;
    }

    /** A running shard's counts so far. */
    void progress(int shard, Progress.Reader p) {
        ShardStatus s = statuses[shard];
        if (s.state() == ShardStatus.State.RUNNING) {
            statuses[shard] = new ShardStatus(
                    s.shard(), s.state(), Outcome.OK, null, p.getResults(), p.getFilesSearched(), p.getTotalFiles());
        }
    }

    /** The shard's answer ended with {@code d}. */
    void done(int shard, Done.Reader d) {
        String reason = d.getTruncation() == Done.Truncation.NONE ? null : "truncated: " + d.getTruncation();
        cutByDeadline |= d.getTruncation() == Done.Truncation.DEADLINE;
        if (d.getTruncation() == Done.Truncation.MAX_RESULTS) {
            capped[shard] = new Capped(caps.resultsReason(), caps.maxResults());
        }
        statuses[shard] = new ShardStatus(
                statuses[shard].shard(),
                ShardStatus.State.DONE,
                Outcome.OK,
                reason,
                d.getResults(),
                d.getFilesSearched(),
                d.getTotalFiles());
        nanos[shard] = System.nanoTime() - startedNanos;
    }

    /** The shard's answer ended with the error {@code f}. */
    void error(int shard, Failure.Reader f) {
        statuses[shard] = ShardStatus.failed(
                statuses[shard].shard(),
                f.getCode() == Failure.Code.BAD_QUERY ? Outcome.BAD_QUERY : Outcome.ERROR,
                f.getCode() + ": " + f.getMessage());
        nanos[shard] = System.nanoTime() - startedNanos;
    }

    /** Fails the shard if it is still running; false when it was already done or failed. */
    boolean fail(int shard, Outcome outcome, String reason) {
        if (!running(shard)) {
            return false;
        }
        statuses[shard] = ShardStatus.failed(statuses[shard].shard(), outcome, reason);
        nanos[shard] = System.nanoTime() - startedNanos;
        return true;
    }

    /** The shard reached its part of a cap: it is done with what it sent so far. */
    void cap(int shard, Capped why) {
        capped[shard] = why;
        ShardStatus s = statuses[shard];
        statuses[shard] = new ShardStatus(
                s.shard(),
                ShardStatus.State.DONE,
                Outcome.OK,
                "capped: " + why.reason(),
                s.results(),
                s.filesSearched(),
                s.totalFiles());
        nanos[shard] = System.nanoTime() - startedNanos;
    }

    List<ShardStatus> all() {
        return List.of(statuses.clone());
    }

    List<ShardStatus> failed() {
        List<ShardStatus> out = new ArrayList<>();
        for (ShardStatus s : statuses) {
            if (s.state() == ShardStatus.State.FAILED) {
                out.add(s);
            }
        }
        return out;
    }

    /** The first capped shard's cap, in shard order, or null. */
    Capped capped() {
        for (Capped c : capped) {
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    long nanos(int shard) {
        return nanos[shard];
    }

    /** Whether every shard answered in full or refused the query as invalid ({@link QueryRun#reusable}). */
    boolean answeredInFull() {
        for (ShardStatus s : statuses) {
            if (s.state() != ShardStatus.State.DONE && s.outcome() != Outcome.BAD_QUERY) {
                return false;
            }
        }
        return !cutByDeadline;
    }
}
