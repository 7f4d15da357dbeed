package io.trigrep.indexer.build;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A package too large for one shard is striped over all of them, so a query whose matches cluster
 * in one folder of it still finds them spread evenly over the backends.
 */
class ShardAssignerTest {
    private static final long STRIPE = 1_000;
    private static final int LARGEST_FILE = 300;

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 4, 7})
    void everyFolderOfASplitPackageIsSpreadOverTheShards(int shards) {
        Random random = new Random(shards);
        for (int round = 0; round < 20; round++) {
            long[] files = new long[4_000 + random.nextInt(2_000)];
            for (int f = 0; f < files.length; f++) {
                files[f] = 1 + random.nextInt(LARGEST_FILE);
            }
            List<List<ShardAssigner.Range>> assigned = assign(List.of(files), shards);
            int[] shardOf = shardOfEachFile(assigned, files.length);

            long total = Arrays.stream(files).sum();
            long[] load = new long[shards];
            for (int f = 0; f < files.length; f++) {
                load[shardOf[f]] += files[f];
            }
            for (int s = 0; s < shards; s++) {
                assertThat(Math.abs(load[s] - total / shards))
                        .as("shard %d's bytes off its quota", s)
                        .isLessThanOrEqualTo((long) (shards - 1) * LARGEST_FILE + 1);
            }

            // A folder of about 40 stripes anywhere in the package: rooms stay within one stripe and
            // one file of each other at every stripe's end, so each shard holds its share of the
            // folder within twice that, plus a stripe cut at each of the folder's ends.
            int start = random.nextInt(files.length / 2);
            long folder = 0;
            long[] share = new long[shards];
            for (int f = start; f < files.length && folder < 40 * STRIPE; f++) {
                folder += files[f];
                share[shardOf[f]] += files[f];
            }
            for (int s = 0; s < shards; s++) {
                assertThat(Math.abs(share[s] - folder / shards))
                        .as(
                                "round %d: shard %d's share of a folder of %d bytes, shares %s",
                                round, s, folder, Arrays.toString(share))
                        .isLessThanOrEqualTo(4 * (STRIPE + LARGEST_FILE));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void packagesThatFitStayWholeNextToAStripedOne(int shards) {
        long[] large = new long[3_000];
        Arrays.fill(large, 100);
        long[] small = {400, 500, 600};
        List<List<ShardAssigner.Range>> assigned = assign(List.of(small, large, small.clone()), shards);
        assertThat(assigned.stream().flatMap(List::stream).filter(r -> r.pkg() != 1))
                .hasSize(2)
                .allMatch(r -> r.from() == 0 && r.to() == small.length);
        // 300,000 bytes in stripes of 1,000 that take turns over the shards: about 300 ranges.
        assertThat(assigned.stream()
                        .flatMap(List::stream)
                        .filter(r -> r.pkg() == 1)
                        .count())
                .isGreaterThan(250);
        assertThat(assign(List.of(small, large, small.clone()), shards)).isEqualTo(assigned);
    }

    @Test
    void aFileBoundToAShardGoesThereWhateverTheRoom() {
        // Shard 0 is full: a package that would only like it goes to shard 1, a file bound to it does not.
        long[] held = {1_000, 800};
        assertThat(ShardAssigner.assign(
                        List.of(new long[] {100}), 2, held, 50, List.of(new ShardAssigner.Preference(0, null)), STRIPE))
                .containsExactly(List.of(), List.of(new ShardAssigner.Range(0, 0, 1)));
        assertThat(ShardAssigner.assign(
                        List.of(new long[] {100}),
                        2,
                        held,
                        50,
                        List.of(new ShardAssigner.Preference(-1, new int[] {0})),
                        STRIPE))
                .containsExactly(List.of(new ShardAssigner.Range(0, 0, 1)), List.of());
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void filesBoundToAShardGoThereAndTheOthersAreStriped(int shards) {
        // A new version of a package spread over the shards: every tenth file held its path on
        // shard (f / 10) % shards before, the rest are new and too many for one shard's room.
        long[] files = new long[3_000];
        Arrays.fill(files, 100);
        int[] paths = new int[files.length];
        for (int f = 0; f < files.length; f++) {
            paths[f] = f % 10 == 0 ? (f / 10) % shards : -1;
        }
        List<List<ShardAssigner.Range>> assigned = ShardAssigner.assign(
                List.of(files), shards, new long[shards], 0, List.of(new ShardAssigner.Preference(-1, paths)), STRIPE);
        int[] shardOf = shardOfEachFile(assigned, files.length);
        int[] load = new int[shards];
        for (int f = 0; f < files.length; f++) {
            if (paths[f] >= 0) {
                assertThat(shardOf[f]).as("file %d", f).isEqualTo(paths[f]);
            }
            load[shardOf[f]]++;
        }
        // The others are striped: each shard ends within a stripe (ten files) of its share.
        assertThat(Arrays.stream(load).boxed()).allMatch(n -> Math.abs(n - files.length / shards) <= 10);
    }

    private static List<List<ShardAssigner.Range>> assign(List<long[]> packages, int shards) {
        return ShardAssigner.assign(
                packages, shards, new long[shards], 0, ShardAssigner.noPreference(packages.size()), STRIPE);
    }

    /** Each file of package 0 once, on the shard whose range holds it. */
    private static int[] shardOfEachFile(List<List<ShardAssigner.Range>> assigned, int files) {
        int[] shardOf = new int[files];
        Arrays.fill(shardOf, -1);
        for (int s = 0; s < assigned.size(); s++) {
            for (ShardAssigner.Range r : assigned.get(s)) {
                for (int f = r.from(); f < r.to(); f++) {
                    assertThat(shardOf[f]).as("file %d placed twice", f).isEqualTo(-1);
                    shardOf[f] = s;
                }
            }
        }
        assertThat(shardOf).doesNotContain(-1);
        return shardOf;
    }
}
