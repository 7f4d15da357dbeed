package io.trigrep.indexer.build;

import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.ShardFiles;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Records a full build's result as the index's next generation: each shard one segment (its own
 * folder), every package with its skipped files. A backend serving the index switches to it;
 * generation files of the index before the build are removed.
 */
final class BuildCommit {
    private BuildCommit() {}

    /** Commits the build {@code report} describes, written under {@code root}. */
    static Generation commit(Path root, IndexBuilder.Report report, boolean symbols, long nowMillis)
            throws IOException {
        Generation before = IndexFolder.latest(root).orElse(null);
        long previous = before == null ? 0 : before.number();
        // A build's number is its time in milliseconds (or one more than the last, if that is
        // later): an index rebuilt from scratch, in this folder or another one, never repeats a
        // number a frontend may have cached answers under; updates then count up by one.
        long number = Math.max(previous + 1, nowMillis);
        // Segment ids never repeat within an index, across rebuilds too.
        long nextSegment = before == null ? 1 : before.nextSegment();
        Map<String, Map<String, long[]>> skippedByPackage = report.skippedByPackage();
        List<Generation.PackageEntry> ledger = new ArrayList<>();
        for (IndexBuilder.PackagePlaced p : report.packages()) {
            Map<String, Manifest.Skipped> counts = new LinkedHashMap<>();
            skippedByPackage
                    .getOrDefault(p.name(), Map.of())
                    .forEach((reason, c) -> counts.put(reason, new Manifest.Skipped(c[0], c[1])));
            ledger.add(new Generation.PackageEntry(p.name(), p.skipShard(), counts));
        }
        ledger.sort(Comparator.comparing(Generation.PackageEntry::name));
        List<Generation.ShardEntry> shards = new ArrayList<>();
        for (int k = 0; k < report.shards().size(); k++) {
            Path folder = root.resolve("shard-" + k);
            Manifest m = Manifest.read(folder.resolve(ShardFiles.MANIFEST));
            shards.add(new Generation.ShardEntry(
                    "shard-" + k,
                    List.of(new Generation.SegmentEntry(0, m.docs(), 0, m.contentBytes(), null)),
                    m.skipped()));
        }
        Generation g = new Generation(number, nextSegment, symbols, shards, ledger);
        IndexFolder.commit(root, g);
        IndexFolder.removeUnreferenced(root, g);
        return g;
    }
}
