package io.trigrep.indexer.build;

import io.trigrep.indexer.files.FileTrees;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.ShardFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writes the shards of a run: each built by {@link ShardBuilder} in a folder of the scratch
 * folder, then, once its definitions are written, given its manifest, forced to disk and renamed
 * to its target in place of what was there.
 */
final class ShardWriter {
    private final IndexBuilder.Options options;
    private final Clock clock;
    private final IndexStats stats;
    private final BuildScratch work;

    /** Builds shards in {@code work}'s folder, on its workers. */
    ShardWriter(IndexBuilder.Options options, Clock clock, IndexStats stats, BuildScratch work) {
        this.options = options;
        this.clock = clock;
        this.stats = stats;
        this.work = work;
    }

    /** A shard built but for its definitions, finished by {@link #finish}. */
    final class Started {
        private final String name;
        private final Path temporary;
        private final Path target;
        private final Map<String, Manifest.Skipped> skipped;
        private final long startedMillis;
        private final long startedNanos;
        private final ShardBuilder.Pending pending;

        private Started(
                String name,
                Path temporary,
                Path target,
                Map<String, Manifest.Skipped> skipped,
                long startedMillis,
                long startedNanos,
                ShardBuilder.Pending pending) {
            this.name = name;
            this.temporary = temporary;
            this.target = target;
            this.skipped = skipped;
            this.startedMillis = startedMillis;
            this.startedNanos = startedNanos;
            this.pending = pending;
        }

        /**
         * Waits for the shard's definitions, gives it its manifest, forces it to disk and renames it
         * to its target in place of what was there.
         */
        BuiltShard finish() throws IOException {
            BuiltShard result = pending.finish(step -> stats.phase(name + ": " + step));
            Manifest manifest = new Manifest(
                    name,
                    result.docs(),
                    result.packages(),
                    result.trigrams(),
                    result.contentBytes(),
                    result.indexBytes(),
                    result.docTableBytes(),
                    startedMillis,
                    (System.nanoTime() - startedNanos) / 1_000_000,
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
            work.moveIntoPlace(temporary, target);
            return result;
        }

        /** Stops its definitions' writer (a build that failed). */
        void cancel() {
            pending.cancel();
        }
    }

    /**
     * Builds shard {@code shard} of {@code members} but for its definitions ({@code definitions}
     * null: no symbols file), to be renamed to {@code target} by {@link Started#finish}, its
     * manifest counting {@code skipped}.
     */
    Started start(
            int shard,
            List<ShardBuilder.Slice> members,
            Map<String, Manifest.Skipped> skipped,
            Path target,
            ShardBuilder.Definitions definitions)
            throws IOException {
        String name = "shard-" + shard;
        Path temporary = work.folder().resolve(name);
        long started = clock.millis();
        long t0 = System.nanoTime();
        stats.phase(name + ": trigrams and contents");
        ShardBuilder.Pending pending = ShardBuilder.build(
                members, temporary, options.pairBuffer(), options.threads(), work.workers(), definitions);
        return new Started(name, temporary, target, skipped, started, t0, pending);
    }
}
