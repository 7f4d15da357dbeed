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

    /** A file left out before its content was read. */
    void skipped(String path, SkipReason reason, long bytes);
}
