package io.trigrep.frontend.fanout;

import io.trigrep.frontend.store.StagedResults;

/**
 * One asking of a shard's part of a query, of one replica: the first, a hedge or a failover.
 * Its results go straight to the query's index when the shard has one replica; else they are
 * staged until the attempt wins, so that a losing or failed attempt leaves nothing behind. State
 * changes under its {@link QueryRun}'s monitor; {@link #heard} on the event loop.
 */
final class Attempt {
    final int shard;
    /** Null for a run driven without replicas (its streams attached by hand). */
    final Replica replica;

    final boolean hedge;
    final long startedNanos = System.nanoTime();
    /** Null when results go straight to the index. */
    final StagedResults staged;

    /** Bytes of result frames teed; on the query's writer. */
    long resultBytes;
    /** The connection answering, once it is attached; guarded by the run. */
    StreamHandler.Stream stream;
    /** Won, lost, failed or cut: nothing more of it counts; guarded by the run. */
    boolean ended;

    private volatile long lastHeardNanos = startedNanos;
    private volatile boolean heard;

    Attempt(int shard, Replica replica, boolean hedge, StagedResults staged) {
        this.shard = shard;
        this.replica = replica;
        this.hedge = hedge;
        this.staged = staged;
    }

    /** Bytes of its answer came: it is alive. Returns true for the first. */
    boolean heard(long nanos) {
        lastHeardNanos = nanos;
        if (heard) {
            return false;
        }
        heard = true;
        return true;
    }

    /** Whether any byte of its answer came. */
    boolean heardAny() {
        return heard;
    }

    /** Nanoseconds since its last byte came, or since it was asked. */
    long silentNanos(long now) {
        return now - lastHeardNanos;
    }
}
