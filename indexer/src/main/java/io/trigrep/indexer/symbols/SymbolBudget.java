package io.trigrep.indexer.symbols;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The definitions a shard keeps while ctags runs, within a budget: a shard's symbols are held in
 * memory until {@link SymbolsWriter} writes them, and its string tables must each fit one mapped
 * span. Generated files blow both: the Linux tree's AMD GPU register headers alone hold 3.5
 * million {@code #define}s, half the tree's, 69 MB of distinct names.
 *
 * <p>Each file costs {@link #cost} bytes. Whenever the kept files cost more than the budget, the
 * costliest goes (ties: the higher doc). Whatever order the files arrive in, what is left is the
 * same: the longest run of files, cheapest first, that fits. (A file that goes is the costliest
 * of a set over budget, so every file at or above it in that order makes a run over budget; a
 * file of that run is never the costliest of an over-budget set.) Two builds of the same input
 * therefore keep the same definitions, however their ctags processes interleave. Thread-safe.
 */
final class SymbolBudget {
    /**
     * A tag's fixed cost: its {@code Tag} and its slot in the writer's arrays; the name and scope
     * cost {@link #BYTES_PER_CHAR} per char on top (their strings, their UTF-8 in the tables).
     */
    static final long TAG_BYTES = 64;

    static final long BYTES_PER_CHAR = 3;

    private final long budget;
    private final Tag[][] byDoc;
    private final TreeSet<Kept> kept =
            new TreeSet<>(Comparator.comparingLong(Kept::cost).thenComparingInt(Kept::doc));

    private final List<SymbolExtractor.OverBudget> dropped = new ArrayList<>();
    private long total;

    SymbolBudget(long budget, Tag[][] byDoc) {
        if (budget < 1) {
            throw new IllegalArgumentException("budget must be >= 1 byte, got " + budget);
        }
        this.budget = budget;
        this.byDoc = byDoc;
    }

    /** What {@code tags} cost against the budget. */
    static long cost(Tag[] tags) {
        long cost = 0;
        for (Tag t : tags) {
            cost += TAG_BYTES
                    + BYTES_PER_CHAR * (t.name().length() + (long) t.scope().length());
        }
        return cost;
    }

    /** Keeps {@code doc}'s tags, then drops the costliest files until the kept ones fit. */
    synchronized void keep(int doc, Tag[] tags) {
        if (tags.length == 0) {
            byDoc[doc] = tags;
            return;
        }
        long cost = cost(tags);
        byDoc[doc] = tags;
        kept.add(new Kept(cost, doc, tags.length));
        total += cost;
        while (total > budget) {
            drop(kept.pollLast());
        }
    }

    /**
     * Once every file is in: drops, cheapest first, the files from the first one whose names or
     * scopes would take either string table past {@code tableBytes} (a table holds distinct
     * strings, at most 3 UTF-8 bytes per char: counting every tag's is an upper bound). Within the
     * budget that only happens where names run long; the order is the budget's, so the outcome
     * is again the same for the same input.
     */
    synchronized void fitTables(long tableBytes) {
        long names = 0;
        long scopes = 0;
        List<Kept> over = new ArrayList<>();
        for (Kept k : kept) {
            if (!over.isEmpty()) {
                over.add(k);
                continue;
            }
            for (Tag t : byDoc[k.doc()]) {
                names += BYTES_PER_CHAR * t.name().length();
                scopes += BYTES_PER_CHAR * t.scope().length();
            }
            if (names > tableBytes || scopes > tableBytes) {
                over.add(k);
            }
        }
        for (Kept k : over) {
            kept.remove(k);
            drop(k);
        }
    }

    private void drop(Kept k) {
        total -= k.cost();
        byDoc[k.doc()] = null;
        dropped.add(new SymbolExtractor.OverBudget(k.doc(), k.tags()));
    }

    /** The files whose definitions went, in no particular order. */
    synchronized List<SymbolExtractor.OverBudget> dropped() {
        return List.copyOf(dropped);
    }

    /** What the kept files cost. */
    synchronized long total() {
        return total;
    }

    private record Kept(long cost, int doc, int tags) {}
}
