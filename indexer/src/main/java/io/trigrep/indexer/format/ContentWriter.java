package io.trigrep.indexer.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Writes {@code contents.tgc}: the files' bytes back to back, uncompressed, so the backend can run
 * regexes on the mapping. A {@linkplain FormatOutput#bulk bulk} output: the bytes bypass the page
 * cache where the file system allows it.
 */
public final class ContentWriter implements AutoCloseable {
    private final FormatOutput out;

    public ContentWriter(Path path) throws IOException {
        this.out = FormatOutput.bulk(path, Envelope.KIND_CONTENTS);
    }

    /** Appends one file's bytes; returns the file offset they start at. */
    public long append(ByteBuffer content) throws IOException {
        long at = out.position();
        out.write(content);
        return at;
    }

    /** Appends {@code length} bytes of a file from {@code position}, without mapping them; returns where they land. */
    public long appendRange(FileChannel source, long position, long length) throws IOException {
        long at = out.position();
        out.copyFrom(source, position, length);
        return at;
    }

    public long position() {
        return out.position();
    }

    public void finish() throws IOException {
        out.finish();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
