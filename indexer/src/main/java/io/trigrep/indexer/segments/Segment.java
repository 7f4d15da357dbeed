package io.trigrep.indexer.segments;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.symbols.Symbols;

/**
 * One immutable segment of a shard, opened: a complete shard folder's files (its own doc ids,
 * from 0) and the docs of it deleted as of the generation that opened it.
 */
public record Segment(long id, Shard shard, Symbols symbols, Deletes deletes) {
    public boolean live(int doc) {
        return !deletes.isDeleted(doc);
    }

    public int liveDocs() {
        return deletes.docCount() - deletes.count();
    }

    /**
     * Reads every byte of the segment's files against their checksums, the symbols too: a search
     * ranks with them, and after a reboot this read is also what brings them into the page cache.
     */
    public void verify() throws CorruptIndexException {
        shard.verify();
        symbols.verify();
    }

    /** The bytes {@link #verify} reads. */
    public long bytes() {
        return shard.manifest().contentBytes()
                + shard.manifest().indexBytes()
                + shard.manifest().docTableBytes()
                + symbols.bytes();
    }
}
