package io.trigrep.indexer.build;

import io.trigrep.indexer.filetype.FileType;
import io.trigrep.indexer.filter.ContentFilter;
import io.trigrep.indexer.filter.SkipReason;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.format.Trigrams;
import io.trigrep.indexer.rank.StaticRank;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One batch of one package, filtered: its accepted files' bytes in a spool file, their distinct
 * trigrams in a second one, a small record per file and per skipped file in memory. Shards are
 * assembled from parts once every part's size is known; a part's files may go to several shards.
 *
 * @param index    the batch's place in its package (parts are read in this order)
 * @param spool    the accepted files' bytes back to back; null when none was accepted
 * @param trigramSpool each accepted file's distinct trigrams as little-endian ints, its run at its
 *                 {@code trigramOffset}, grouped by first byte ({@link Trigrams.Set#forEachByFirstByte})
 */
record SpooledPart(
        String packageName,
        float weight,
        GitRefs refs,
        int index,
        Path spool,
        Path trigramSpool,
        List<SpooledFile> files,
        List<Skipped> skipped,
        long bytes) {
    /** One accepted file: its bytes at {@code offset} in the spool, its distinct trigrams at {@code trigramOffset} (in ints). */
    @SuppressWarnings("ArrayRecordComponent") // parallel arrays by design: a carrier, never compared
    record SpooledFile(
            byte[] path,
            long offset,
            int length,
            FileType type,
            int lines,
            float rank,
            long trigramOffset,
            int trigrams,
            long branches) {}

    /** One file left out, in the order the package was read. */
    record Skipped(String path, SkipReason reason, long bytes) {}

    /**
     * Filters a batch and spools what it accepts under {@code scratch}; counts the accepted files
     * into {@code stats} (skipped ones are counted once their package is read whole, so that a
     * package that fails counts in neither the summary, the skipped list nor a manifest).
     * {@code trigramBuffer} is the worker's own (direct, little-endian) write buffer.
     */
    static SpooledPart spool(
            PackageReader.Batch batch,
            Path scratch,
            String spoolName,
            ContentFilter filter,
            IndexStats stats,
            ByteBuffer trigramBuffer)
            throws IOException {
        List<SpooledFile> files = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        Path spool = scratch.resolve(spoolName + ".spool");
        Path trigramSpool = scratch.resolve(spoolName + ".trigrams");
        FileChannel out = null;
        FileChannel trigramOut = null;
        long written = 0;
        long trigramsWritten = 0;
        // The run of accepted bytes not yet written: [runStart, runEnd) of the batch.
        int runStart = 0;
        int runEnd = 0;
        boolean done = false;
        try {
            for (PackageReader.Entry e : batch.entries()) {
                if (e.reason() != null) {
                    skipped.add(new Skipped(e.path(), e.reason(), e.skippedBytes()));
                    continue;
                }
                SkipReason reason = filter.checkContent(batch.bytes(), e.offset(), e.length());
                if (reason != null) {
                    skipped.add(new Skipped(e.path(), reason, e.length()));
                    continue;
                }
                if (out == null) {
                    out = FileChannel.open(spool, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                    trigramOut =
                            FileChannel.open(trigramSpool, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                }
                ByteBuffer content = ByteBuffer.wrap(batch.bytes(), e.offset(), e.length());
                FileType type = FileType.detect(e.path(), content.duplicate());
                Trigrams.Set set = filter.trigrams();
                files.add(new SpooledFile(
                        e.path().getBytes(StandardCharsets.UTF_8),
                        written,
                        e.length(),
                        type,
                        filter.lines(),
                        StaticRank.of(e.path(), type, batch.weight()),
                        trigramsWritten,
                        set.size(),
                        e.branches()));
                writeTrigrams(set, trigramBuffer, trigramOut);
                trigramsWritten += set.size();
                // Accepted files that lie back to back in the batch go out in one write.
                if (e.offset() != runEnd) {
                    write(batch.bytes(), runStart, runEnd, out);
                    runStart = e.offset();
                }
                runEnd = e.offset() + e.length();
                written += e.length();
                stats.files.increment();
                stats.bytes.add(e.length());
            }
            write(batch.bytes(), runStart, runEnd, out);
            flush(trigramBuffer, trigramOut);
            done = true;
        } finally {
            trigramBuffer.clear();
            if (out != null) {
                out.close();
                trigramOut.close();
            }
            if (!done) {
                Files.deleteIfExists(spool);
                Files.deleteIfExists(trigramSpool);
            }
        }
        return new SpooledPart(
                batch.packageName(),
                batch.weight(),
                batch.refs(),
                batch.index(),
                out == null ? null : spool,
                out == null ? null : trigramSpool,
                List.copyOf(files),
                List.copyOf(skipped),
                written);
    }

    private static void write(byte[] bytes, int from, int to, FileChannel channel) throws IOException {
        // At most 1 MiB per write: the JDK copies a heap buffer through a cached direct one as large as the write.
        for (int at = from; at < to; ) {
            ByteBuffer chunk = ByteBuffer.wrap(bytes, at, Math.min(1 << 20, to - at));
            while (chunk.hasRemaining()) {
                at += channel.write(chunk);
            }
        }
    }

    private static void writeTrigrams(Trigrams.Set set, ByteBuffer buffer, FileChannel channel) throws IOException {
        if (!set.dense()) {
            int[] members = set.membersByFirstByte();
            for (int i = 0, n = set.size(); i < n; i++) {
                if (buffer.remaining() < 4) {
                    flush(buffer, channel);
                }
                buffer.putInt(members[i]);
            }
            return;
        }
        try {
            set.forEachByFirstByte(t -> {
                if (buffer.remaining() < 4) {
                    try {
                        flush(buffer, channel);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                buffer.putInt(t);
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private static void flush(ByteBuffer buffer, FileChannel channel) throws IOException {
        if (channel == null) {
            return;
        }
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    /** Deletes the spools (a package that failed to read, or the end of a build). */
    void abandon() throws IOException {
        if (spool != null) {
            Files.deleteIfExists(spool);
            Files.deleteIfExists(trigramSpool);
        }
    }
}
