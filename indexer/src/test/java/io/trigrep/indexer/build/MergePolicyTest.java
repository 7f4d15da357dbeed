package io.trigrep.indexer.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.segments.Generation;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The tiered merge policy keeps a shard's segments logarithmic in its size; updates go to the lightest shards. */
class MergePolicyTest {
    private static Generation.SegmentEntry segment(long id, long bytes) {
        return new Generation.SegmentEntry(id, 10, 0, bytes, null);
    }

    @Test
    void levelsAreFactorsOfTheFloor() {
        MergePolicy p = new MergePolicy(4, 1000);
        assertThat(p.level(0)).isZero();
        assertThat(p.level(3999)).isZero();
        assertThat(p.level(4000)).isEqualTo(1);
        assertThat(p.level(15_999)).isEqualTo(1);
        assertThat(p.level(16_000)).isEqualTo(2);
    }

    @Test
    void aFullLevelBecomesOneSegmentAndAMostlyDeletedOneIsRewritten() {
        MergePolicy p = new MergePolicy(3, 1000);
        List<Generation.SegmentEntry> segments = new ArrayList<>(
                List.of(segment(1, 100_000), segment(2, 10), segment(3, 20), segment(4, 2_000), segment(5, 30)));
        assertThat(p.choose(segments))
                .containsExactly(List.of(1, 2, 3, 4)); // 2,000 bytes is level 0 too (under 3 x 1000)
        segments.set(0, new Generation.SegmentEntry(1, 10, 6, 100_000, "seg-1.del-3.tgx"));
        assertThat(p.choose(segments)).containsExactly(List.of(1, 2, 3, 4), List.of(0));
        assertThat(MergePolicy.all(List.of(segment(1, 5)))).isEmpty();
        assertThat(MergePolicy.all(List.of(segment(1, 5), segment(2, 5)))).containsExactly(List.of(0, 1));
    }

    @Test
    void segmentsStayLogarithmicOverAThousandUpdates() {
        MergePolicy p = new MergePolicy(4, 1 << 20);
        Random random = new Random(7);
        List<Long> sizes = new ArrayList<>();
        long total = 0;
        int most = 0;
        for (int update = 0; update < 1000; update++) {
            long added = 1 + random.nextInt(8 << 20);
            sizes.add(added);
            total += added;
            List<Generation.SegmentEntry> entries = new ArrayList<>();
            for (int i = 0; i < sizes.size(); i++) {
                entries.add(segment(i, sizes.get(i)));
            }
            for (List<Integer> group : p.choose(entries)) {
                long merged = 0;
                for (int i : group) {
                    merged += sizes.get(i);
                    sizes.set(i, -1L);
                }
                sizes.add(merged);
            }
            sizes.removeIf(s -> s < 0);
            most = Math.max(most, sizes.size());
            int levels = p.level(total) + 1;
            assertThat(sizes.size()).as("after %d updates", update + 1).isLessThanOrEqualTo(3 * levels + 1);
        }
        assertThat(most).isLessThan(30);
    }

    @Test
    void newPackagesGoToTheLightestShardAndALargeOneIsSplit() {
        // Shard 0 holds 100 bytes, shard 1 none: a 50-byte package fits in shard 1's room.
        List<List<ShardAssigner.Range>> small =
                ShardAssigner.assign(List.of(new long[] {20, 30}), 2, new long[] {100, 0});
        assertThat(small.get(0)).isEmpty();
        assertThat(small.get(1)).containsExactly(new ShardAssigner.Range(0, 0, 2));
        // 300 new bytes on top of 100 and 0: quotas 200 each, so shard 1 takes 200 and shard 0 the rest.
        List<List<ShardAssigner.Range>> large =
                ShardAssigner.assign(List.of(new long[] {50, 50, 50, 50, 50, 50}), 2, new long[] {100, 0});
        assertThat(large.get(1)).containsExactly(new ShardAssigner.Range(0, 0, 4));
        assertThat(large.get(0)).containsExactly(new ShardAssigner.Range(0, 4, 6));
    }

    @Test
    void aNewVersionGoesWhereItsOldOneWasWhenItFits() {
        // Quotas of (70 + 60 + 40) / 2 = 85 leave shard 0 room for 15 and shard 1 for 25: shard 1 is the
        // roomiest, but the old version's shard 0 takes the 40 bytes within its slack of 30.
        List<List<ShardAssigner.Range>> placed = ShardAssigner.assign(
                List.of(new long[] {20, 20}),
                2,
                new long[] {70, 60},
                30,
                List.of(new ShardAssigner.Preference(0, null)));
        assertThat(placed.get(0)).containsExactly(new ShardAssigner.Range(0, 0, 2));
        assertThat(placed.get(1)).isEmpty();
        // Too large for the old shard's room (plus slack): the lightest shard takes it, as for a new package.
        List<List<ShardAssigner.Range>> moved = ShardAssigner.assign(
                List.of(new long[] {30, 30}),
                2,
                new long[] {90, 10},
                5,
                List.of(new ShardAssigner.Preference(0, null)));
        assertThat(moved.get(1)).containsExactly(new ShardAssigner.Range(0, 0, 2));
    }
}
