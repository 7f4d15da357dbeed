package io.trigrep.indexer.build;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Assigns files to shards, balancing bytes whatever the corpus looks like. Each shard has a quota
 * (the total split as evenly as bytes allow). Packages go largest first (ties: lower index) to
 * the shard with the most room left (ties: lowest shard): whole when they fit in it, otherwise
 * split by files in their read order, filling that shard to its quota (a file goes in while that
 * overshoots less than it would leave unused), then the next roomiest, and so on. Small packages
 * thus stay whole while large ones (a kernel tree) spread. A shard's room never drops below
 * minus one file (whole packages only go where they fit; a split fill overshoots by less than the
 * file it adds), and the rooms sum to zero, so each shard is within (shards - 1) times the
 * largest file of its quota; in practice within about one file. Deterministic for the same input.
 */
final class ShardAssigner {
    private ShardAssigner() {}

    /** Files {@code [from, to)} of package {@code pkg} (indices into the input lists). */
    record Range(int pkg, int from, int to) {}

    /**
     * Returns, per shard, the ranges it holds ordered by package then file. {@code fileBytes.get(p)}
     * are package p's file sizes in read order.
     */
    static List<List<Range>> assign(List<long[]> fileBytes, int shards) {
        int[] none = new int[fileBytes.size()];
        java.util.Arrays.fill(none, -1);
        return assign(fileBytes, shards, new long[shards], 0, none);
    }

    static List<List<Range>> assign(List<long[]> fileBytes, int shards, long[] held) {
        int[] none = new int[fileBytes.size()];
        java.util.Arrays.fill(none, -1);
        return assign(fileBytes, shards, held, 0, none);
    }

    /**
     * As {@link #assign(List, int)}, onto shards that already hold {@code held[s]} bytes: the quotas
     * split the old and new bytes together evenly, so new packages go to the lightest shards and
     * a package larger than the room there (plus {@code slack} bytes) is split as a fresh build
     * splits it. An update uses the slack so that a new version a little larger than the room its
     * old one left stays whole, one segment instead of two; the next update goes to the lightest
     * shard again, so the imbalance stays within the slack and a package. A package whose
     * {@code preferred} shard ({@code preferred[p]}, -1 for none) has that room goes there whole
     * instead: an update puts a new version where its old one was, so one backend's switch to
     * the new generation swaps the two at once.
     */
    static List<List<Range>> assign(List<long[]> fileBytes, int shards, long[] held, long slack, int[] preferred) {
        if (held.length != shards) {
            throw new IllegalArgumentException(held.length + " loads for " + shards + " shards");
        }
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be >= 1, got " + shards);
        }
        long[] packageBytes = new long[fileBytes.size()];
        long total = 0;
        for (int p = 0; p < packageBytes.length; p++) {
            for (long b : fileBytes.get(p)) {
                packageBytes[p] += b;
            }
            total += packageBytes[p];
        }
        for (long h : held) {
            total += h;
        }
        long[] room = new long[shards];
        for (int s = 0; s < shards; s++) {
            room[s] = total * (s + 1) / shards - total * s / shards - held[s];
        }
        List<Integer> order = new ArrayList<>();
        for (int p = 0; p < packageBytes.length; p++) {
            order.add(p);
        }
        order.sort(Comparator.comparingLong((Integer p) -> -packageBytes[p]).thenComparingInt(p -> p));
        List<List<Range>> result = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            result.add(new ArrayList<>());
        }
        for (int p : order) {
            long[] files = fileBytes.get(p);
            if (files.length == 0) {
                continue;
            }
            int want = preferred[p];
            int shard = want >= 0 && want < shards && packageBytes[p] <= room[want] + slack ? want : roomiest(room);
            if (packageBytes[p] <= room[shard] + slack) {
                room[shard] -= packageBytes[p];
                result.get(shard).add(new Range(p, 0, files.length));
                continue;
            }
            int from = 0;
            for (int f = 0; f < files.length; f++) {
                // Move on when this file would overshoot the shard's quota by more than it leaves unused.
                if (f > from && 2 * room[shard] < files[f]) {
                    int next = roomiest(room);
                    if (next == shard) {
                        room[shard] -= files[f];
                        continue;
                    }
                    result.get(shard).add(new Range(p, from, f));
                    from = f;
                    shard = next;
                }
                room[shard] -= files[f];
            }
            result.get(shard).add(new Range(p, from, files.length));
        }
        for (int s = 0; s < shards; s++) {
            List<Range> ranges = result.get(s);
            ranges.sort(Comparator.comparingInt(Range::pkg).thenComparingInt(Range::from));
            List<Range> merged = new ArrayList<>();
            for (Range r : ranges) {
                Range last = merged.isEmpty() ? null : merged.get(merged.size() - 1);
                if (last != null && last.pkg() == r.pkg() && last.to() == r.from()) {
                    merged.set(merged.size() - 1, new Range(r.pkg(), last.from(), r.to()));
                } else {
                    merged.add(r);
                }
            }
            result.set(s, merged);
        }
        return result;
    }

    private static int roomiest(long[] room) {
        int best = 0;
        for (int s = 1; s < room.length; s++) {
            if (room[s] > room[best]) {
                best = s;
            }
        }
        return best;
    }
}
