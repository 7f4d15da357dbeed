package io.trigrep.indexer.build;

import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.segments.Deletes;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.indexer.segments.Segment;
import io.trigrep.indexer.symbols.Symbols;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One shard's segments while a change is worked out: opened, with the deletes the change makes. */
final class WorkingShard {
    final String name;
    final Path folder;
    final List<Generation.SegmentEntry> entries = new ArrayList<>();
    final List<Segment> segments = new ArrayList<>();
    final List<Deletes> deletes = new ArrayList<>();
    final Map<String, long[]> skipped = new LinkedHashMap<>();

    WorkingShard(String name, Path folder) {
        this.name = name;
        this.folder = folder;
    }

    /** The generation's shards, their segments opened; closed by the caller. */
    static List<WorkingShard> open(Path root, Generation g) throws IOException {
        List<WorkingShard> shards = new ArrayList<>();
        Map<String, GitRefs> repositories = g.repositories();
        try {
            for (Generation.ShardEntry entry : g.shards()) {
                WorkingShard w = new WorkingShard(entry.name(), root.resolve(entry.name()));
                shards.add(w);
                for (Map.Entry<String, Manifest.Skipped> e : entry.skipped().entrySet()) {
                    w.skipped.put(
                            e.getKey(),
                            new long[] {e.getValue().files(), e.getValue().bytes()});
                }
                for (Generation.SegmentEntry s : entry.segments()) {
                    Path folder = IndexFolder.segmentFolder(w.folder, s.id());
                    Shard shard = Shard.open(folder);
                    int docs = shard.docs().docCount();
                    Deletes d;
                    try {
                        d = s.deletes() == null
                                ? Deletes.none(docs)
                                : Deletes.read(w.folder.resolve(s.deletes()), docs);
                    } catch (IOException | RuntimeException e) {
                        shard.close();
                        throw e;
                    }
                    w.entries.add(s);
                    Segment segment;
                    try {
                        segment = Segment.of(s.id(), shard, Symbols.absent("not read by updates"), d, repositories);
                    } catch (IOException | RuntimeException e) {
                        shard.close();
                        throw e;
                    }
                    w.segments.add(segment);
                    w.deletes.add(d);
                }
            }
        } catch (IOException | RuntimeException e) {
            close(shards);
            throw e;
        }
        return shards;
    }

    static void close(List<WorkingShard> shards) {
        for (WorkingShard w : shards) {
            for (Segment s : w.segments) {
                s.shard().close();
            }
        }
    }
}
