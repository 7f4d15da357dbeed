package io.trigrep.backend;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.segments.Deletes;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * Builds segmented indexes for tests the way an update does, from its parts: plain shard folders
 * built by the real indexer, moved into {@code shard-0/seg-K}, deletes files, and a generation
 * committed by {@link IndexFolder#commit}.
 */
public final class SegmentedIndex {
    private SegmentedIndex() {}

    /** One segment of shard-0 in a generation: its id and which of its files ("package/path") are deleted. */
    public record Part(long id, Predicate<String> deleted) {
        public static Part whole(long id) {
            return new Part(id, name -> false);
        }
    }

    /** Builds one plain shard of the packages in {@code corpus} as segment {@code id} of {@code root}/shard-0. */
    public static void buildSegment(Path corpus, Path root, long id, IndexBuilder.Options options) throws Exception {
        Path work = Files.createTempDirectory(root.getParent(), "segment-build");
        List<String> errors = new ArrayList<>();
        new IndexBuilder(options, Clock.systemUTC())
                .build(Corpus.discover(List.of(corpus), work, errors::add), work, errors::add);
        if (!errors.isEmpty()) {
            throw new AssertionError("indexing failed: " + errors);
        }
        Path target = IndexFolder.segmentFolder(root.resolve("shard-0"), id);
        Files.createDirectories(target.getParent());
        Files.move(work.resolve("shard-0"), target);
        delete(work);
    }

    /** Commits generation {@code number} of {@code root} whose shard-0 holds {@code parts}, writing their deletes files. */
    public static Generation commit(Path root, long number, List<Part> parts) throws Exception {
        Path shardFolder = root.resolve("shard-0");
        List<Generation.SegmentEntry> segments = new ArrayList<>();
        TreeSet<String> packages = new TreeSet<>();
        Map<String, Manifest.Skipped> skipped = Map.of();
        long next = 0;
        for (Part part : parts) {
            next = Math.max(next, part.id() + 1);
            try (Shard shard = Shard.open(IndexFolder.segmentFolder(shardFolder, part.id()))) {
                if (part.id() == parts.get(0).id()) {
                    skipped = shard.manifest().skipped();
                }
                DocTable docs = shard.docs();
                List<Integer> gone = new ArrayList<>();
                long liveBytes = 0;
                for (int doc = 0; doc < docs.docCount(); doc++) {
                    String pkg = docs.packageName(docs.packageId(doc));
                    if (part.deleted().test(pkg + "/" + docs.path(doc))) {
                        gone.add(doc);
                    } else {
                        liveBytes += docs.contentLength(doc);
                        packages.add(pkg);
                    }
                }
                String deletesName = null;
                if (!gone.isEmpty()) {
                    deletesName = IndexFolder.deletesFile(part.id(), number);
                    Deletes.none(docs.docCount())
                            .with(gone.stream().mapToInt(Integer::intValue).toArray())
                            .write(shardFolder.resolve(deletesName));
                }
                segments.add(
                        new Generation.SegmentEntry(part.id(), docs.docCount(), gone.size(), liveBytes, deletesName));
            }
        }
        List<Generation.PackageEntry> entries = new ArrayList<>();
        for (String name : packages) {
            entries.add(new Generation.PackageEntry(name, 0, Map.of()));
        }
        Generation g = new Generation(
                number, next, false, List.of(new Generation.ShardEntry("shard-0", segments, skipped)), entries);
        IndexFolder.commit(root, g);
        return g;
    }

    /** Copies the packages of {@code corpus} that {@code keep} accepts (by folder name) into {@code target}. */
    public static Path copy(Path corpus, Path target, Predicate<String> keep) throws Exception {
        try (Stream<Path> packages = Files.list(corpus)) {
            for (Path pkg : packages.filter(Files::isDirectory).toList()) {
                if (!keep.test(pkg.getFileName().toString())) {
                    continue;
                }
                try (Stream<Path> walk = Files.walk(pkg)) {
                    for (Path p : walk.toList()) {
                        Path to = target.resolve(corpus.relativize(p).toString());
                        if (Files.isDirectory(p)) {
                            Files.createDirectories(to);
                        } else {
                            Files.copy(p, to);
                        }
                    }
                }
            }
        }
        return target;
    }

    public static void delete(Path folder) throws Exception {
        if (!Files.exists(folder)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(folder)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
