package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.segments.Deletes;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.indexer.segments.PackageKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Adds, replaces and removes packages: each shard that receives files of the packages read gets
 * one new segment, and the files of replaced and removed packages are marked deleted, all in one
 * commit ({@link IndexFolder#commit}).
 */
final class PackageUpdater {
    private final IndexBuilder.Options options;
    private final Clock clock;

    PackageUpdater(IndexBuilder.Options options, Clock clock) {
        this.options = options;
        this.clock = clock;
    }

    /**
     * Adds {@code given} ({@code givenByKey}: their full names by key) and removes the packages
     * named {@code remove} (a source name: every version the index holds; a full name: that
     * version, which it must hold), under the index's lock.
     */
    IndexUpdater.Result update(
            Path root,
            List<PackageSource> given,
            Map<String, String> givenByKey,
            Set<String> remove,
            Consumer<String> errors)
            throws IOException, InterruptedException {
        Set<String> removeKeys = new LinkedHashSet<>();
        for (String name : remove) {
            removeKeys.add(PackageKey.of(name));
        }
        Generation g = IndexFolder.settle(root);
        List<WorkingShard> shards = WorkingShard.open(root, g);
        try {
            UpdateReads reads = UpdateReads.of(given, givenByKey, shards, g, options.limits());
            Map<String, String> addByKey = reads.addByKey();
            AffectedDocs affected =
                    AffectedDocs.of(shards, g.packages(), addByKey.keySet(), removeKeys, reads.changes());
            Map<String, Set<String>> namesByKey = affected.namesByKey();
            List<Generation.PackageEntry> ledger = new ArrayList<>(g.packages());
            List<String> unknown = new ArrayList<>();
            for (String name : remove) {
                String key = PackageKey.of(name);
                Set<String> held = namesByKey.getOrDefault(key, Set.of());
                if (held.isEmpty() || (!name.equals(key) && !held.contains(name))) {
                    unknown.add(name);
                } else if (!name.equals(key) && held.size() > 1) {
                    // A removal takes every version of a source name: naming one would take the others too.
                    throw new IllegalArgumentException("--remove " + name + ": the index holds " + held.size()
                            + " versions of " + key + " (" + String.join(" ", held) + "), which go together: give "
                            + key + "; nothing was changed");
                }
            }
            if (!unknown.isEmpty()) {
                throw new IllegalArgumentException("--remove " + String.join(" ", unknown)
                        + ": the index holds no such package; nothing was changed");
            }
            long[] loads = affected.loadsWithout(shards);
            long next = g.nextSegment();
            List<Generation.SegmentEntry> built = new ArrayList<>();
            for (int k = 0; k < shards.size(); k++) {
                built.add(null);
            }
            IndexBuilder.Report report = null;
            List<String> added = new ArrayList<>();
            if (!reads.read().isEmpty()) {
                long base = next;
                IndexBuilder builder = new IndexBuilder(IndexUpdater.segmentOptions(g, options), clock);
                report = builder.run(
                        reads.read(),
                        root,
                        new IndexBuilder.Plan(
                                shards.size(),
                                (read, fileBytes, n) -> ShardAssigner.assign(
                                        fileBytes,
                                        n,
                                        loads,
                                        slack(fileBytes, loads),
                                        affected.preferred(
                                                read, shards, reads.changes().keySet())),
                                k -> shards.get(k).folder.resolve("seg-" + (base + k)),
                                false,
                                name -> options.popularity().weight(name)),
                        errors);
                next += shards.size();
                for (int k = 0; k < shards.size(); k++) {
                    BuiltShard b = report.shards().get(k);
                    if (b != null && b.docs() > 0) {
                        built.set(k, new Generation.SegmentEntry(base + k, b.docs(), 0, b.contentBytes(), null));
                    }
                }
                for (IndexBuilder.PackagePlaced p : report.packages()) {
                    added.add(p.name());
                }
            }
            // A package that failed to read keeps its older version: only what was read replaces.
            Set<String> readKeys = new LinkedHashSet<>();
            for (String name : added) {
                readKeys.add(PackageKey.of(name));
            }
            List<String> replaced = new ArrayList<>();
            List<String> removed = new ArrayList<>();
            Set<String> goneKeys = new LinkedHashSet<>();
            for (String key : addByKey.keySet()) {
                if (readKeys.contains(key)) {
                    goneKeys.add(key);
                    replaced.addAll(namesByKey.getOrDefault(key, Set.of()));
                }
            }
            for (String key : removeKeys) {
                if (addByKey.containsKey(key)) {
                    continue; // removed and added: a replacement, above
                }
                goneKeys.add(key);
                removed.addAll(namesByKey.get(key));
            }
            affected.delete(goneKeys, shards);
            // The ledger: gone packages leave, with their skipped counts; added ones come in.
            ledger.removeIf(p -> goneKeys.contains(PackageKey.of(p.name())));
            for (Generation.PackageEntry p : g.packages()) {
                if (goneKeys.contains(PackageKey.of(p.name())) && p.skipShard() >= 0 && p.skipShard() < shards.size()) {
                    for (Map.Entry<String, Manifest.Skipped> e : p.skipped().entrySet()) {
                        long[] c = shards.get(p.skipShard()).skipped.get(e.getKey());
                        if (c != null) {
                            c[0] = Math.max(0, c[0] - e.getValue().files());
                            c[1] = Math.max(0, c[1] - e.getValue().bytes());
                        }
                    }
                }
            }
            Map<String, Integer> moved = new TreeMap<>();
            if (report != null) {
                Map<String, Map<String, long[]>> skippedByPackage = report.skippedByPackage();
                for (IndexBuilder.PackagePlaced p : report.packages()) {
                    // A repository re-read in part keeps its counts (less and plus its changed
                    // paths') in the shard that counted them.
                    RepositoryChange change = reads.changes().get(PackageKey.of(p.name()));
                    Map<String, long[]> read = skippedByPackage.getOrDefault(p.name(), Map.of());
                    int skipShard =
                            change == null ? p.skipShard() : change.before().skipShard();
                    Map<String, Manifest.Skipped> counts = new LinkedHashMap<>();
                    (change == null ? read : change.skippedAfter(read)).forEach((reason, c) -> {
                        counts.put(reason, new Manifest.Skipped(c[0], c[1]));
                        long[] total = shards.get(skipShard).skipped.computeIfAbsent(reason, x -> new long[2]);
                        total[0] += c[0];
                        total[1] += c[1];
                    });
                    ledger.add(new Generation.PackageEntry(
                            p.name(), skipShard, counts, reads.refs().getOrDefault(p.name(), GitRefs.NONE)));
                    if (change != null) {
                        moved.put(p.name(), change.paths().size());
                    }
                }
            }
            ledger.sort(Comparator.comparing(Generation.PackageEntry::name));
            if (goneKeys.isEmpty() && (report == null || report.packages().isEmpty())) {
                return new IndexUpdater.Result(
                        g.number(),
                        g.number(),
                        List.of(),
                        List.of(),
                        List.of(),
                        reads.unchanged(),
                        Map.of(),
                        report == null ? List.of() : report.errors(),
                        0,
                        0,
                        report == null ? null : report.stats());
            }
            long number = g.number() + 1;
            List<Generation.ShardEntry> entries = new ArrayList<>();
            for (int k = 0; k < shards.size(); k++) {
                WorkingShard w = shards.get(k);
                List<Generation.SegmentEntry> segments = new ArrayList<>();
                for (int s = 0; s < w.entries.size(); s++) {
                    segments.add(withDeletes(w, s, number));
                }
                segments.removeIf(e -> e.deleted() == e.docs());
                if (built.get(k) != null) {
                    segments.add(built.get(k));
                }
                entries.add(new Generation.ShardEntry(w.name, segments, skippedMap(w.skipped)));
            }
            Generation after = new Generation(number, next, g.symbols(), entries, ledger);
            IndexFolder.commit(root, after);
            IndexFolder.removeUnreferenced(root, after);
            return new IndexUpdater.Result(
                    g.number(),
                    number,
                    added,
                    replaced,
                    removed,
                    reads.unchanged(),
                    moved,
                    report == null ? List.of() : report.errors(),
                    0,
                    0,
                    report == null ? null : report.stats());
        } finally {
            WorkingShard.close(shards);
        }
    }

    /**
     * How far past its quota a shard may take a whole new package: 2 % of the mean shard, the
     * balance a fresh build keeps, and never less than a stripe. Backends switch to a generation one
     * at a time, so a package split over shards shows half of it (or two versions) in answers while
     * they do; splitting one smaller than a stripe would buy less balance than that costs.
     */
    private static long slack(List<long[]> fileBytes, long[] loads) {
        long total = 0;
        for (long[] files : fileBytes) {
            for (long b : files) {
                total += b;
            }
        }
        for (long l : loads) {
            total += l;
        }
        return Math.max(total / loads.length / 50, ShardAssigner.STRIPE_BYTES);
    }

    /** Segment {@code s}'s entry with the change's deletes, writing its deletes file when they grew. */
    private static Generation.SegmentEntry withDeletes(WorkingShard w, int s, long generation) throws IOException {
        Generation.SegmentEntry old = w.entries.get(s);
        Deletes d = w.deletes.get(s);
        if (d.count() == old.deleted()) {
            return old;
        }
        if (d.count() == d.docCount()) {
            return new Generation.SegmentEntry(
                    old.id(), old.docs(), d.count(), 0, IndexFolder.deletesFile(old.id(), generation));
        }
        String name = IndexFolder.deletesFile(old.id(), generation);
        Files.deleteIfExists(w.folder.resolve(name)); // left by an update that never committed
        d.write(w.folder.resolve(name));
        DocTable table = w.segments.get(s).shard().docs();
        long live = 0;
        for (int doc = 0; doc < table.docCount(); doc++) {
            if (!d.isDeleted(doc)) {
                live += table.contentLength(doc);
            }
        }
        return new Generation.SegmentEntry(old.id(), old.docs(), d.count(), live, name);
    }

    private static Map<String, Manifest.Skipped> skippedMap(Map<String, long[]> counts) {
        Map<String, Manifest.Skipped> out = new LinkedHashMap<>();
        counts.forEach((reason, c) -> out.put(reason, new Manifest.Skipped(c[0], c[1])));
        return out;
    }
}
