package io.trigrep.indexer.segments;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.symbols.Symbols;
import java.util.HashMap;
import java.util.Map;

/**
 * One immutable segment of a shard, opened: a complete shard folder's files (its own doc ids,
 * from 0) and the docs of it deleted as of the generation that opened it. {@code moved} holds,
 * by package id, the branches of the repositories that moved since the segment was written, at
 * the commits the generation records (see {@link #refs}).
 */
public record Segment(long id, Shard shard, Symbols symbols, Deletes deletes, Map<Integer, GitRefs> moved) {
    public Segment {
        moved = Map.copyOf(moved);
    }

    public Segment(long id, Shard shard, Symbols symbols, Deletes deletes) {
        this(id, shard, symbols, deletes, Map.of());
    }

    /**
     * The segment opened with the repositories' branches as {@code current} records them (by
     * package name; see {@link Generation#repositories}).
     */
    public static Segment of(long id, Shard shard, Symbols symbols, Deletes deletes, Map<String, GitRefs> current)
            throws CorruptIndexException {
        Map<Integer, GitRefs> moved = new HashMap<>();
        if (!current.isEmpty()) {
            DocTable docs = shard.docs();
            for (int p = 0; p < docs.packageCount(); p++) {
                GitRefs own = docs.refs(p);
                GitRefs now = own.isRepository() ? current.get(docs.packageName(p)) : null;
                if (now != null && !now.equals(own)) {
                    moved.put(p, own.at(now));
                }
            }
        }
        return new Segment(id, shard, symbols, deletes, moved);
    }

    /**
     * Package {@code pkg}'s branches in the order this segment's branch masks count them, at the
     * commits the index holds now: a file an update left here because its paths did not change is
     * reported at its branches' current commits, where its content is the same.
     */
    public GitRefs refs(int pkg) {
        GitRefs r = moved.isEmpty() ? null : moved.get(pkg);
        return r != null ? r : shard.docs().refs(pkg);
    }

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
