package io.trigrep.indexer.build;

import io.trigrep.indexer.symbols.Extraction;
import io.trigrep.indexer.symbols.SymbolExtractor;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * A run's scratch folder and what writes into it: the reader and worker pools and ctags. On
 * {@link #close}, and on Ctrl-C or SIGTERM, the writers stop first (they would go on writing into
 * the folder), then the folder is deleted. Shards already renamed into place ({@link
 * #moveIntoPlace}) are complete.
 */
final class BuildScratch {
    private final ExecutorService readers;
    private final ExecutorService workers;
    private final AtomicReference<Path> folder = new AtomicReference<>();
    // Creating the folder, renaming out of it and stopping exclude each other: the folder is either
    // known to the cleanup or never created, and nothing leaves it once the cleanup has begun.
    private final Object lock = new Object();
    private boolean stopped;
    private final AtomicReference<Extraction> extraction = new AtomicReference<>();
    private final AtomicReference<CtagsFeed> feed = new AtomicReference<>();
    private final Thread cleanup = new Thread(this::stop, "trigrep-index-cleanup");

    /** The hook is in place before the folder exists, so no signal can fall between the two. */
    BuildScratch(int threads) {
        // Readers (one package each) wait on the read budget; the workers that filter and spool
        // their parts never wait, so they get their own pool and the readers cannot starve them.
        // Shard builds later wait on their slices, which run on the second pool for the same reason.
        readers = pool(threads, "trigrep-index");
        workers = pool(threads, "trigrep-index-slice");
        Runtime.getRuntime().addShutdownHook(cleanup);
    }

    private static ExecutorService pool(int threads, String name) {
        return Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Makes the scratch folder in {@code parent}; refused once stopped. */
    Path create(Path parent) throws IOException {
        synchronized (lock) {
            if (stopped) {
                throw new InterruptedIOException("stopped before the build began");
            }
            Path scratch = Files.createTempDirectory(parent, ".build-");
            folder.set(scratch);
            return scratch;
        }
    }

    /**
     * Renames {@code from}, a folder of the scratch folder, to {@code to} in place of what is there,
     * unless the run is stopped. A rename and the cleanup exclude each other: the cleanup never
     * deletes files of a folder on its way into place, and once it has begun nothing more is put in
     * place (the run then fails, so it commits nothing).
     */
    void moveIntoPlace(Path from, Path to) throws IOException {
        Path old = to.resolveSibling("." + to.getFileName() + ".old");
        synchronized (lock) {
            if (stopped) {
                throw new InterruptedIOException("stopped before " + to + " was put in place");
            }
            if (Files.exists(to)) {
                deleteQuietly(old);
                Files.move(to, old, StandardCopyOption.ATOMIC_MOVE);
            }
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        }
        deleteQuietly(old);
    }

    /** The scratch folder {@link #create} made. */
    Path folder() {
        return folder.get();
    }

    /** Fails once the run is stopped. */
    void checkRunning() throws InterruptedIOException {
        synchronized (lock) {
            if (stopped) {
                throw new InterruptedIOException("stopped before the build ended");
            }
        }
    }

    /** The threads that read packages, one package each. */
    ExecutorService readers() {
        return readers;
    }

    /** The threads that spool parts, then build shards' slices. */
    ExecutorService workers() {
        return workers;
    }

    /** Starts ctags on {@code extractor} in {@code scratch}, fed the parts of {@code packages} packages. */
    CtagsFeed startCtags(SymbolExtractor extractor, Path scratch, int packages) throws IOException {
        Extraction started = extractor.begin(scratch);
        extraction.set(started);
        CtagsFeed fed = new CtagsFeed(started, packages);
        feed.set(fed);
        return fed;
    }

    /** The ctags extraction under way; null when none was started or once stopped. */
    Extraction extraction() {
        return extraction.get();
    }

    /** Stops the writers and deletes the folder; the run is over. */
    void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running already
        }
    }

    private void stop() {
        synchronized (lock) {
            stopped = true;
        }
        CtagsFeed fed = feed.get();
        if (fed != null) {
            fed.stop();
        }
        Extraction started = extraction.getAndSet(null);
        if (started != null) {
            try {
                started.close();
            } catch (IOException e) {
                // its spools are in the scratch folder, deleted below
            }
        }
        readers.shutdownNow();
        workers.shutdownNow();
        try {
            readers.awaitTermination(10, TimeUnit.SECONDS);
            workers.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        deleteFolder(folder.get());
    }

    /** Temporary folders of an earlier run that was killed: never a valid shard, always safe to delete. */
    static void removeLeftovers(Path out) throws IOException {
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
    private static void deleteFolder(Path scratch) {
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
