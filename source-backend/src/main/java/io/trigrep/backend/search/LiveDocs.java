package io.trigrep.backend.search;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.segments.Deletes;

/**
 * A segment's candidates without its deleted docs: a deleted file is skipped here, before it is
 * counted as a candidate or searched. Only wrapped around segments that have deletes.
 */
final class LiveDocs implements DocIterator {
    private final DocIterator docs;
    private final Deletes deletes;

    LiveDocs(DocIterator docs, Deletes deletes) {
        this.docs = docs;
        this.deletes = deletes;
    }

    @Override
    public int docId() {
        return docs.docId();
    }

    @Override
    public int next() throws CorruptIndexException {
        return live(docs.next());
    }

    @Override
    public int advance(int target) throws CorruptIndexException {
        return live(docs.advance(target));
    }

    private int live(int doc) throws CorruptIndexException {
        while (doc != NO_MORE_DOCS && deletes.isDeleted(doc)) {
            doc = docs.next();
        }
        return doc;
    }

    @Override
    public long cost() {
        return docs.cost();
    }
}
