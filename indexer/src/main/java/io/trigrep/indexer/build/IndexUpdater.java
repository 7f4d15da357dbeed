package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.indexer.segments.PackageKey;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Changes an index without rebuilding it. An update ({@link PackageUpdater}) writes a
 * segment per shard that receives files and marks the files of replaced and removed packages
 * deleted; a merge ({@link SegmentMerger}) folds a shard's segments into one, re-indexing their
 * live files from the contents the index holds.
 * Every change is written beside the live generation and committed by one rename
 * ({@link IndexFolder#commit}): a crash at any moment leaves the previous generation whole.
 */
public final class IndexUpdater {
    /**
     * What a change did.
     *
     * @param added    packages indexed by this change (full names)
     * @param replaced packages whose older version's files were deleted because a new one was added
     * @param removed  packages removed on request
     * @param unchanged git repositories given to add whose branches the index holds at the same
     *                 commits: not read again
     * @param moved     git repositories given to add that the index holds at other commits and that
     *                 were re-read only at the paths that changed, with how many paths that was
     * @param errors   inputs that could not be read (a package that failed keeps its older version)
     * @param merged   segments folded by merges, and the segments they became
     */
    public record Result(
            long fromGeneration,
            long toGeneration,
            List<String> added,
            List<String> replaced,
            List<String> removed,
            List<String> unchanged,
            Map<String, Integer> moved,
            List<String> errors,
            int merged,
            int mergedInto,
            IndexStats stats) {}

    private final IndexBuilder.Options options;
    private final Clock clock;
    private final MergePolicy policy;

    public IndexUpdater(IndexBuilder.Options options, Clock clock) {
        this(options, clock, MergePolicy.DEFAULT);
    }

    IndexUpdater(IndexBuilder.Options options, Clock clock, MergePolicy policy) {
        this.options = options;
        this.clock = clock;
        this.policy = policy;
    }

    /**
     * Adds {@code add} (a package whose source name the index holds replaces it) and removes the
     * packages named in {@code remove} (a source name or a full name), then, when
     * {@code mergeAfter}, merges as the tiered policy says, in a second commit.
     */
    public Result update(
            Path root, List<PackageSource> add, List<String> remove, boolean mergeAfter, Consumer<String> errors)
            throws IOException, InterruptedException {
        Map<String, String> addByKey = new LinkedHashMap<>();
        for (PackageSource p : add) {
            String other = addByKey.putIfAbsent(PackageKey.of(p.name()), p.name());
            if (other != null) {
                throw new IllegalArgumentException("two inputs for package " + PackageKey.of(p.name()) + ": " + other
                        + " and " + p.name() + "; give one version");
            }
        }
        Result result;
        Closeable lock = IndexFolder.lock(root);
        try {
            result =
                    new PackageUpdater(options, clock).update(root, add, addByKey, new LinkedHashSet<>(remove), errors);
        } finally {
            lock.close();
        }
        if (!mergeAfter) {
            return result;
        }
        Result merged = merge(root, false, errors);
        return new Result(
                result.fromGeneration(),
                Math.max(result.toGeneration(), merged.toGeneration()),
                result.added(),
                result.replaced(),
                result.removed(),
                result.unchanged(),
                result.moved(),
                result.errors(),
                merged.merged(),
                merged.mergedInto(),
                result.stats());
    }

    /** The git repositories the index at {@code root} holds: each one's branches at their commits, by package name. */
    public static Map<String, GitRefs> repositories(Path root) throws IOException {
        Generation g = IndexFolder.current(root);
        List<WorkingShard> shards = WorkingShard.open(root, g);
        try {
            return new TreeMap<>(HeldRepositories.of(shards, g));
        } finally {
            WorkingShard.close(shards);
        }
    }

    /**
     * {@code options} with the index's choice of symbols: segments of an index with definitions
     * get them too (refused when ctags cannot run here: sym: would silently miss the new files),
     * and those of an index without get none.
     */
    static IndexBuilder.Options segmentOptions(Generation g, IndexBuilder.Options options) {
        if (!g.symbols()) {
            return options.withSymbols(SymbolChoice.none("built without symbols (the index has none)"));
        }
        if (options.symbols().extractor() == null) {
            throw new IllegalArgumentException("the index has definitions (sym: search), so its new segments need them"
                    + " too, but this run has none: " + options.symbols().absentReason());
        }
        return options;
    }

    /**
     * Folds segments: with {@code full}, every shard's segments into one, dropping every deleted
     * file; otherwise what the tiered policy picks. Commits one generation for all of it, or none
     * when there is nothing to merge.
     */
    public Result merge(Path root, boolean full, Consumer<String> errors) throws IOException, InterruptedException {
        return new SegmentMerger(segmentOptions(IndexFolder.current(root), options), clock, policy)
                .merge(root, full, errors);
    }

    /**
     * Re-indexes every live file and places the packages over the shards as a fresh build does,
     * one segment per shard: the balance that removals wore away comes back. Unlike the other
     * changes, packages move between shards, so backends switching one after the other may show a
     * moved package twice or not at all for that moment.
     */
    public Result rebalance(Path root, Consumer<String> errors) throws IOException, InterruptedException {
        return new SegmentMerger(segmentOptions(IndexFolder.current(root), options), clock, policy)
                .merge(root, SegmentMerger.Mode.REBALANCE, errors);
    }
}
