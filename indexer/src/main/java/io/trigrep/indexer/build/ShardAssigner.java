package io.trigrep.indexer.build;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Assigns files to shards, balancing bytes whatever the corpus looks like. Each shard has a quota
 * (the total split as evenly as bytes allow). Packages go largest first (ties: lower index), each
 * whole to the shard with the most room left (ties: lowest shard) when it fits there. The ones
 * that do not fit are split last, over the room the others left: by files in their read order,
 * in stripes of about {@link #STRIPE_BYTES}, each stripe to the shard with the most room left when
 * it starts. A stripe also ends early when its shard is full (a file goes in while that overshoots
 * less than it would leave unused). Small packages thus stay whole while large ones (a kernel
 * tree) spread, and spread evenly: matches cluster by folder (the kernel's {@code struct} lines
 * mostly under {@code drivers/}), so a tree cut in halves gave one backend four times the other's
 * results, where stripes give each shard its share of any query's. Without files bound to a
 * shard ({@link Preference#paths}), a shard's room never drops below minus one file (whole
 * packages only go where they fit; a stripe overshoots by less than the file it adds), and the
 * rooms sum to zero, so each shard is within (shards - 1) times the largest file of its quota; in
 * practice within about one file. A bound file goes to its shard whatever the room, in place of
 * its older version, so it moves that shard off its quota by what it grew. Deterministic for the
 * same input.
 */
final class ShardAssigner {
    /**
     * A split package's stripe. Small enough that any folder large enough to matter (a driver
     * family, the arch trees) lands on every shard; large enough that a kernel tree makes about a
     * thousand slices to copy, not one per file.
     */
    static final long STRIPE_BYTES = 1 << 20;

    private ShardAssigner() {}

    /** Files {@code [from, to)} of package {@code pkg} (indices into the input lists). */
    record Range(int pkg, int from, int to) {}

    /**
     * Returns, per shard, the ranges it holds ordered by package then file. {@code fileBytes.get(p)}
     * are package p's file sizes in read order.
     */
    static List<List<Range>> assign(List<long[]> fileBytes, int shards) {
        return assign(fileBytes, shards, new long[shards]);
    }

    static List<List<Range>> assign(List<long[]> fileBytes, int shards, long[] held) {
        return assign(fileBytes, shards, held, 0, noPreference(fileBytes.size()));
    }

    /**
     * Where an update would put a package's files, near their older version. {@code shard}: the
     * shard that held the whole older version, -1 for none; the package goes there whole when it
     * has the room. Else {@code paths}: per file in read order, the shard that held its path, -1
     * for none (null: no file has one); such a file goes there whatever the room, so that one
     * backend's switch to the new generation swaps the two versions at once.
     */
    @SuppressWarnings("ArrayRecordComponent") // a carrier, never compared
    record Preference(int shard, int[] paths) {
        static final Preference NONE = new Preference(-1, null);
    }

    /** No preference for any of {@code packages} packages. */
    static List<Preference> noPreference(int packages) {
        return Collections.nCopies(packages, Preference.NONE);
    }

    /**
     * As {@link #assign(List, int)}, onto shards that already hold {@code held[s]} bytes: the quotas
     * split the old and new bytes together evenly, so new packages go to the lightest shards and
     * a package larger than the room there (plus {@code slack} bytes) is split as a fresh build
     * splits it. An update uses the slack so that a new version a little larger than the room its
     * old one left stays whole, one segment instead of two; the next update goes to the lightest
     * shard again, so the imbalance stays within the slack and a package. {@code preferred.get(p)}
     * is package p's {@link Preference}; the files a package's does not place are placed as a
     * package of their own.
     */
    static List<List<Range>> assign(
            List<long[]> fileBytes, int shards, long[] held, long slack, List<Preference> preferred) {
        return assign(fileBytes, shards, held, slack, preferred, STRIPE_BYTES);
    }

    /** As {@link #assign(List, int, long[], long, List)}, with stripes of {@code stripeBytes}. */
    static List<List<Range>> assign(
            List<long[]> fileBytes, int shards, long[] held, long slack, List<Preference> preferred, long stripeBytes) {
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
        List<Unit> split = new ArrayList<>();
        for (int p : order) {
            long[] files = fileBytes.get(p);
            if (files.length == 0) {
                continue;
            }
            Preference want = preferred.get(p);
            int whole = want.shard();
            if (whole >= 0 && whole < shards && packageBytes[p] <= room[whole] + slack) {
                room[whole] -= packageBytes[p];
                result.get(whole).add(new Range(p, 0, files.length));
                continue;
            }
            int[] rest = new int[files.length];
            int n = 0;
            long restBytes = 0;
            for (int f = 0; f < files.length; f++) {
                int bound = want.paths() == null ? -1 : want.paths()[f];
                if (bound >= 0 && bound < shards) {
                    room[bound] -= files[f];
                    result.get(bound).add(new Range(p, f, f + 1));
                } else {
                    rest[n++] = f;
                    restBytes += files[f];
                }
            }
            Unit unit = new Unit(p, Arrays.copyOf(rest, n));
            int shard = roomiest(room);
            if (n > 0 && restBytes <= room[shard] + slack) {
                room[shard] -= restBytes;
                addRuns(result.get(shard), unit, 0, n);
            } else if (n > 0) {
                split.add(unit);
            }
        }
        for (Unit unit : split) {
            stripe(unit, fileBytes.get(unit.pkg()), room, stripeBytes, result);
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

    /** Some files of package {@code pkg}, by index in read order, ascending. */
    @SuppressWarnings("ArrayRecordComponent") // a carrier, never compared
    private record Unit(int pkg, int[] files) {}

    /** Adds files {@code [a, b)} of {@code unit} to {@code into}: one range per run of consecutive files. */
    private static void addRuns(List<Range> into, Unit unit, int a, int b) {
        int[] files = unit.files();
        int from = a;
        for (int i = a + 1; i <= b; i++) {
            if (i == b || files[i] != files[i - 1] + 1) {
                into.add(new Range(unit.pkg(), files[from], files[i - 1] + 1));
                from = i;
            }
        }
    }

    /**
     * Places a unit's files in stripes, each to the roomiest shard when it starts. A stripe ends at
     * {@code stripeBytes}, or early when the next file would overshoot its shard's quota by more
     * than it leaves unused; the roomiest shard may be the same one still.
     */
    private static void stripe(Unit unit, long[] sizes, long[] room, long stripeBytes, List<List<Range>> result) {
        int[] files = unit.files();
        int shard = roomiest(room);
        int from = 0;
        long striped = 0;
        for (int i = 0; i < files.length; i++) {
            long size = sizes[files[i]];
            if (i > from && (striped >= stripeBytes || 2 * room[shard] < size)) {
                int next = roomiest(room);
                if (next != shard) {
                    addRuns(result.get(shard), unit, from, i);
                    from = i;
                    shard = next;
                }
                striped = 0;
            }
            room[shard] -= size;
            striped += size;
        }
        addRuns(result.get(shard), unit, from, files.length);
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
