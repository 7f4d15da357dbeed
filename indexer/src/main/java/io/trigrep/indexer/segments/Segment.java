package io.trigrep.indexer.segments;

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
}
