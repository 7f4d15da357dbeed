package io.trigrep.frontend.store;

import java.util.Arrays;
import java.util.stream.IntStream;

/**
 * A query's results grouped by package: how many each package has, and each package's first
 * results in the query's order, for the web UI's package list and grouped pages.
 */
final class PackageGroups {
    private final ResultColumns columns;
    private final ResultOrder order;
    /** Counts of the first {@code results} published results. */
    @SuppressWarnings("ArrayRecordComponent") // a carrier handed out as is, never compared
    private record Counts(int results, int[] perPackage) {}

    // Volatile: page renderers on several threads may count at once; each sees a whole record.
    private volatile Counts counts;

    PackageGroups(ResultColumns columns, ResultOrder order) {
        this.columns = columns;
        this.order = order;
    }

    /**
     * Results per package id, counted once per published size and kept while it holds: every
     * page of a finished query's web UI shows them. Counts are of the published results, and a
     * publish that adds some makes them be counted again (counts kept by whether a result was
     * added could miss one published after they were taken). Callers must not change the array.
     */
    int[] packageCounts() {
        int total = columns.size();
        Counts c = counts;
        if (c == null || c.results() != total) {
            int[] perPackage = new int[columns.packages().size()];
            for (int i = 0; i < total; i++) {
                perPackage[columns.packageId(i)]++;
            }
            c = new Counts(total, perPackage);
            counts = c;
        }
        return c.perPackage();
    }

    /** Ids of the packages with results, most results first, then by name. */
    int[] packagesByCount() {
        int[] c = packageCounts();
        PackagePool pool = columns.packages();
        return IntStream.range(0, c.length)
                .filter(id -> c[id] > 0)
                .boxed()
                .sorted((a, b) -> c[a] != c[b]
                        ? Integer.compare(c[b], c[a])
                        : pool.name(a).compareTo(pool.name(b)))
                .mapToInt(Integer::intValue)
                .toArray();
    }

    /** The grouped view, from the full order (made here when nobody has): at most {@code perPackage} results of each package. */
    ResultIndex.Grouped grouped(int perPackage) {
        int[] c = packageCounts();
        int[] seen = new int[c.length];
        int[][] top = new int[c.length][];
        int[] filled = new int[c.length];
        int packagesSeen = 0;
        int total = columns.size();
        for (int rank = 0; rank < total; rank++) {
            int r = order.sorted(rank);
            int p = columns.packageId(r);
            if (top[p] == null) {
                top[p] = new int[Math.min(perPackage, c[p])];
                seen[packagesSeen++] = p;
            }
            if (filled[p] < top[p].length) {
                top[p][filled[p]++] = r;
            }
        }
        int[] packagesInOrder = Arrays.copyOf(seen, packagesSeen);
        int[] countsInOrder = new int[packagesSeen];
        int[][] topInOrder = new int[packagesSeen][];
        for (int i = 0; i < packagesSeen; i++) {
            countsInOrder[i] = c[packagesInOrder[i]];
            topInOrder[i] = top[packagesInOrder[i]];
        }
        return new ResultIndex.Grouped(packagesInOrder, countsInOrder, topInOrder);
    }
}
