package io.trigrep.indexer.build;

import io.trigrep.indexer.files.FileTrees;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.ShardFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.stream.Stream;

/**
 * Writes the shards of a run: each built by {@link ShardBuilder} in a folder of the scratch
 * folder, given its manifest, forced to disk, then renamed to its target in place of what was
 * there.
 */
final class ShardWriter {
    private final IndexBuilder.Options options;
    private final Clock clock;
    private final IndexStats stats;
    private final Path scratch;
    private final ExecutorService workers;

    ShardWriter(IndexBuilder.Options options, Clock clock, IndexStats stats, Path scratch, ExecutorService workers) {
        this.options = options;
        this.clock = clock;
        this.stats = stats;
        this.scratch = scratch;
        this.workers = workers;
    }

    /**
     * Shard {@code shard} of {@code members}, its manifest counting {@code skipped}, at
     * {@code target}; {@code definitions} null: no symbols file.
     */
    BuiltShard write(
            int shard,
            List<ShardBuilder.Slice> members,
            Map<String, Manifest.Skipped> skipped,
            Path target,
            ShardBuilder.Definitions definitions)
            throws IOException {
        String name = "shard-" + shard;
        Path temporary = scratch.resolve(name);
        long started = clock.millis();
        long t0 = System.nanoTime();
        stats.phase(name + ": trigrams and contents");
        BuiltShard result = ShardBuilder.build(
                members,
                temporary,
                options.pairBuffer(),
                options.threads(),
                workers,
                definitions,
                step -> stats.phase(name + ": " + step));
        Manifest manifest = new Manifest(
                name,
                result.docs(),
                result.packages(),
                result.trigrams(),
                result.contentBytes(),
                result.indexBytes(),
                result.docTableBytes(),
                started,
                (System.nanoTime() - t0) / 1_000_000,
                skipped,
                options.symbols().absentReason());
        Files.writeString(temporary.resolve(ShardFiles.MANIFEST), manifest.toJson(), StandardOpenOption.CREATE_NEW);
        try (Stream<Path> files = Files.list(temporary)) {
            for (Path f : files.toList()) {
                if (f.getFileName().toString().startsWith("run-")) {
                    Files.delete(f);
                } else {
                    FileTrees.fsync(f);
                }
            }
        }
        FileTrees.fsync(temporary);
        Path old = target.resolveSibling("." + target.getFileName() + ".old");
        if (Files.exists(target)) {
            BuildScratch.deleteQuietly(old);
            Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        BuildScratch.deleteQuietly(old);
        return result;
    }
}
