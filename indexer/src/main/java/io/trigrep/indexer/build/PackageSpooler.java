package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.files.IoMessages;
import io.trigrep.indexer.filter.ContentFilter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;

/**
 * Reads a run's packages, one reader thread each, and cuts them into parts of a few MiB that
 * workers filter and spool into the scratch folder in parallel, so one huge package uses every
 * core as many small ones do. A package that fails to read is reported and left out.
 */
final class PackageSpooler {
    /** Contents read but not yet spooled, per worker thread; at least 64 MiB, one file at the size cap. */
    private static long readBudget(int threads) {
        return Math.max(64L << 20, 3L * threads * PackageReader.BATCH_BYTES);
    }

    private final IndexBuilder.Options options;
    private final IndexStats stats;
    private final Path scratch;
    private final ExecutorService readers;
    private final ExecutorService workers;

    PackageSpooler(
            IndexBuilder.Options options,
            IndexStats stats,
            Path scratch,
            ExecutorService readers,
            ExecutorService workers) {
        this.options = options;
        this.stats = stats;
        this.scratch = scratch;
        this.readers = readers;
        this.workers = workers;
    }

    /**
     * Every package that read whole, in name order, each part handed to {@code feed} (when not
     * null) once spooled; the others reported to {@code errors}.
     */
    List<ReadPackage> spool(
            List<PackageSource> packages, ToDoubleFunction<String> weight, CtagsFeed feed, Consumer<String> errors)
            throws IOException, InterruptedException {
        ThreadLocal<ContentFilter> filters = ThreadLocal.withInitial(() -> new ContentFilter(options.limits()));
        ThreadLocal<ByteBuffer> trigramBuffers =
                ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(1 << 20).order(ByteOrder.LITTLE_ENDIAN));
        Budget budget = new Budget(readBudget(options.threads()), PackageReader.BATCH_BYTES);
        /* What one package's reader leaves: its parts (done or under way) and how its read ended. */
        record Reading(PackageSource source, PackageReader reader, Exception failure) {}
        List<Future<Reading>> futures = new ArrayList<>();
        for (int i = 0; i < packages.size(); i++) {
            PackageSource source = packages.get(i);
            int number = i;
            futures.add(readers.submit(() -> {
                PackageReader reader = new PackageReader(
                        source.name(),
                        (float) weight.applyAsDouble(source.name()),
                        source.refs(),
                        options.limits(),
                        budget,
                        batch -> workers.submit(() -> {
                            SpooledPart part = null;
                            try {
                                part = SpooledPart.spool(
                                        batch,
                                        scratch,
                                        "package-" + number + "-part-" + batch.index(),
                                        filters.get(),
                                        stats,
                                        trigramBuffers.get());
                                return part;
                            } finally {
                                budget.give(batch.bytes());
                                if (feed != null) {
                                    feed.spooled(number, batch.index(), part);
                                }
                            }
                        }));
                try {
                    source.read(reader);
                    reader.flush();
                    return new Reading(source, reader, null);
                } catch (IOException | RuntimeException e) {
                    reader.discard();
                    return new Reading(source, reader, e);
                } finally {
                    stats.inputBytesDone.add(source.inputBytes());
                    if (feed != null) {
                        feed.ended(number, reader.submitted().size());
                    }
                }
            }));
        }
        List<ReadPackage> done = new ArrayList<>();
        for (Future<Reading> f : futures) {
            Reading reading = get(f);
            Exception failure = reading.failure();
            List<SpooledPart> parts = new ArrayList<>();
            for (Future<SpooledPart> part : reading.reader().submitted()) {
                try {
                    parts.add(get(part));
                } catch (IOException | RuntimeException e) {
                    failure = failure != null ? failure : e;
                }
            }
            if (failure != null) {
                // ctags may be reading the parts' spools: the scratch folder's removal takes them then.
                for (SpooledPart part : parts) {
                    if (feed == null) {
                        part.abandon();
                    }
                }
                stats.failedInputs.increment();
                errors.accept("package " + reading.source().name() + " left out: " + IoMessages.describe(failure));
                continue;
            }
            stats.packages.increment();
            for (SpooledPart part : parts) {
                for (SpooledPart.Skipped skipped : part.skipped()) {
                    stats.skipped(skipped.reason(), skipped.bytes());
                }
            }
            done.add(new ReadPackage(reading.source().name(), parts));
        }
        done.sort(Comparator.comparing(ReadPackage::name));
        return done;
    }

    private static <T> T get(Future<T> future) throws IOException, InterruptedException {
        try {
            return future.get();
        } catch (ExecutionException e) {
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
}
