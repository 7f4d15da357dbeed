package io.trigrep.indexer.build;

import io.trigrep.indexer.filter.SkipReason;
import io.trigrep.indexer.format.Manifest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;

/** Where every file goes: per shard its slices and its skipped counts by reason; every skipped file in order. */
record Placement(
        List<List<ShardBuilder.Slice>> slices,
        List<Map<String, Manifest.Skipped>> skippedCounts,
        List<IndexBuilder.SkippedFile> skipped,
        List<IndexBuilder.PackagePlaced> packages) {
    /**
     * Assigns the files of every package (in package order, then read order) to shards, and each
     * package's skipped files to the shard holding its first file (shard 0 when it has none), so
     * the manifests' counts sum to the corpus totals.
     */
    @SuppressWarnings(
            "EnumOrdinal") // counts per skip reason in an array indexed by ordinal, read back in values() order here
    static Placement of(List<ReadPackage> read, IndexBuilder.Plan plan) throws IOException {
        int shards = plan.shards();
        List<long[]> fileBytes = new ArrayList<>();
        for (ReadPackage p : read) {
            long[] sizes = new long
                    [p.parts().stream().mapToInt(part -> part.files().size()).sum()];
            int i = 0;
            for (SpooledPart part : p.parts()) {
                for (SpooledPart.SpooledFile f : part.files()) {
                    sizes[i++] = f.length();
                }
            }
            fileBytes.add(sizes);
        }
        List<List<ShardAssigner.Range>> assignment = plan.assign().assign(read, fileBytes, shards);
        int[] skipShard = new int[read.size()];
        List<SortedSet<Integer>> held = new ArrayList<>();
        for (int p = 0; p < read.size(); p++) {
            held.add(new TreeSet<>());
        }
        List<List<ShardBuilder.Slice>> slices = new ArrayList<>();
        for (int shard = 0; shard < shards; shard++) {
            List<ShardBuilder.Slice> mine = new ArrayList<>();
            for (ShardAssigner.Range range : assignment.get(shard)) {
                held.get(range.pkg()).add(shard);
                if (range.from() == 0) {
                    skipShard[range.pkg()] = shard;
                }
                addSlices(read.get(range.pkg()).parts(), range.from(), range.to(), mine);
            }
            slices.add(mine);
        }
        long[][][] counts = new long[shards][SkipReason.values().length][2];
        List<IndexBuilder.SkippedFile> skipped = new ArrayList<>();
        for (int p = 0; p < read.size(); p++) {
            for (SpooledPart part : read.get(p).parts()) {
                for (SpooledPart.Skipped s : part.skipped()) {
                    skipped.add(new IndexBuilder.SkippedFile(part.packageName(), s.path(), s.reason(), s.bytes()));
                    long[] c = counts[skipShard[p]][s.reason().ordinal()];
                    c[0]++;
                    c[1] += s.bytes();
                }
            }
        }
        List<Map<String, Manifest.Skipped>> skippedCounts = new ArrayList<>();
        for (int shard = 0; shard < shards; shard++) {
            Map<String, Manifest.Skipped> byReason = new LinkedHashMap<>();
            for (SkipReason reason : SkipReason.values()) {
                long[] c = counts[shard][reason.ordinal()];
                byReason.put(reason.key(), new Manifest.Skipped(c[0], c[1]));
            }
            skippedCounts.add(byReason);
        }
        List<IndexBuilder.PackagePlaced> placed = new ArrayList<>();
        for (int p = 0; p < read.size(); p++) {
            placed.add(new IndexBuilder.PackagePlaced(read.get(p).name(), new ArrayList<>(held.get(p)), skipShard[p]));
        }
        return new Placement(slices, skippedCounts, List.copyOf(skipped), List.copyOf(placed));
    }

    /** The slices of parts that hold a package's files {@code [from, to)} (counted over all its parts). */
    private static void addSlices(List<SpooledPart> parts, int from, int to, List<ShardBuilder.Slice> into) {
        int base = 0;
        for (SpooledPart part : parts) {
            int n = part.files().size();
            int a = Math.max(from, base);
            int b = Math.min(to, base + n);
            if (a < b) {
                into.add(new ShardBuilder.Slice(part, a - base, b - base));
            }
            base += n;
        }
    }
}
