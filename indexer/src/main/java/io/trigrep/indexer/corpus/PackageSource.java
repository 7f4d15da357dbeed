package io.trigrep.indexer.corpus;

import io.trigrep.indexer.format.GitRefs;
import java.io.IOException;

/** One package of a corpus: a name (e.g. {@code zlib_1.2.13.dfsg-1}) and a way to read its files. */
public interface PackageSource {
    String name();

    /** Bytes this package occupies in the input (an archive's size, a folder's files), for progress. */
    long inputBytes();

    /** Reads every file of the package, in a deterministic order, with paths relative to the package root. */
    void read(FileVisitor visitor) throws IOException;

    /** A git repository's branches at their commits; {@link GitRefs#NONE} for any other package. */
    default GitRefs refs() {
        return GitRefs.NONE;
    }
}
