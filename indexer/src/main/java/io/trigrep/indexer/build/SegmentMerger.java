package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.indexer.segments.Segment;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Folds segments of a shard into one: their live files re-indexed, package by package in their
 * original read order with their stored weight, from the contents the index holds (nothing is
 * filtered out again), so deleted files are gone and the merged segment holds what they held.
 * One commit for all the shards' merges ({@link IndexFolder#commit}).
 */
final class SegmentMerger {
    private final IndexBuilder.Options options;
    private final Clock clock;
    private final MergePolicy policy;

    /** {@code options} as segments of the index are built (its choice of symbols). */
    SegmentMerger(IndexBuilder.Options options, Clock clock, MergePolicy policy) {
        this.options = options;
        this.clock = clock;
        this.policy = policy;
    }

    /**
     * Folds segments: with {@code full}, every shard's segments into one, dropping every deleted
     * file; otherwise what the tiered policy picks. Commits one generation for all of it, or none
     * when there is nothing to merge.
     */
    IndexUpdater.Result merge(Path root, boolean full, Consumer<String> errors)
            throws IOException, InterruptedException {
        return merge(root, full ? Mode.FULL : Mode.TIERED, errors);
    }

    /** What a merge folds. */
    enum Mode {
        /** What the tiered policy picks, shard by shard. */
        TIERED,
        /** Every shard's segments into one, each file staying in its shard. */
        FULL,
        /** Every live file re-placed over the shards as a fresh build places them. */
        REBALANCE
    }

    IndexUpdater.Result merge(Path root, Mode mode, Consumer<String> errors) throws IOException, InterruptedException {
        Closeable lock = IndexFolder.lock(root);
        try {
            return mergeLocked(root, mode, errors);
        } finally {
            lock.close();
        }
    }

    private IndexUpdater.Result mergeLocked(Path root, Mode mode, Consumer<String> errors)
            throws IOException, InterruptedException {
        Generation g = IndexFolder.settle(root);
        List<WorkingShard> shards = WorkingShard.open(root, g);
        try {
            long next = g.nextSegment();
            int merged = 0;
            int into = 0;
            List<Generation.ShardEntry> entries = new ArrayList<>();
            // Merges read what the index holds: no file it holds is filtered out again.
            IndexBuilder.Options mergeOptions = new IndexBuilder.Options(
                    options.shards(),
                    new FilterLimits(FilterLimits.MAX_FILE_BYTES, false),
                    options.popularity(),
                    options.threads(),
                    options.pairBuffer(),
                    options.symbols());
            if (mode == Mode.REBALANCE) {
                return rebuild(root, g, shards, mergeOptions, errors);
            }
            for (int k = 0; k < shards.size(); k++) {
                WorkingShard w = shards.get(k);
                List<List<Integer>> groups = mode == Mode.FULL ? MergePolicy.all(w.entries) : policy.choose(w.entries);
                List<Generation.SegmentEntry> segments = new ArrayList<>(w.entries);
                for (List<Integer> group : groups) {
                    long id = next++;
                    Generation.SegmentEntry result =
                            mergeGroup(root, shards, k, group, id, g.repositories(), mergeOptions, errors);
                    merged += group.size();
                    int first = group.get(0);
                    for (int i : group) {
                        segments.set(i, null);
                    }
                    if (result != null) {
                        segments.set(first, result);
                        into++;
                    }
                }
                segments.removeIf(Objects::isNull);
                entries.add(new Generation.ShardEntry(
                        w.name, segments, g.shards().get(k).skipped()));
            }
            if (merged == 0) {
                return unchanged(g);
            }
            return commit(
                    root, g, new Generation(g.number() + 1, next, g.symbols(), entries, g.packages()), merged, into);
        } finally {
            WorkingShard.close(shards);
        }
    }

    private static IndexUpdater.Result unchanged(Generation g) {
        return new IndexUpdater.Result(
                g.number(), g.number(), List.of(), List.of(), List.of(), List.of(), Map.of(), List.of(), 0, 0, null);
    }

    /**
     * A rebalancing merge: every live file of the index re-indexed at once and placed on the
     * shards as a fresh build places them (packages in name order, largest first to the roomiest
     * shard, large ones split), so that shards that drifted apart under removals are balanced
     * again; each shard becomes one segment. Skipped-file counts follow their packages to their
     * new shards. A package that moves is in no single backend's switch: while the backends
     * switch one after the other, a query may see it twice or not at all (FORMAT.md).
     */
    private IndexUpdater.Result rebuild(
            Path root,
            Generation g,
            List<WorkingShard> shards,
            IndexBuilder.Options mergeOptions,
            Consumer<String> errors)
            throws IOException, InterruptedException {
        Map<String, SegmentPackage> packages = new TreeMap<>();
        Map<String, GitRefs> repositories = g.repositories();
        int live = 0;
        int before = 0;
        for (WorkingShard w : shards) {
            for (Segment seg : w.segments) {
                // A merge writes new checksums over what it reads: it reads only what checks.
                seg.verify();
                DocTable table = seg.shard().docs();
                for (int p = 0; p < table.packageCount(); p++) {
                    String name = table.packageName(p);
                    float weight = table.packageWeight(p);
                    packages.computeIfAbsent(name, n -> new SegmentPackage(n, weight, repositories.get(n)))
                            .add(seg, p);
                }
                live += seg.liveDocs();
                before++;
            }
        }
        packages.values().removeIf(p -> p.docCount() == 0);
        Map<String, Float> weights = new HashMap<>();
        for (SegmentPackage p : packages.values()) {
            weights.put(p.name(), p.weight());
        }
        long base = g.nextSegment();
        List<String> problems = new ArrayList<>();
        IndexBuilder.Report report = new IndexBuilder(mergeOptions, clock)
                .run(
                        new ArrayList<>(packages.values()),
                        root,
                        new IndexBuilder.Plan(
                                shards.size(),
                                (read, fileBytes, n) -> ShardAssigner.assign(fileBytes, n),
                                k -> shards.get(k).folder.resolve("seg-" + (base + k)),
                                true,
                                name -> weights.getOrDefault(name, 1f)),
                        message -> {
                            problems.add(message);
                            errors.accept(message);
                        });
        int docs = 0;
        for (BuiltShard b : report.shards()) {
            docs += b.docs();
        }
        if (!problems.isEmpty() || docs != live) {
            throw new IOException("the full merge gave " + docs + " docs, not the " + live + " live ones"
                    + (problems.isEmpty() ? "" : ": " + problems.get(0)) + "; nothing was committed");
        }
        // Skipped counts move with their packages; counts of packages not known one by one (an
        // index converted from plain shards) stay where they were.
        Map<String, Integer> skipShard = new HashMap<>();
        for (IndexBuilder.PackagePlaced p : report.packages()) {
            skipShard.put(p.name(), p.skipShard());
        }
        List<Map<String, long[]>> skipped = new ArrayList<>();
        for (WorkingShard w : shards) {
            Map<String, long[]> counts = new LinkedHashMap<>();
            w.skipped.forEach((reason, c) -> counts.put(reason, c.clone()));
            skipped.add(counts);
        }
        List<Generation.PackageEntry> ledger = new ArrayList<>();
        for (Generation.PackageEntry p : g.packages()) {
            int to = skipShard.getOrDefault(p.name(), p.skipShard());
            if (p.skipShard() >= 0 && to >= 0 && to != p.skipShard()) {
                p.skipped().forEach((reason, c) -> {
                    long[] from = skipped.get(p.skipShard()).computeIfAbsent(reason, r -> new long[2]);
                    from[0] -= c.files();
                    from[1] -= c.bytes();
                    long[] into = skipped.get(to).computeIfAbsent(reason, r -> new long[2]);
                    into[0] += c.files();
                    into[1] += c.bytes();
                });
            }
            ledger.add(new Generation.PackageEntry(
                    p.name(), p.skipShard() >= 0 ? to : p.skipShard(), p.skipped(), p.refs()));
        }
        List<Generation.ShardEntry> entries = new ArrayList<>();
        for (int k = 0; k < shards.size(); k++) {
            BuiltShard b = report.shards().get(k);
            Map<String, Manifest.Skipped> counts = new LinkedHashMap<>();
            skipped.get(k)
                    .forEach((reason, c) ->
                            counts.put(reason, new Manifest.Skipped(Math.max(0, c[0]), Math.max(0, c[1]))));
            entries.add(new Generation.ShardEntry(
                    shards.get(k).name,
                    List.of(new Generation.SegmentEntry(base + k, b.docs(), 0, b.contentBytes(), null)),
                    counts));
        }
        return commit(
                root,
                g,
                new Generation(g.number() + 1, base + shards.size(), g.symbols(), entries, ledger),
                before,
                shards.size());
    }

    /** Commits {@code after} in place of {@code before}, deletes what only older generations used, and says so. */
    private static IndexUpdater.Result commit(Path root, Generation before, Generation after, int merged, int into)
            throws IOException {
        IndexFolder.commit(root, after);
        IndexFolder.removeUnreferenced(root, after);
        return new IndexUpdater.Result(
                before.number(),
                after.number(),
                List.of(),
                List.of(),
                List.of(),
                List.of(),
                Map.of(),
                List.of(),
                merged,
                into,
                null);
    }

    /** Re-indexes the live files of the segments at {@code group} of shard {@code k} as segment {@code id}; null when none is live. */
    private Generation.SegmentEntry mergeGroup(
            Path root,
            List<WorkingShard> shards,
            int k,
            List<Integer> group,
            long id,
            Map<String, GitRefs> repositories,
            IndexBuilder.Options mergeOptions,
            Consumer<String> errors)
            throws IOException, InterruptedException {
        WorkingShard w = shards.get(k);
        Map<String, SegmentPackage> packages = new TreeMap<>();
        int live = 0;
        for (int i : group) {
            Segment seg = w.segments.get(i);
            seg.verify();
            DocTable table = seg.shard().docs();
            for (int p = 0; p < table.packageCount(); p++) {
                String name = table.packageName(p);
                float weight = table.packageWeight(p);
                SegmentPackage source =
                        packages.computeIfAbsent(name, n -> new SegmentPackage(n, weight, repositories.get(n)));
                source.add(seg, p);
            }
            live += seg.liveDocs();
        }
        packages.values().removeIf(p -> p.docCount() == 0);
        if (live == 0) {
            return null;
        }
        List<PackageSource> sources = new ArrayList<>(packages.values());
        Map<String, Float> weights = new HashMap<>();
        for (SegmentPackage p : packages.values()) {
            weights.put(p.name(), p.weight());
        }
        IndexBuilder builder = new IndexBuilder(mergeOptions, clock);
        List<String> problems = new ArrayList<>();
        IndexBuilder.Report report = builder.run(
                sources,
                root,
                new IndexBuilder.Plan(
                        shards.size(),
                        (names, fileBytes, n) -> everythingTo(k, fileBytes, n),
                        shard -> w.folder.resolve("seg-" + id),
                        false,
                        name -> weights.getOrDefault(name, 1f)),
                message -> {
                    problems.add(message);
                    errors.accept(message);
                });
        BuiltShard b = report.shards().get(k);
        int docs = b == null ? 0 : b.docs();
        if (!problems.isEmpty() || docs != live) {
            throw new IOException("merging " + group.size() + " segments of " + w.name + " gave " + docs
                    + " docs, not the " + live + " live ones" + (problems.isEmpty() ? "" : ": " + problems.get(0))
                    + "; nothing was committed");
        }
        return new Generation.SegmentEntry(id, b.docs(), 0, b.contentBytes(), null);
    }

    private static List<List<ShardAssigner.Range>> everythingTo(int k, List<long[]> fileBytes, int shards) {
        List<List<ShardAssigner.Range>> out = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            out.add(new ArrayList<>());
        }
        for (int p = 0; p < fileBytes.size(); p++) {
            if (fileBytes.get(p).length > 0) {
                out.get(k).add(new ShardAssigner.Range(p, 0, fileBytes.get(p).length));
            }
        }
        return out;
    }
}
