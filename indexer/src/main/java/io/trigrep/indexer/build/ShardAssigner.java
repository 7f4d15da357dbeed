package io.trigrep.indexer.build;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Assigns whole packages to shards, balancing bytes: largest package first, each to the shard
 * with the fewest bytes so far (ties to the lowest shard number). Deterministic for the same input.
 */
final class ShardAssigner {
    private ShardAssigner() {}

    record Sized(String name, long bytes) {}

    /** Returns, per shard, the names of its packages in name order. */
    static List<List<String>> assign(List<Sized> packages, int shards) {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be >= 1, got " + shards);
        }
        List<Sized> order = new ArrayList<>(packages);
        order.sort(Comparator.comparingLong(Sized::bytes).reversed().thenComparing(Sized::name));
        long[] load = new long[shards];
        List<List<String>> result = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            result.add(new ArrayList<>());
        }
        for (Sized p : order) {
            int best = 0;
            for (int s = 1; s < shards; s++) {
                if (load[s] < load[best]) {
                    best = s;
                }
            }
            load[best] += p.bytes();
            result.get(best).add(p.name());
        }
        for (List<String> shard : result) {
            shard.sort(Comparator.naturalOrder());
        }
        return result;
    }
}
