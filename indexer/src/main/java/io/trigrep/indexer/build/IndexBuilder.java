package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.files.FileTrees;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.filter.SkipReason;
import io.trigrep.indexer.rank.Popularity;
import io.trigrep.indexer.segments.IndexFolder;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;

/**
 * One indexer run: packages read in parts ({@link PackageSpooler}), their files placed on shards
 * by bytes ({@link Placement}), each shard built and renamed into place ({@link ShardWriter}),
 * in a scratch folder ({@link BuildScratch}). A package that fails to read is left out, reported.
 */
public final class IndexBuilder {
    /** Options of a run. {@code pairBuffer} is the number of doc ids a shard build buffers for its posting lists (see PostingBuckets). */
    public record Options(
            int shards, FilterLimits limits, Popularity popularity, int threads, int pairBuffer, SymbolChoice symbols) {
        public Options {
            if (shards < 1 || shards > 4096) {
                throw new IllegalArgumentException("shards must be in [1, 4096], got " + shards);
            }
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be >= 1, got " + threads);
            }
            if (symbols == null) {
                throw new IllegalArgumentException("symbols must be a SymbolChoice, got null");
            }
            if (pairBuffer < 1024) {
                throw new IllegalArgumentException("pairBuffer must be >= 1024, got " + pairBuffer);
            }
        }

        /** Options without symbols. */
        public Options(int shards, FilterLimits limits, Popularity popularity, int threads, int pairBuffer) {
            this(
                    shards,
                    limits,
                    popularity,
                    threads,
                    pairBuffer,
                    SymbolChoice.none("built without symbols (not asked for)"));
        }

        /** Defaults without symbols: tests and callers that want them choose an extractor. */
        public static Options defaults(int shards) {
            return new Options(
                    shards,
                    FilterLimits.DEFAULT,
                    Popularity.none(),
                    Runtime.getRuntime().availableProcessors(),
                    32 << 20);
        }

        /** These options with {@code symbols} instead. */
        public Options withSymbols(SymbolChoice symbols) {
            return new Options(shards, limits, popularity, threads, pairBuffer, symbols);
        }
    }

    /** A file indexed without symbols because ctags failed on it, and why. */
    public record SymbolFailure(String packageName, String path, String reason) {}

    /** One file left out: its package, path in the package, why, and its size. */
    public record SkippedFile(String packageName, String path, SkipReason reason, long bytes) {}

    /**
     * What a run produced: per shard its build result, and everything that went wrong; every
     * skipped file in package order, then read order.
     */
    public record Report(
            List<BuiltShard> shards,
            List<String> errors,
            IndexStats stats,
            long readNanos,
            long nanos,
            List<SkippedFile> skipped,
            List<PackagePlaced> packages) {
        /** A build's report without a record of where its packages went (for callers that make their own). */
        public Report(
                List<BuiltShard> shards,
                List<String> errors,
                IndexStats stats,
                long readNanos,
                long nanos,
                List<SkippedFile> skipped) {
            this(shards, errors, stats, readNanos, nanos, skipped, List.of());
        }

        /** The skipped files counted per package, then per reason: {files, bytes}. */
        Map<String, Map<String, long[]>> skippedByPackage() {
            Map<String, Map<String, long[]>> counts = new HashMap<>();
            for (SkippedFile f : skipped) {
                long[] c = counts.computeIfAbsent(f.packageName(), x -> new LinkedHashMap<>())
                        .computeIfAbsent(f.reason().key(), x -> new long[2]);
                c[0]++;
                c[1] += f.bytes();
            }
            return counts;
        }
    }

    /**
     * Where one package read went: the shards holding its files (ascending) and the shard whose
     * manifest counts its skipped files.
     */
    public record PackagePlaced(String name, List<Integer> shards, int skipShard) {
        public PackagePlaced {
            shards = List.copyOf(shards);
        }
    }

    /** Places packages' files on shards: {@code read.get(p)} is package p, {@code fileBytes.get(p)} its files' sizes in read order. */
    interface Assign {
        List<List<ShardAssigner.Range>> assign(List<ReadPackage> read, List<long[]> fileBytes, int shards)
                throws IOException;
    }

    /**
     * Where a build puts files and writes shards: {@code assign} maps each package's file sizes
     * (in read order) to per-shard ranges as {@link ShardAssigner} does; {@code target} names the
     * folder shard k is renamed to once built; shards given no file are built only when
     * {@code buildEmpty}; {@code weight} is a package's weight by name.
     */
    record Plan(
            int shards, Assign assign, IntFunction<Path> target, boolean buildEmpty, ToDoubleFunction<String> weight) {}

    private final Options options;
    private final Clock clock;
    private final IndexStats stats = new IndexStats();

    public IndexBuilder(Options options, Clock clock) {
        this.options = options;
        this.clock = clock;
    }

    public IndexStats stats() {
        return stats;
    }

    /** Builds {@code shard-0} … {@code shard-N-1} under {@code out}, replacing any that exist. */
    public Report build(List<PackageSource> packages, Path out, Consumer<String> errors)
            throws IOException, InterruptedException {
        Files.createDirectories(out);
        Closeable lock = IndexFolder.lock(out);
        try {
            BuildScratch.removeLeftovers(out);
            Report report = run(
                    packages,
                    out,
                    new Plan(
                            options.shards(),
                            (read, fileBytes, n) -> ShardAssigner.assign(fileBytes, n),
                            shard -> out.resolve("shard-" + shard),
                            true,
                            name -> options.popularity().weight(name)),
                    errors);
            // The build is the index's next generation: a backend serving it switches, and
            // later updates know every package and its skipped files.
            BuildCommit.commit(out, report, options.symbols().extractor() != null, clock.millis());
            removeShardsFrom(out, options.shards());
            return report;
        } finally {
            lock.close();
        }
    }

    /**
     * Deletes {@code shard-K} for every K from {@code count} on: what an earlier build with more
     * shards left in the folder is no part of the index, and a backend started on it would serve it.
     */
    private static void removeShardsFrom(Path out, int count) throws IOException {
        try (DirectoryStream<Path> shards = Files.newDirectoryStream(out, "shard-*")) {
            for (Path shard : shards) {
                String number = shard.getFileName().toString().substring("shard-".length());
                if (number.matches("0|[1-9][0-9]{0,8}") && Integer.parseInt(number) >= count) {
                    FileTrees.delete(shard);
                }
            }
        }
    }

    /**
     * Reads {@code packages} and builds, per shard given files by {@code plan}, one shard folder at
     * the plan's target: a segment, for an update. The scratch folder is made in {@code scratchParent}.
     */
    Report run(List<PackageSource> packages, Path scratchParent, Plan plan, Consumer<String> errors)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        Consumer<String> report = message -> {
            problems.add(message);
            errors.accept(message);
        };
        BuildScratch work = new BuildScratch(options.threads());
        try {
            Path scratch = work.create(scratchParent);
            for (PackageSource p : packages) {
                stats.inputBytesTotal.addAndGet(p.inputBytes());
            }
            // ctags runs while the corpus is read: each part goes to it once spooled.
            CtagsFeed feed = options.symbols().extractor() == null
                    ? null
                    : work.startCtags(options.symbols().extractor(), scratch, packages.size());
            List<ReadPackage> read = new PackageSpooler(options, stats, scratch, work.readers(), work.workers())
                    .spool(packages, plan.weight(), feed, report);
            long readNanos = System.nanoTime() - start;
            // A stop while reading shows as packages that failed to read: the run must not go on
            // to build (and its caller to commit) without them. A later stop refuses each shard.
            work.checkRunning();

            Placement placement = Placement.of(read, plan);
            ShardWriter writer = new ShardWriter(options, clock, stats, work);
            // One shard at a time, each with every core: a build's memory (its count table, its
            // workers' buffers, its mapped spools) is then one shard's, not every shard's at once.
            // A shard's definitions wait for ctags to end; the next shards are built meanwhile, and
            // then the definitions of up to one shard per core are written at once.
            ShardBuilder.Definitions definitions = feed == null
                    ? null
                    : new ShardBuilder.Definitions(
                            work.extraction(), feed, Math.max(1, Math.min(options.threads(), plan.shards())));
            List<ShardWriter.Started> started = new ArrayList<>();
            List<BuiltShard> results = new ArrayList<>();
            try {
                for (int shard = 0; shard < plan.shards(); shard++) {
                    if (!plan.buildEmpty() && placement.slices().get(shard).isEmpty()) {
                        started.add(null);
                        continue;
                    }
                    started.add(writer.start(
                            shard,
                            placement.slices().get(shard),
                            placement.skippedCounts().get(shard),
                            plan.target().apply(shard),
                            definitions));
                }
                for (ShardWriter.Started shard : started) {
                    results.add(shard == null ? null : shard.finish());
                }
            } catch (IOException | RuntimeException e) {
                for (ShardWriter.Started shard : started) {
                    if (shard != null) {
                        shard.cancel();
                    }
                }
                throw e;
            }
            FileTrees.fsync(scratchParent);
            return new Report(
                    Collections.unmodifiableList(results),
                    List.copyOf(problems),
                    stats,
                    readNanos,
                    System.nanoTime() - start,
                    placement.skipped(),
                    placement.packages());
        } finally {
            work.close();
        }
    }
}
