package io.trigrep.frontend.fanout;

/**
 * The newest generation the frontend knows of each shard (frontend/API.md, "Cached answers and
 * generations"), learnt from every message that carries one: each status poll and each search's
 * {@code Done}. Such messages are read out of order (a search that began on the old generation
 * ends after the switch; a status answer is read after a {@code Done} asked for later), so what is
 * known never goes back on a message that may be stale. It goes back only on an answer to a
 * request sent after the newest was learnt, for a backend serving generations in order can give
 * no such answer: its backend renumbered (restarted on an index built anew, or a plain shard's
 * {@code builtAtMillis} gave way to the first generation of its updates, 1).
 *
 * <p>Time here is a tick, not a clock: every request takes {@link #tick} before it is sent and
 * every change of the newest takes one, so "sent after it was learnt" is exact.
 */
public final class ShardGenerations {
    private final long[] newest;
    /** Per shard, the tick at which its newest was learnt (0: never). */
    private final long[] learntAt;
    /** Per shard, the tick at which its newest was last learnt lower than before (0: never). */
    private final long[] renumberedAt;
    /** Per shard, the first generation learnt (0: none yet), and how many times the newest changed. */
    private final long[] first;

    private final long[] changes;

    private long ticks;

    public ShardGenerations(int shards) {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be >= 1, got " + shards);
        }
        newest = new long[shards];
        learntAt = new long[shards];
        renumberedAt = new long[shards];
        first = new long[shards];
        changes = new long[shards];
    }

    public int shards() {
        return newest.length;
    }

    /** The tick a request takes before it is sent. */
    public synchronized long tick() {
        return ++ticks;
    }

    /** The newest generation known of {@code shard}; 0 while none is. */
    public synchronized long newest(int shard) {
        return newest[shard];
    }

    /** Every shard's newest, in shard order. */
    public synchronized long[] newest() {
        return newest.clone();
    }

    /**
     * Learns that {@code shard} answered a request sent at tick {@code askedAt} on
     * {@code generation} (0: the message did not say). True when that changed the newest.
     */
    public synchronized boolean learn(int shard, long generation, long askedAt) {
        long known = newest[shard];
        if (generation == 0 || generation == known) {
            return false;
        }
        boolean askedSince = askedAt > learntAt[shard];
        if (!askedSince) {
            // Asked before the newest was learnt: a lower generation is the old one read late; a
            // higher one is news, unless the newest came by a renumbering the answer may predate.
            boolean renumbered = renumberedAt[shard] == learntAt[shard];
            if (generation < known || renumbered) {
                return false;
            }
        }
        learntAt[shard] = ++ticks;
        if (generation < known) {
            renumberedAt[shard] = learntAt[shard];
        }
        if (changes[shard]++ == 0) {
            first[shard] = generation;
        }
        newest[shard] = generation;
        return true;
    }

    /**
     * Whether an answer of {@code shard} on {@code generation} to a request sent at tick
     * {@code askedAt} is of the newest generation known: the same number, and not one the shard
     * had before it was renumbered.
     */
    public synchronized boolean isNewest(int shard, long generation, long askedAt) {
        return generation == newest[shard] && askedAt > renumberedAt[shard];
    }

    /**
     * The generation a search begun before any of {@code shard}'s was known, on a backend that
     * does not say which it searched, is taken to have searched: the first one learnt (0 while
     * none is). Within a status poll of start-up a shard cannot be rebuilt unnoticed, and dropping
     * the answers given before the first poll would throw good answers away for nothing.
     */
    public synchronized long first(int shard) {
        return first[shard];
    }

    /** Whether {@code shard}'s newest is still the first generation learnt of it (or none is known). */
    public synchronized boolean onFirst(int shard) {
        return changes[shard] <= 1;
    }

    /**
     * Whether a search of {@code shard} asked at tick {@code askedAt} was asked after its newest
     * generation was learnt, and so runs on it or a later one: a search still streaming may be
     * joined only then.
     */
    public synchronized boolean askedSince(int shard, long askedAt) {
        return askedAt > learntAt[shard];
    }
}
