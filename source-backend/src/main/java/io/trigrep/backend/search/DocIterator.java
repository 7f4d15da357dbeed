package io.trigrep.backend.search;

import io.trigrep.indexer.format.CorruptIndexException;

/** Doc ids in increasing order: a posting list, or an intersection or union of them. */
interface DocIterator {
    int NO_MORE_DOCS = Integer.MAX_VALUE;

    int docId();

    int next() throws CorruptIndexException;

    /** Moves to the first doc at or after {@code target}; returns it. */
    int advance(int target) throws CorruptIndexException;

    /** An upper bound of the docs this iterator yields: orders intersections. */
    long cost();
}
