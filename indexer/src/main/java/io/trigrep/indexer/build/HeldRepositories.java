package io.trigrep.indexer.build;

import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.Segment;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The git repositories an index holds and the commits it holds their branches at. */
final class HeldRepositories {
    private HeldRepositories() {}

    /**
     * The branches of every git repository package with a live file, by package name: as the
     * generation records them ({@link Generation.PackageEntry#refs}), else as its segments do.
     */
    static Map<String, GitRefs> of(List<WorkingShard> shards, Generation g) throws IOException {
        Map<String, GitRefs> held = new HashMap<>();
        for (WorkingShard w : shards) {
            for (Segment seg : w.segments) {
                DocTable table = seg.shard().docs();
                boolean any = false;
                for (int p = 0; p < table.packageCount() && !any; p++) {
                    any = table.refs(p).isRepository();
                }
                for (int d = 0; any && d < table.docCount(); d++) {
                    int p = table.packageId(d);
                    if (table.refs(p).isRepository() && seg.live(d)) {
                        held.put(table.packageName(p), table.refs(p));
                    }
                }
            }
        }
        g.repositories().forEach((name, refs) -> held.computeIfPresent(name, (n, own) -> refs));
        return held;
    }
}
