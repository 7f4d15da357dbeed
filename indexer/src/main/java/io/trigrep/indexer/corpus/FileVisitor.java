package io.trigrep.indexer.corpus;

import io.trigrep.indexer.filter.SkipReason;
import java.io.IOException;
import java.nio.ByteBuffer;

/** Receives the files of one package as a {@link PackageSource} reads them. */
public interface FileVisitor {
    /** Files larger than this are reported as skipped without being read. */
    long maxFileBytes();

    /** A regular file. {@code content} (position to limit) is only valid during the call. */
    void file(String path, ByteBuffer content) throws IOException;

    /**
     * A regular file of a git repository package: {@code branches} sets bit i when branch i of the
     * package's {@link PackageSource#refs()} holds this content at this path. A visitor that keeps no
     * branches takes it as a plain file.
     */
    default void file(String path, ByteBuffer content, long branches) throws IOException {
        file(path, content);
    }

    /** A file left out before its content was read. */
    void skipped(String path, SkipReason reason, long bytes);
}
