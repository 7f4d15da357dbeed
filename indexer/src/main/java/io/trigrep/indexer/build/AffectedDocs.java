package io.trigrep.indexer.build;

import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.segments.Deletes;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.PackageKey;
import io.trigrep.indexer.segments.Segment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the index holds of the packages an update adds or removes, by package key: the live files
 * the update replaces, each as {shard, segment, doc}, and every name it holds under the key, in
 * its segments or in its ledger.
 */
record AffectedDocs(Map<String, List<int[]>> docsByKey, Map<String, Set<String>> namesByKey) {
    /**
     * The packages of {@code shards} and {@code ledger} whose key is in {@code adding} or
     * {@code removing}; of a repository read in part ({@code changes}, by key), only the files at
     * its changed paths.
     */
    static AffectedDocs of(
            List<WorkingShard> shards,
            List<Generation.PackageEntry> ledger,
            Set<String> adding,
            Set<String> removing,
            Map<String, RepositoryChange> changes)
            throws IOException {
        Map<String, List<int[]>> docsByKey = new HashMap<>();
        Map<String, Set<String>> namesByKey = new TreeMap<>();
        for (int k = 0; k < shards.size(); k++) {
            WorkingShard w = shards.get(k);
            for (int s = 0; s < w.segments.size(); s++) {
                Segment seg = w.segments.get(s);
                DocTable table = seg.shard().docs();
                String[] keyOf = new String[table.packageCount()];
                String[] nameOf = new String[table.packageCount()];
                for (int p = 0; p < keyOf.length; p++) {
                    nameOf[p] = table.packageName(p);
                    String key = PackageKey.of(nameOf[p]);
                    if (adding.contains(key) || removing.contains(key)) {
                        keyOf[p] = key;
                    }
                }
                for (int d = 0; d < table.docCount(); d++) {
                    int p = table.packageId(d);
                    RepositoryChange change = keyOf[p] == null ? null : changes.get(keyOf[p]);
                    if (keyOf[p] != null && seg.live(d) && (change == null || change.replaces(nameOf[p], table, d))) {
                        docsByKey
                                .computeIfAbsent(keyOf[p], x -> new ArrayList<>())
                                .add(new int[] {k, s, d});
                        namesByKey
                                .computeIfAbsent(keyOf[p], x -> new TreeSet<>())
                                .add(nameOf[p]);
                    }
                }
            }
        }
        for (Generation.PackageEntry p : ledger) {
            String key = PackageKey.of(p.name());
            if (adding.contains(key) || removing.contains(key)) {
                namesByKey.computeIfAbsent(key, x -> new TreeSet<>()).add(p.name());
            }
        }
        return new AffectedDocs(docsByKey, namesByKey);
    }

    /** Each shard's live bytes as they will be once every affected file is gone. */
    long[] loadsWithout(List<WorkingShard> shards) throws IOException {
        long[] loads = new long[shards.size()];
        for (int k = 0; k < shards.size(); k++) {
            for (Generation.SegmentEntry e : shards.get(k).entries) {
                loads[k] += e.liveBytes();
            }
        }
        for (List<int[]> docs : docsByKey.values()) {
            for (int[] at : docs) {
                loads[at[0]] -=
                        shards.get(at[0]).segments.get(at[1]).shard().docs().contentLength(at[2]);
            }
        }
        return loads;
    }

    /**
     * Per package read, where its older version was ({@link ShardAssigner.Preference}): the shard
     * that held every affected file of a package read whole, when one did; else (its files on
     * several shards, or a repository re-read at its changed paths, {@code partial} by key) per
     * file the one shard that held a file of its path, -1 for a new path or one on several shards.
     */
    List<ShardAssigner.Preference> preferred(List<ReadPackage> read, List<WorkingShard> shards, Set<String> partial)
            throws IOException {
        List<ShardAssigner.Preference> preferred = new ArrayList<>();
        for (ReadPackage pkg : read) {
            String key = PackageKey.of(pkg.name());
            List<int[]> old = docsByKey.getOrDefault(key, List.of());
            int first = old.isEmpty() ? -1 : old.get(0)[0];
            if (old.isEmpty() || (!partial.contains(key) && old.stream().allMatch(at -> at[0] == first))) {
                preferred.add(new ShardAssigner.Preference(first, null));
                continue;
            }
            Map<String, Integer> shardOfPath = new HashMap<>();
            for (int[] at : old) {
                String path =
                        shards.get(at[0]).segments.get(at[1]).shard().docs().path(at[2]);
                shardOfPath.merge(path, at[0], (was, now) -> was.equals(now) ? was : -1);
            }
            int[] paths = new int
                    [pkg.parts().stream().mapToInt(part -> part.files().size()).sum()];
            int f = 0;
            for (SpooledPart part : pkg.parts()) {
                for (SpooledPart.SpooledFile file : part.files()) {
                    paths[f++] = shardOfPath.getOrDefault(new String(file.path(), StandardCharsets.UTF_8), -1);
                }
            }
            preferred.add(new ShardAssigner.Preference(-1, paths));
        }
        return preferred;
    }

    /** Marks the affected files of the packages {@code gone} (by key) deleted: one new bitmap per segment. */
    void delete(Set<String> gone, List<WorkingShard> shards) {
        Map<List<Integer>, List<Integer>> docsBySegment = new HashMap<>();
        for (String key : gone) {
            for (int[] at : docsByKey.getOrDefault(key, List.of())) {
                docsBySegment
                        .computeIfAbsent(List.of(at[0], at[1]), x -> new ArrayList<>())
                        .add(at[2]);
            }
        }
        docsBySegment.forEach((at, docs) -> {
            List<Deletes> deletes = shards.get(at.get(0)).deletes;
            deletes.set(
                    at.get(1),
                    deletes.get(at.get(1))
                            .with(docs.stream().mapToInt(Integer::intValue).toArray()));
        });
    }
}
