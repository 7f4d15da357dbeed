package io.trigrep.frontend.store;

import static io.trigrep.frontend.store.ResultIndexTest.frame;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** Results grouped by package: counts, the package list's order, and the grouped page's first results. */
class PackageGroupsTest {
    @Test
    void packagesAreCountedListedByCountAndGroupedInTheOrderOfTheirBestResult() {
        ResultIndex index = new ResultIndex();
        // package, ranking: "b" has the best result, "a" the most results, "c" ties "d" in count (name breaks it)
        String[] packages = {"a", "a", "a", "b", "a", "c", "d", "b"};
        float[] rankings = {0.5f, 0.4f, 0.3f, 0.9f, 0.2f, 0.1f, 0.6f, 0.05f};
        long offset = 0;
        for (int i = 0; i < packages.length; i++) {
            ByteBuffer frame = frame(packages[i], "f" + i + ".c", rankings[i]);
            index.add(0, frame, offset);
            offset += frame.remaining();
        }
        index.sort();
        PackagePool pool = index.packages();
        int a = 0;
        int b = 1;
        int c = 2;
        int d = 3;
        assertThat(pool.name(a) + pool.name(b) + pool.name(c) + pool.name(d)).isEqualTo("abcd");
        assertThat(index.packageCounts()).containsExactly(4, 2, 1, 1);
        assertThat(index.packagesByCount()).containsExactly(a, b, c, d);

        ResultIndex.Grouped grouped = index.grouped(2);
        assertThat(grouped.packages())
                .as("by best result: b 0.9, d 0.6, a 0.5, c 0.1")
                .containsExactly(b, d, a, c);
        assertThat(grouped.counts()).containsExactly(2, 1, 4, 1);
        assertThat(grouped.top()[0]).containsExactly(3, 7);
        assertThat(grouped.top()[1]).containsExactly(6);
        assertThat(grouped.top()[2]).as("at most two per package, best first").containsExactly(0, 1);
        assertThat(grouped.top()[3]).containsExactly(5);
    }

    @Test
    void countsAreOfPublishedResultsKeptUntilOneIsAddedAndPackagesWithoutOneAreNotListed() {
        ResultIndex index = new ResultIndex();
        long offset = 0;
        String[] packages = {"b", "a", "b", "c", "a"};
        for (int i = 0; i < packages.length; i++) {
            ByteBuffer frame = frame(packages[i], "f.c", 0.5f);
            index.add(0, frame, offset);
            offset += frame.remaining();
        }
        index.publish();
        int[] counts = index.packageCounts();
        assertThat(counts).containsExactly(2, 2, 1);
        assertThat(index.packageCounts()).as("counted once, kept").isSameAs(counts);
        // Added but not yet published: its package is interned, yet pages see no result of it.
        ByteBuffer late = frame("z", "f.c", 0.9f);
        index.add(0, late, offset);
        assertThat(index.packageCounts())
                .as("the published results are the same: kept")
                .isSameAs(counts);
        assertThat(index.packagesByCount())
                .as("a tie in count goes to the name: a before b; z has none yet")
                .containsExactly(1, 0, 2);
        // Published, it counts: counts taken between the add and the publish do not stay (they once did).
        index.publish();
        assertThat(index.packageCounts()).as("counted again after a publish").containsExactly(2, 2, 1, 1);
        assertThat(index.packagesByCount()).containsExactly(1, 0, 2, 3);
    }

    @Test
    void aGroupHoldsAllOfAPackagesResultsWhenFewerThanAsked() {
        ResultIndex index = new ResultIndex();
        long offset = 0;
        String[] packages = {"a", "b", "a", "a"};
        float[] rankings = {0.1f, 0.5f, 0.3f, 0.2f};
        for (int i = 0; i < packages.length; i++) {
            ByteBuffer frame = frame(packages[i], "f" + i + ".c", rankings[i]);
            index.add(0, frame, offset);
            offset += frame.remaining();
        }
        index.sort();
        ResultIndex.Grouped grouped = index.grouped(10);
        assertThat(grouped.packages()).containsExactly(1, 0);
        assertThat(grouped.counts()).containsExactly(1, 3);
        assertThat(grouped.top()[0]).containsExactly(1);
        assertThat(grouped.top()[1]).containsExactly(2, 3, 0);
        ResultIndex.Grouped one = index.grouped(1);
        assertThat(one.top()[1]).containsExactly(2);
        assertThat(one.counts()).as("counts stay whole").containsExactly(1, 3);
    }

    /** A package interned by a result not yet published has a count of zero when counted: it is not listed. */
    @Test
    void aPackageCountedWithNoPublishedResultIsNotListed() {
        ResultIndex index = new ResultIndex();
        ByteBuffer first = frame("a", "f.c", 0.5f);
        index.add(0, first, 0);
        index.publish();
        index.add(0, frame("z", "f.c", 0.9f), first.remaining());
        assertThat(index.packageCounts())
                .as("z is interned, none of its results published")
                .containsExactly(1, 0);
        assertThat(index.packagesByCount()).containsExactly(0);
    }
}
