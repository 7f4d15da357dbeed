package io.trigrep.frontend.fanout;

/**
 * The generation each shard of one run was searched on, held against what the frontend knows of
 * the shards' generations: whether the run may still be served or joined. Guarded by the run's
 * monitor, which every caller holds.
 */
final class SearchedGenerations {
    /** What the frontend knows of the shards' generations, shared by every run; told each {@code Done}'s. */
    private final ShardGenerations known;
    /** The tick of {@link #known} taken before any backend was asked. */
    private final long askedAt;
    /** Per shard, the newest generation known when the run began (0: none was). */
    private final long[] begunOn;
    /**
     * Per shard, the generation its answer was searched on: its {@code Done}'s, else (a backend
     * that does not say, or no {@code Done}) {@link #begunOn}, else (none was known yet) the
     * {@link ShardGenerations#first first} one known.
     */
    private final long[] searchedOn;

    /** Made before any backend is asked. */
    SearchedGenerations(ShardGenerations known, int shards) {
        if (known.shards() != shards) {
            throw new IllegalArgumentException("generations of " + known.shards() + " shards for a run of " + shards);
        }
        this.known = known;
        this.askedAt = known.tick();
        this.begunOn = known.newest();
        this.searchedOn = begunOn.clone();
    }

    /** The shard's {@code Done} named {@code generation}; 0 when it did not say. */
    void searched(int shard, long generation) {
        if (generation != 0) {
            searchedOn[shard] = generation;
            known.learn(shard, generation, askedAt);
        }
    }

    /**
     * Whether every shard that answered did so on the newest generation known of it
     * ({@link ShardGenerations#isNewest}), and every shard still streaming was asked after its
     * newest was learnt. A run whose shards answered on different generations is current as long
     * as each is its shard's newest.
     */
    boolean current(ShardStatuses statuses) {
        for (int shard = 0; shard < searchedOn.length; shard++) {
            if (statuses.running(shard)) {
                boolean onFirst = begunOn[shard] == 0 && known.onFirst(shard);
                if (!onFirst && !known.askedSince(shard, askedAt)) {
                    return false;
                }
                continue;
            }
            long on = searchedOn[shard] != 0 ? searchedOn[shard] : known.first(shard);
            if (!known.isNewest(shard, on, askedAt)) {
                return false;
            }
        }
        return true;
    }
}
