package io.trigrep.backend.search;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.symbols.Symbols;
import io.trigrep.query.plan.Query;
import io.trigrep.re2j.Pattern;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The definitions a {@code sym:} query finds in one shard, in doc order (then line): the names
 * whose trigrams the plan requires are intersected on the shard's name index and each survivor
 * matched by the regex; a regex with no required trigram scans every name. Every matching name's
 * symbols are then collected and sorted, so the search walks them file by file, as it walks
 * content candidates. A boolean query has one per {@code sym:} operand and segment: its docs are
 * the operand's candidates, and whether a doc holds a hit is whether the operand holds there.
 */
final class SymbolHits {
    /** More definitions than this for one query is a regex that names nearly everything: refused, not streamed. */
    static final int MAX_SYMBOLS = 4_000_000;

    private final int[] symbols;
    private final int[] docs;

    private SymbolHits(int[] symbols, int[] docs) {
        this.symbols = symbols;
        this.docs = docs;
    }

    static SymbolHits find(Symbols table, Query plan, Pattern names) throws CorruptIndexException {
        int[] required = required(plan);
        int[] ids = required.length == 0
                ? table.scanNames(n -> names.matcher(n).find())
                : table.namesWithAll(required, n -> names.matcher(n).find());
        SymbolHits hits = of(table, ids, MAX_SYMBOLS);
        if (hits == null) {
            throw new IllegalArgumentException(
                    "more than " + MAX_SYMBOLS + " definitions match: make the sym: regex narrower");
        }
        return hits;
    }

    /**
     * Where the definitions of the names {@code names} finds are, as {@code doc << 32 | line} keys,
     * increasing; null when {@code plan} requires no trigram (finding the names would read every
     * one) or when more than {@code limit} definitions match. A content query's plan serves: a
     * name the pattern finds holds the trigrams any match of it holds.
     */
    static long[] definedLines(Symbols table, Query plan, Pattern names, int limit) throws CorruptIndexException {
        int[] required = required(plan);
        if (required.length == 0) {
            return null;
        }
        SymbolHits hits =
                of(table, table.namesWithAll(required, n -> names.matcher(n).find()), limit);
        if (hits == null) {
            return null;
        }
        // In the walk's order (doc, then line), so the keys come out sorted.
        long[] keys = new long[hits.size()];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = (long) hits.docs[i] << 32 | table.line(hits.symbols[i]);
        }
        return keys;
    }

    /** The definitions of the names {@code ids}, in doc order (then line); null when there are more than {@code limit}. */
    private static SymbolHits of(Symbols table, int[] ids, int limit) throws CorruptIndexException {
        int total = 0;
        for (int name : ids) {
            total += table.endOfName(name) - table.firstOfName(name);
            if (total > limit) {
                return null;
            }
        }
        int[] symbols = new int[total];
        int n = 0;
        for (int name : ids) {
            for (int at = table.firstOfName(name); at < table.endOfName(name); at++) {
                symbols[n++] = table.symbolOfNameAt(at);
            }
        }
        // Symbol numbers follow doc order, then line: sorted, they are the walk's order.
        Arrays.sort(symbols);
        int[] docs = new int[n];
        int doc = 0;
        for (int i = 0; i < n; i++) {
            while (table.endOfDoc(doc) <= symbols[i]) {
                doc++;
            }
            docs[i] = doc;
        }
        return new SymbolHits(symbols, docs);
    }

    /** Trigrams every matching name holds: the plan's own, or its AND's trigram operands; none when it has no such part. */
    private static int[] required(Query plan) {
        List<Integer> out = new ArrayList<>();
        if (plan instanceof Query.Trigram t) {
            out.add(t.value());
        } else if (plan instanceof Query.And and) {
            for (Query q : and.operands()) {
                if (q instanceof Query.Trigram t) {
                    out.add(t.value());
                }
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    int size() {
        return symbols.length;
    }

    /** Whether {@code doc} defines a matching name. */
    boolean defines(int doc) {
        return Arrays.binarySearch(docs, doc) >= 0;
    }

    /** The index of the first hit in {@code doc}, or -1 when it has none. */
    int firstOf(int doc) {
        int at = Arrays.binarySearch(docs, doc);
        if (at < 0) {
            return -1;
        }
        while (at > 0 && docs[at - 1] == doc) {
            at--;
        }
        return at;
    }

    int symbol(int hit) {
        return symbols[hit];
    }

    int doc(int hit) {
        return docs[hit];
    }

    /** The docs that hold a hit, ascending, each once. */
    DocIterator docIterator() {
        return new DocIterator() {
            private int at = -1;
            private int doc = -1;

            @Override
            public int docId() {
                return doc;
            }

            @Override
            public int next() {
                at++;
                while (at < docs.length && at > 0 && docs[at] == docs[at - 1]) {
                    at++;
                }
                doc = at < docs.length ? docs[at] : NO_MORE_DOCS;
                return doc;
            }

            @Override
            public int advance(int target) {
                // An intersection with a boolean query's other operands skips: the first hit at or after target.
                int lo = at + 1;
                int hi = docs.length;
                while (lo < hi) {
                    int mid = (lo + hi) >>> 1;
                    if (docs[mid] < target) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                at = lo;
                doc = at < docs.length ? docs[at] : NO_MORE_DOCS;
                return doc;
            }

            @Override
            public long cost() {
                return docs.length;
            }
        };
    }
}
