package io.trigrep.indexer.format;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** Reads {@code contents.tgc}: every indexed file's bytes, at the offsets the doc table gives. */
public final class ContentStore implements Closeable {
    private final MappedFile file;

    private ContentStore(MappedFile file) {
        this.file = file;
    }

    public static ContentStore open(Path path) throws IOException {
        MappedFile file = MappedFile.open(path);
        Envelope.check(file, Envelope.KIND_CONTENTS);
        return new ContentStore(file);
    }

    /** The bytes of one file, as a view of the mapping. */
    public ByteBuffer content(long offset, int length) throws CorruptIndexException {
        if (offset < Envelope.HEADER || offset + length > file.size() - Envelope.FOOTER) {
            throw new CorruptIndexException(
                    file.path(), offset, "content span of " + length + " bytes outside the content section");
        }
        return file.slice(offset, length);
    }

    public long size() {
        return file.size();
    }

    public void verifyChecksum() throws CorruptIndexException {
        Envelope.verifyChecksum(file);
    }

    /** Unmaps the file: only once no thread reads it (see {@link MappedFile#close}). */
    @Override
    public void close() {
        file.close();
    }
}
