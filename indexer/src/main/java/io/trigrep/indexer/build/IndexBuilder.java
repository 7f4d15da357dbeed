package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.filter.ContentFilter;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.ShardFiles;
import io.trigrep.indexer.rank.Popularity;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * One indexer run: read and filter every package into spools (in parallel), assign packages to
 * shards balancing bytes, build each shard in a temporary folder and rename it into place. A
 * package that fails to read is reported and left out; the others go on.
 */
public final class IndexBuilder {
    /** Options of a run. {@code pairBuffer} is the number of doc ids a shard build buffers for its posting lists (see PostingBuckets). */
    public record Options(int shards, FilterLimits limits, Popularity popularity, int threads, int pairBuffer) {
        public Options {
            if (shards < 1 || shards > 4096) {
                throw new IllegalArgumentException("shards must be in [1, 4096], got " + shards);
            }
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be >= 1, got " + threads);
            }
            if (pairBuffer < 1024) {
                throw new IllegalArgumentException("pairBuffer must be >= 1024, got " + pairBuffer);
            }
        }

        public static Options defaults(int shards) {
            return new Options(shards, FilterLimits.DEFAULT, Popularity.none(), Runtime.getRuntime().availableProcessors(), 32 << 20);
        }
    }

    /** What a run produced: per shard its build result, and everything that went wrong. */
    public record Report(List<BuiltShard> shards, List<String> errors, IndexStats stats, long readNanos, long nanos) {}

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
    public Report build(List<PackageSource> packages, Path out, Consumer<String> errors) throws IOException, InterruptedException {
        long start = System.nanoTime();
        Files.createDirectories(out);
        removeLeftovers(out);
        List<String> problems = java.util.Collections.synchronizedList(new ArrayList<>());
        Consumer<String> report = message -> {
            problems.add(message);
            errors.accept(message);
        };
        ExecutorService pool = Executors.newFixedThreadPool(options.threads(), r -> {
            Thread t = new Thread(r, "trigrep-index");
            t.setDaemon(true);
            return t;
        });
        // Shard builds wait on their slices: slices get their own pool so the two cannot starve each other.
        ExecutorService slicePool = Executors.newFixedThreadPool(options.threads(), r -> {
            Thread t = new Thread(r, "trigrep-index-slice");
            t.setDaemon(true);
            return t;
        });
        // On Ctrl-C or SIGTERM, and when the build ends or fails: stop the workers first (they would
        // go on writing into the scratch folder), then delete it. Shards already renamed into place
        // are complete. The hook is in place before the scratch folder exists, so no signal can fall
        // between the two.
        java.util.concurrent.atomic.AtomicReference<Path> scratchRef = new java.util.concurrent.atomic.AtomicReference<>();
        Runnable stopAndClean = () -> {
            pool.shutdownNow();
            slicePool.shutdownNow();
            try {
                pool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
                slicePool.awaitTermination(10, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            deleteScratch(scratchRef.get());
        };
        Thread cleanup = new Thread(stopAndClean, "trigrep-index-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            Path scratch = Files.createTempDirectory(out, ".build-");
            scratchRef.set(scratch);
            for (PackageSource p : packages) {
                stats.inputBytesTotal.addAndGet(p.inputBytes());
            }
            List<SpooledPackage> spooled = spool(packages, scratch, pool, report);
            long readNanos = System.nanoTime() - start;
            Map<String, SpooledPackage> byName = new TreeMap<>();
            List<ShardAssigner.Sized> sizes = new ArrayList<>();
            for (SpooledPackage p : spooled) {
                byName.put(p.name(), p);
                sizes.add(new ShardAssigner.Sized(p.name(), p.bytes()));
            }
            List<List<String>> assignment = ShardAssigner.assign(sizes, options.shards());
            List<Future<BuiltShard>> builds = new ArrayList<>();
            for (int shard = 0; shard < options.shards(); shard++) {
                List<SpooledPackage> members = assignment.get(shard).stream().map(byName::get).toList();
                int number = shard;
                builds.add(pool.submit(() -> buildShard(number, members, out, scratch, slicePool)));
            }
            List<BuiltShard> results = new ArrayList<>();
            for (Future<BuiltShard> build : builds) {
                results.add(get(build));
            }
            fsync(out);
            return new Report(results, List.copyOf(problems), stats, readNanos, System.nanoTime() - start);
        } finally {
            stopAndClean.run();
            try {
                Runtime.getRuntime().removeShutdownHook(cleanup);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running already
            }
        }
    }

    private List<SpooledPackage> spool(List<PackageSource> packages, Path scratch, ExecutorService pool, Consumer<String> errors)
            throws IOException, InterruptedException {
        ThreadLocal<ContentFilter> filters = ThreadLocal.withInitial(() -> new ContentFilter(options.limits()));
        List<Future<SpooledPackage>> futures = new ArrayList<>();
        for (int i = 0; i < packages.size(); i++) {
            PackageSource source = packages.get(i);
            Path spool = scratch.resolve("package-" + i + ".spool");
            futures.add(pool.submit(() -> {
                SpooledPackage p = new SpooledPackage(source.name(), options.popularity().weight(source.name()), spool,
                        filters.get(), stats);
                try {
                    source.read(p);
                    p.finish();
                    stats.packages.increment();
                    return p;
                } catch (IOException | RuntimeException e) {
                    p.abandon();
                    stats.failedInputs.increment();
                    errors.accept("package " + source.name() + " left out: " + e.getMessage());
                    return null;
                } finally {
                    stats.inputBytesDone.add(source.inputBytes());
                }
            }));
        }
        List<SpooledPackage> done = new ArrayList<>();
        for (Future<SpooledPackage> f : futures) {
            SpooledPackage p = get(f);
            if (p != null && !p.files().isEmpty()) {
                done.add(p);
            }
        }
        done.sort(Comparator.comparing(SpooledPackage::name));
        return done;
    }

    /** Threads left for each shard build when every shard builds at once. */
    private int slicesPerShard() {
        return Math.max(1, options.threads() / options.shards());
    }

    private BuiltShard buildShard(int shard, List<SpooledPackage> members, Path out, Path scratch, ExecutorService slicePool)
            throws IOException {
        String name = "shard-" + shard;
        Path temporary = scratch.resolve(name);
        long started = clock.millis();
        long t0 = System.nanoTime();
        BuiltShard result = ShardBuilder.build(members, temporary, options.pairBuffer(), slicesPerShard(), slicePool);
        Manifest manifest = new Manifest(name, result.docs(), result.packages(), result.trigrams(), result.contentBytes(),
                result.indexBytes(), result.docTableBytes(), started, (System.nanoTime() - t0) / 1_000_000);
        Files.writeString(temporary.resolve(ShardFiles.MANIFEST), manifest.toJson(), StandardOpenOption.CREATE_NEW);
        try (Stream<Path> files = Files.list(temporary)) {
            for (Path f : files.toList()) {
                if (f.getFileName().toString().startsWith("run-")) {
                    Files.delete(f);
                } else {
                    fsync(f);
                }
            }
        }
        fsync(temporary);
        Path target = out.resolve(name);
        Path old = out.resolve("." + name + ".old");
        if (Files.exists(target)) {
            deleteQuietly(old);
            Files.move(target, old, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        deleteQuietly(old);
        return result;
    }

    /** Temporary folders of an earlier run that was killed: never a valid shard, always safe to delete. */
    private static void removeLeftovers(Path out) throws IOException {
        try (Stream<Path> entries = Files.list(out)) {
            for (Path p : entries.toList()) {
                String name = p.getFileName().toString();
                if (name.startsWith(".build-") || name.endsWith(".old") && name.startsWith(".shard-")) {
                    deleteQuietly(p);
                }
            }
        }
    }

    private static <T> T get(Future<T> future) throws IOException, InterruptedException {
        try {
            return future.get();
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause);
        }
    }

    private static void fsync(Path path) throws IOException {
        boolean dir = Files.isDirectory(path);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            if (!dir) {
                throw e;
            }
            // some file systems refuse to open folders for fsync; the rename is still atomic
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
            Files.walkFileTree(root, new java.nio.file.SimpleFileVisitor<>() {
                @Override
                public java.nio.file.FileVisitResult visitFile(Path file, java.nio.file.attribute.BasicFileAttributes attrs) {
                    deleteOne(file);
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult visitFileFailed(Path file, IOException e) {
                    return java.nio.file.FileVisitResult.CONTINUE;
                }

                @Override
                public java.nio.file.FileVisitResult postVisitDirectory(Path dir, IOException e) {
                    deleteOne(dir);
                    return java.nio.file.FileVisitResult.CONTINUE;
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
