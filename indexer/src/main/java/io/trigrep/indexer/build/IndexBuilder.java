package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.files.FileTrees;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.filter.SkipReason;
import io.trigrep.indexer.rank.Popularity;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.indexer.symbols.Extraction;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * One indexer run: read every package and cut it into parts of a few MiB that workers filter and
 * spool in parallel (so one huge package uses every core as many small ones do), assign files to
 * shards balancing bytes (a package larger than its share spans shards), build each shard in a
 * temporary folder and rename it into place. A package that fails to read is reported and left
 * out; the others go on.
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

    /**
     * Where a build puts files and writes shards: {@code assign} maps each package's file sizes
     * (in read order) to per-shard ranges as {@link ShardAssigner} does; {@code target} names the
     * folder shard k is renamed to once built; shards given no file are built only when
     * {@code buildEmpty}; {@code weight} is a package's weight by name.
     */
    /** Places packages' files on shards: {@code names.get(p)} is package p's name, {@code fileBytes.get(p)} its files' sizes in read order. */
    interface Assign {
        List<List<ShardAssigner.Range>> assign(List<String> names, List<long[]> fileBytes, int shards);
    }

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
            removeLeftovers(out);
            Report report = run(
                    packages,
                    out,
                    new Plan(
                            options.shards(),
                            (names, fileBytes, n) -> ShardAssigner.assign(fileBytes, n),
                            shard -> out.resolve("shard-" + shard),
                            true,
                            name -> options.popularity().weight(name)),
                    errors);
            // The build is the index's next generation: a backend serving it switches, and
            // later updates know every package and its skipped files.
            IndexUpdater.commitBuild(out, report, options.symbols().extractor() != null, clock.millis());
            return report;
        } finally {
            lock.close();
        }
    }

    /**
     * Reads {@code packages} and builds, per shard given files by {@code plan}, one shard folder at
     * the plan's target: a segment, for an update. The scratch folder is made in {@code scratchParent}.
     */
    Report run(List<PackageSource> packages, Path scratchParent, Plan plan, Consumer<String> errors)
            throws IOException, InterruptedException {
        long start = System.nanoTime();
        Path out = scratchParent;
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        Consumer<String> report = message -> {
            problems.add(message);
            errors.accept(message);
        };
        // Readers (one package each) wait on the read budget; the workers that filter and spool
        // their parts never wait, so they get their own pool and the readers cannot starve them.
        // Shard builds later wait on their slices, which run on the second pool for the same reason.
        ExecutorService pool = Executors.newFixedThreadPool(options.threads(), r -> {
            Thread t = new Thread(r, "trigrep-index");
            t.setDaemon(true);
            return t;
        });
        ExecutorService slicePool = Executors.newFixedThreadPool(options.threads(), r -> {
            Thread t = new Thread(r, "trigrep-index-slice");
            t.setDaemon(true);
            return t;
        });
        // On Ctrl-C or SIGTERM, and when the build ends or fails: stop the workers first (they would
        // go on writing into the scratch folder), then delete it. Shards already renamed into place
        // are complete. The hook is in place before the scratch folder exists, so no signal can fall
        // between the two.
        AtomicReference<Path> scratchRef = new AtomicReference<>();
        // Creating the scratch folder and stopping exclude each other: the folder is either known
        // to the cleanup or never created.
        Object scratchLock = new Object();
        boolean[] stopped = {false};
        AtomicReference<Extraction> extractionRef = new AtomicReference<>();
        AtomicReference<CtagsFeed> feedRef = new AtomicReference<>();
        Runnable stopAndClean = () -> {
            synchronized (scratchLock) {
                stopped[0] = true;
            }
            CtagsFeed feed = feedRef.get();
            if (feed != null) {
                feed.stop();
            }
            Extraction extraction = extractionRef.getAndSet(null);
            if (extraction != null) {
                try {
                    extraction.close();
                } catch (IOException e) {
                    // its spools are in the scratch folder, deleted below
                }
            }
            pool.shutdownNow();
            slicePool.shutdownNow();
            try {
                pool.awaitTermination(10, TimeUnit.SECONDS);
                slicePool.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            deleteScratch(scratchRef.get());
        };
        Thread cleanup = new Thread(stopAndClean, "trigrep-index-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            Path scratch;
            synchronized (scratchLock) {
                if (stopped[0]) {
                    throw new java.io.InterruptedIOException("stopped before the build began");
                }
                scratch = Files.createTempDirectory(out, ".build-");
                scratchRef.set(scratch);
            }
            for (PackageSource p : packages) {
                stats.inputBytesTotal.addAndGet(p.inputBytes());
            }
            // ctags runs while the corpus is read: each part goes to it once spooled.
            CtagsFeed feed = null;
            if (options.symbols().extractor() != null) {
                Extraction extraction = options.symbols().extractor().begin(scratch);
                extractionRef.set(extraction);
                feed = new CtagsFeed(extraction, packages.size());
                feedRef.set(feed);
            }
            List<ReadPackage> read = new PackageSpooler(options, stats, scratch, pool, slicePool)
                    .spool(packages, plan.weight(), feed, report);
            long readNanos = System.nanoTime() - start;

            Placement placement = Placement.of(read, plan);
            ShardWriter writer = new ShardWriter(options, clock, stats, scratch, slicePool);
            // One shard at a time, each with every core: a build's memory (its count table, its
            // workers' buffers, its mapped spools) is then one shard's, not every shard's at once.
            List<BuiltShard> results = new ArrayList<>();
            for (int shard = 0; shard < plan.shards(); shard++) {
                if (!plan.buildEmpty() && placement.slices().get(shard).isEmpty()) {
                    results.add(null);
                    continue;
                }
                results.add(writer.write(
                        shard,
                        placement.slices().get(shard),
                        placement.skippedCounts().get(shard),
                        plan.target().apply(shard),
                        feed == null ? null : new ShardBuilder.Definitions(extractionRef.get(), feed)));
            }
            FileTrees.fsync(out);
            return new Report(
                    Collections.unmodifiableList(results),
                    List.copyOf(problems),
                    stats,
                    readNanos,
                    System.nanoTime() - start,
                    placement.skipped(),
                    placement.packages());
        } finally {
            stopAndClean.run();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
        }
    }

    /** Temporary folders of an earlier run that was killed: never a valid shard, always safe to delete. */
    private static void removeLeftovers(Path out) throws IOException {
        try (Stream<Path> entries = Files.list(out)) {
            for (Path p : entries.toList()) {
                String name = p.getFileName().toString();
                if (name.startsWith(".build-") || (name.endsWith(".old") && name.startsWith(".shard-"))) {
                    deleteQuietly(p);
                }
            }
        }
    }

    /**
     * Deletes the scratch folder, retrying while a straggling worker (one that ignored its interrupt
     * for a moment) may still be adding files to it.
     */
    private static void deleteScratch(Path scratch) {
        if (scratch == null) {
            return;
        }
        for (int attempt = 0; attempt < 20 && Files.exists(scratch); attempt++) {
            deleteQuietly(scratch);
            if (Files.exists(scratch)) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    static void deleteQuietly(Path root) {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try {
            // walkFileTree rather than Files.walk: a file that vanishes mid-walk is skipped, not fatal
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    deleteOne(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) {
                    deleteOne(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            // best effort: a leftover temporary folder is removed by the next run
        }
    }

    private static void deleteOne(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a folder a worker is still filling: the caller retries
        }
    }
}
