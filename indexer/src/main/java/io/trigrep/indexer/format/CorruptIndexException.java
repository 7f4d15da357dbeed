package io.trigrep.indexer.format;

import java.io.IOException;
import java.nio.file.Path;

/** A shard file that is truncated, has the wrong magic or version, fails its checksum, or points outside itself. */
public final class CorruptIndexException extends IOException {
    private static final long serialVersionUID = 1L;

    public CorruptIndexException(Path file, long offset, String problem) {
        super(file + " at offset " + offset + ": " + problem);
    }
}
