package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.FileVisitor;
import io.trigrep.indexer.filetype.FileType;
import io.trigrep.indexer.filter.ContentFilter;
import io.trigrep.indexer.filter.SkipReason;
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
    record SpooledFile(byte[] path, long offset, int length, FileType type, int lines, float rank) {}

    private final String name;
    private final float weight;
    private final Path spool;
    private final ContentFilter filter;
    private final IndexStats stats;
    private final FileChannel out;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20);
    private final List<SpooledFile> files = new ArrayList<>();
    private long written;

    SpooledPackage(String name, float weight, Path spool, ContentFilter filter, IndexStats stats) throws IOException {
        this.name = name;
        this.weight = weight;
        this.spool = spool;
        this.filter = filter;
        this.stats = stats;
        this.out = FileChannel.open(spool, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
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
        files.add(new SpooledFile(pathBytes, written, length, type, filter.lines(), StaticRank.of(path, type, weight)));
        while (content.hasRemaining()) {
            if (!buffer.hasRemaining()) {
                flush();
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

    private void flush() throws IOException {
        buffer.flip();
        while (buffer.hasRemaining()) {
            out.write(buffer);
        }
        buffer.clear();
    }

    void finish() throws IOException {
        flush();
        out.close();
    }

    void abandon() throws IOException {
        out.close();
        java.nio.file.Files.deleteIfExists(spool);
    }
}
