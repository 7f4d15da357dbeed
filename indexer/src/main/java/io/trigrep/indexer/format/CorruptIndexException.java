package io.trigrep.indexer.format;

import java.io.IOException;
import java.nio.file.Path;

/** A shard file that is truncated, has the wrong magic or version, fails its checksum, or points outside itself. */
public final class CorruptIndexException extends IOException {
    private static final long serialVersionUID = 1L;
    private final transient Path file;
    private final long offset;
    private final String problem;

    public CorruptIndexException(Path file, long offset, String problem) {
        super(file + " at offset " + offset + ": " + problem);
        this.file = file;
        this.offset = offset;
        this.problem = problem;
    }

    /** The file that is wrong. */
    public Path file() {
        return file;
    }

    /** Where in it, in bytes from its start. */
    public long offset() {
        return offset;
    }

    /** What is wrong there, without the file's path (for answers that must not show server paths). */
    public String problem() {
        return problem;
    }
}
