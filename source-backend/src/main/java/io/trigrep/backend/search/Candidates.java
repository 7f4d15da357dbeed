package io.trigrep.backend.search;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.PostingIterator;
import io.trigrep.indexer.format.TrigramIndex;
import io.trigrep.query.plan.Query;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Turns a trigram {@link Query} into an iterator of candidate docs over a shard's index.
 * Intersections lead with the shortest list and skip lists so long, compared with the shortest,
 * that they would barely narrow the candidates (verification reads the file anyway).
 */
final class Candidates {
    /** A list this many times longer than the shortest of an intersection is not worth walking. */
    static final int REFINE_RATIO = 64;

    private Candidates() {}

    static DocIterator of(Query query, TrigramIndex index) throws CorruptIndexException {
        return of(query, index, null);
    }

    /**
     * @param defined for a boolean query with {@code sym:} operands, each one's definitions in
     *                this segment, by operand index (null for regex operands); else null
     */
    static DocIterator of(Query query, TrigramIndex index, SymbolHits[] defined) throws CorruptIndexException {
        if (query instanceof Query.All) {
            return new AllDocs(index.docCount());
        }
        if (query instanceof Query.None) {
            return new Empty();
        }
        if (query instanceof Query.Trigram t) {
            int entry = index.find(t.value());
            if (entry < 0) {
                return new Empty();
            }
            return new Postings(index.postings(entry, new PostingIterator()));
        }
        if (query instanceof Query.Defines d) {
            return defined[d.operand()].docIterator();
        }
        if (query instanceof Query.And and) {
            List<DocIterator> parts = new ArrayList<>();
            for (Query q : and.operands()) {
                DocIterator part = of(q, index, defined);
                if (part instanceof Empty) {
                    return part;
                }
                if (!(part instanceof AllDocs)) {
                    parts.add(part);
                }
            }
            if (parts.isEmpty()) {
                return new AllDocs(index.docCount());
            }
            parts.sort(Comparator.comparingLong(DocIterator::cost));
            long shortest = parts.get(0).cost();
            List<DocIterator> kept = new ArrayList<>();
            for (DocIterator p : parts) {
                if (kept.isEmpty() || p.cost() <= shortest * REFINE_RATIO) {
                    kept.add(p);
                }
            }
            return kept.size() == 1 ? kept.get(0) : new Intersection(kept);
        }
        List<DocIterator> parts = new ArrayList<>();
        for (Query q : ((Query.Or) query).operands()) {
            DocIterator part = of(q, index, defined);
            if (part instanceof AllDocs) {
                return part;
            }
            if (!(part instanceof Empty)) {
                parts.add(part);
            }
        }
        return parts.isEmpty() ? new Empty() : parts.size() == 1 ? parts.get(0) : new Union(parts);
    }

    static final class Empty implements DocIterator {
        private int doc = -1;

        @Override
        public int docId() {
            return doc;
        }

        @Override
        public int next() {
            doc = NO_MORE_DOCS;
            return doc;
        }

        @Override
        public int advance(int target) {
            doc = NO_MORE_DOCS;
            return doc;
        }

        @Override
        public long cost() {
            return 0;
        }
    }

    static final class AllDocs implements DocIterator {
        private final int count;
        private int doc = -1;

        AllDocs(int count) {
            this.count = count;
        }

        @Override
        public int docId() {
            return doc;
        }

        @Override
        public int next() {
            doc = doc + 1 < count ? doc + 1 : NO_MORE_DOCS;
            return doc;
        }

        @Override
        public int advance(int target) {
            doc = target < count ? Math.max(target, doc) : NO_MORE_DOCS;
            return doc;
        }

        @Override
        public long cost() {
            return count;
        }
    }

    static final class Postings implements DocIterator {
        private final PostingIterator postings;

        Postings(PostingIterator postings) {
            this.postings = postings;
        }

        @Override
        public int docId() {
            return postings.docId();
        }

        @Override
        public int next() throws CorruptIndexException {
            return postings.next();
        }

        @Override
        public int advance(int target) throws CorruptIndexException {
            return postings.advance(target);
        }

        @Override
        public long cost() {
            return postings.cost();
        }
    }

    /** Leapfrog: the lead proposes, every other list must reach the same doc. */
    static final class Intersection implements DocIterator {
        private final DocIterator[] parts;
        private int doc = -1;

        Intersection(List<DocIterator> parts) {
            this.parts = parts.toArray(new DocIterator[0]);
        }

        @Override
        public int docId() {
            return doc;
        }

        @Override
        public int next() throws CorruptIndexException {
            return align(parts[0].next());
        }

        @Override
        public int advance(int target) throws CorruptIndexException {
            return align(parts[0].advance(target));
        }

        private int align(int candidate) throws CorruptIndexException {
            outer:
            while (candidate != NO_MORE_DOCS) {
                for (int i = 1; i < parts.length; i++) {
                    int d = parts[i].docId() >= candidate ? parts[i].docId() : parts[i].advance(candidate);
                    if (d != candidate) {
                        candidate = parts[0].advance(d);
                        continue outer;
                    }
                }
                doc = candidate;
                return doc;
            }
            doc = NO_MORE_DOCS;
            return doc;
        }

        @Override
        public long cost() {
            return parts[0].cost();
        }
    }

    /** The smallest current doc of any part; parts are few (bounded by the planner's set sizes). */
    static final class Union implements DocIterator {
        private final DocIterator[] parts;
        private int doc = -1;

        Union(List<DocIterator> parts) {
            this.parts = parts.toArray(new DocIterator[0]);
        }

        @Override
        public int docId() {
            return doc;
        }

        @Override
        public int next() throws CorruptIndexException {
            return advance(doc + 1);
        }

        @Override
        public int advance(int target) throws CorruptIndexException {
            int min = NO_MORE_DOCS;
            for (DocIterator p : parts) {
                int d = p.docId();
                if (d < target) {
                    d = p.advance(target);
                }
                if (d < min) {
                    min = d;
                }
            }
            doc = min;
            return doc;
        }

        @Override
        public long cost() {
            long total = 0;
            for (DocIterator p : parts) {
                total += p.cost();
            }
            return total;
        }
    }
}
