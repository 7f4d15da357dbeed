package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.FileVisitor;
import io.trigrep.indexer.filetype.FileType;
import io.trigrep.indexer.filter.ContentFilter;
import io.trigrep.indexer.filter.SkipReason;
import io.trigrep.indexer.format.Trigrams;
import io.trigrep.indexer.rank.StaticRank;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * One package read and filtered: its accepted files' bytes appended to a spool file, and a small
 * record per file in memory. Shards are assembled from spools once every package's size is known.
 */
final class SpooledPackage implements FileVisitor {
    /** One accepted file: its bytes at {@code offset} in the spool, its distinct trigrams at {@code trigramOffset} in the trigram spool. */
    record SpooledFile(byte[] path, long offset, int length, FileType type, int lines, float rank, long trigramOffset, int trigrams) {}

    private final String name;
    private final float weight;
    private final Path spool;
    private final ContentFilter filter;
    private final IndexStats stats;
    private final Path trigramSpool;
    private final FileChannel out;
    private final FileChannel trigramOut;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
    private final ByteBuffer trigramBuffer = ByteBuffer.allocateDirect(1 << 20).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    private long trigramsWritten;
    private final List<SpooledFile> files = new ArrayList<>();
    private long written;

    SpooledPackage(String name, float weight, Path spool, ContentFilter filter, IndexStats stats) throws IOException {
        this.name = name;
        this.weight = weight;
        this.spool = spool;
        this.filter = filter;
        this.stats = stats;
        this.trigramSpool = spool.resolveSibling(spool.getFileName() + ".trigrams");
        this.out = FileChannel.open(spool, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        this.trigramOut = FileChannel.open(trigramSpool, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    }

    /**
     * The trigrams of every accepted file as little-endian ints, each file's run at its
     * {@code trigramOffset}, grouped by first byte ({@link Trigrams.Set#membersByFirstByte}).
     */
    Path trigramSpool() {
        return trigramSpool;
    }

    String name() {
        return name;
    }

    float weight() {
        return weight;
    }

    Path spool() {
        return spool;
    }

    List<SpooledFile> files() {
        return files;
    }

    long bytes() {
        return written;
    }

    @Override
    public long maxFileBytes() {
        return filter.limits().maxFileBytes();
    }

    @Override
    public void file(String path, ByteBuffer content) throws IOException {
        SkipReason reason = ContentFilter.checkPath(path);
        byte[] pathBytes = path.getBytes(StandardCharsets.UTF_8);
        if (reason == null && pathBytes.length > io.trigrep.indexer.format.DocTableWriter.MAX_PATH_BYTES) {
            reason = SkipReason.UNSAFE_PATH;
        }
        if (reason == null) {
            reason = filter.checkContent(content);
        }
        if (reason != null) {
            skipped(path, reason, content.remaining());
            return;
        }
        FileType type = FileType.detect(path, content);
        int length = content.remaining();
        Trigrams.Set set = filter.trigrams();
        files.add(new SpooledFile(pathBytes, written, length, type, filter.lines(), StaticRank.of(path, type, weight),
                trigramsWritten, set.size()));
        int[] members = set.membersByFirstByte();
        for (int i = 0; i < set.size(); i++) {
            if (trigramBuffer.remaining() < 4) {
                flush(trigramBuffer, trigramOut);
            }
            trigramBuffer.putInt(members[i]);
        }
        trigramsWritten += set.size();
        while (content.hasRemaining()) {
            if (!buffer.hasRemaining()) {
                flush(buffer, out);
            }
            int n = Math.min(buffer.remaining(), content.remaining());
            buffer.put(buffer.position(), content, content.position(), n);
            buffer.position(buffer.position() + n);
            content.position(content.position() + n);
        }
        written += length;
        stats.files.increment();
        stats.bytes.add(length);
    }

    @Override
    public void skipped(String path, SkipReason reason, long bytes) {
        stats.skipped(reason, bytes);
    }

    private static void flush(ByteBuffer buffer, FileChannel channel) throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        buffer.clear();
    }

    void finish() throws IOException {
        flush(buffer, out);
        flush(trigramBuffer, trigramOut);
        out.close();
        trigramOut.close();
    }

    void abandon() throws IOException {
        out.close();
        trigramOut.close();
        java.nio.file.Files.deleteIfExists(spool);
        java.nio.file.Files.deleteIfExists(trigramSpool);
    }
}
