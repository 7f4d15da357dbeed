package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.FileVisitor;
import io.trigrep.indexer.filter.ContentFilter;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.filter.SkipReason;
import io.trigrep.indexer.format.DocTableWriter;
import io.trigrep.indexer.format.GitRefs;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * Receives one package's files as its source reads them (sequentially: a folder walk, a tar
 * stream) and cuts them, in that order, into batches of a few MiB or a few thousand files. Each
 * batch is handed to a worker that filters it, collects its trigrams and spools it as one
 * {@link SpooledPart}; so one large package is filtered on every core, and the read order alone
 * decides how it is cut (the same input gives the same parts). Contents in flight are bounded by
 * a shared {@link Budget}.
 */
final class PackageReader implements FileVisitor {
    static final int BATCH_BYTES = 4 << 20;
    static final int BATCH_FILES = 4096;

    /** One file of a batch, or (when {@code reason} is set) one file left out while reading. */
    record Entry(String path, int offset, int length, SkipReason reason, long skippedBytes, long branches) {}

    /** What one worker turns into one part: the {@code index}-th batch of its package. */
    @SuppressWarnings("ArrayRecordComponent") // parallel arrays by design: a carrier, never compared
    record Batch(String packageName, float weight, GitRefs refs, int index, byte[] bytes, List<Entry> entries) {}

    private final String name;
    private final float weight;
    private final GitRefs refs;
    private final FilterLimits limits;
    private final Budget budget;
    private final Function<Batch, Future<SpooledPart>> submit;
    private final List<Future<SpooledPart>> submitted = new ArrayList<>();
    /** The current batch's buffer, from the budget; {@link Budget#none()} between batches. */
    private byte[] bytes = Budget.none();

    private int used;
    private List<Entry> entries = new ArrayList<>();

    PackageReader(
            String name,
            float weight,
            GitRefs refs,
            FilterLimits limits,
            Budget budget,
            Function<Batch, Future<SpooledPart>> submit) {
        this.name = name;
        this.weight = weight;
        this.refs = refs;
        this.limits = limits;
        this.budget = budget;
        this.submit = submit;
    }

    /** The parts handed to workers so far, in package order. */
    List<Future<SpooledPart>> submitted() {
        return submitted;
    }

    @Override
    public long maxFileBytes() {
        return limits.maxFileBytes();
    }

    @Override
    public void file(String path, ByteBuffer content) throws IOException {
        file(path, content, 0);
    }

    /**
     * Why a file of {@code length} bytes at {@code path} is left out before its content is looked
     * at (the workers then check the content): null when it is not.
     */
    static SkipReason reasonBeforeContent(String path, int length, FilterLimits limits) {
        SkipReason reason = ContentFilter.check(path, limits);
        if (reason == null
                && path.length() * 3L > DocTableWriter.MAX_PATH_BYTES
                && path.getBytes(StandardCharsets.UTF_8).length > DocTableWriter.MAX_PATH_BYTES) {
            reason = SkipReason.UNSAFE_PATH;
        }
        if (reason == null && length > limits.maxFileBytes()) {
            reason = SkipReason.TOO_LARGE;
        }
        return reason;
    }

    @Override
    public void file(String path, ByteBuffer content, long branches) throws IOException {
        int length = content.remaining();
        SkipReason reason = reasonBeforeContent(path, length, limits);
        if (reason != null) {
            skipped(path, reason, length);
            return;
        }
        if (used > 0 && (used + length > bytes.length || entries.size() >= BATCH_FILES)) {
            flush();
        }
        if (used == 0 && (bytes.length < length || bytes.length == 0)) {
            // Nothing of this batch is in the buffer yet: trade it for one the file fits in. A
            // reader waiting here holds no buffer, so the workers' give-backs always end the wait.
            budget.give(bytes);
            bytes = Budget.none();
            bytes = budget.take(length);
        }
        content.get(content.position(), bytes, used, length);
        entries.add(new Entry(path, used, length, null, 0, branches));
        used += length;
    }

    @Override
    public void skipped(String path, SkipReason reason, long bytes) {
        entries.add(new Entry(path, 0, 0, reason, bytes, 0));
    }

    /** Hands the current batch to a worker. Called by the package's reader at its end, too. */
    void flush() {
        if (entries.isEmpty() && used == 0) {
            return;
        }
        submitted.add(submit.apply(new Batch(name, weight, refs, submitted.size(), bytes, List.copyOf(entries))));
        bytes = Budget.none();
        used = 0;
        entries = new ArrayList<>();
    }

    /** After a failed read: gives back the buffer of a batch that was never handed over. */
    void discard() {
        budget.give(bytes);
        bytes = Budget.none();
        used = 0;
        entries = new ArrayList<>();
    }
}
