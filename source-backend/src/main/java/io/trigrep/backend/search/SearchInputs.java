package io.trigrep.backend.search;

import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.segments.Segment;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.Operands;
import io.trigrep.query.plan.Query;
import java.util.ArrayList;
import java.util.List;

/**
 * What a search reads off the index before its first task runs: the candidate docs of every
 * segment (in static-rank order, {@link RankedMerge}; deleted docs left out, {@link LiveDocs}),
 * the needles that prefilter lines, and the definitions of a query's sym: parts.
 *
 * @param needles        prefilter the lines of the query's pattern
 * @param operandNeedles a boolean query's needles per operand; empty otherwise
 * @param hits           a sym: query's definitions, per segment; null otherwise
 * @param defined        a boolean query's sym: operands' definitions, per segment then operand
 *                       (null for a regex operand); null without such operands
 */
@SuppressWarnings("ArrayRecordComponent") // built once per search, never compared
record SearchInputs(
        RankedMerge candidates,
        List<String> needles,
        List<List<String>> operandNeedles,
        SymbolHits[] hits,
        SymbolHits[][] defined) {

    /**
     * Reads {@code compiled}'s inputs off {@code segments}, whose doc tables are {@code tables}.
     *
     * @throws IllegalArgumentException when too many definitions match: the query's fault
     */
    static SearchInputs read(CompiledQuery compiled, List<Segment> segments, DocTable[] tables) throws Exception {
        List<DocIterator> perSegment = new ArrayList<>(segments.size());
        SymbolHits[] hits = compiled.query().isSymbolQuery() ? new SymbolHits[segments.size()] : null;
        SymbolHits[][] defined =
                compiled.operands() != null && compiled.operands().hasSymbols()
                        ? new SymbolHits[segments.size()][]
                        : null;
        for (int i = 0; i < segments.size(); i++) {
            Segment s = segments.get(i);
            DocIterator docs;
            if (hits != null) {
                hits[i] = SymbolHits.find(s.symbols(), compiled.plan(), compiled.symbolNames());
                docs = hits[i].docIterator();
            } else if (defined != null) {
                defined[i] = defined(compiled.operands(), s);
                docs = Candidates.of(compiled.plan(), s.shard().index(), defined[i]);
            } else {
                docs = Candidates.of(compiled.plan(), s.shard().index());
            }
            perSegment.add(s.deletes().count() == 0 ? docs : new LiveDocs(docs, s.deletes()));
        }
        RankedMerge candidates = new RankedMerge(perSegment, List.of(tables));
        // Needles only prefilter lines, so any segment's serve all; the largest's counts choose best.
        Segment largest = largest(segments);
        Shard shard = largest == null ? null : largest.shard();
        boolean fold = compiled.query().caseInsensitive();
        Operands operands = compiled.operands();
        List<String> needles;
        List<List<String>> operandNeedles = new ArrayList<>();
        if (shard == null) {
            needles = List.of(); // a shard without segments has no candidate to search
        } else if (operands == null) {
            needles = compiled.literal() == null && compiled.pattern() != null
                    ? Needles.of(compiled.plan(), shard.index(), fold)
                    : List.of();
        } else {
            List<Query> shownPlans = new ArrayList<>();
            for (int i = 0; i < operands.size(); i++) {
                // A sym: operand's plan is over names: it has no needles in contents.
                operandNeedles.add(
                        operands.sym(i)
                                ? List.of()
                                : Needles.of(operands.plans().get(i), shard.index(), fold));
                if (operands.shown().get(i) && !operands.sym(i)) {
                    shownPlans.add(operands.plans().get(i));
                }
            }
            // The shown lines match one of the shown operands: each holds one of its operand's needles.
            needles = Needles.of(Query.anyOf(shownPlans), shard.index(), fold);
        }
        return new SearchInputs(candidates, needles, operandNeedles, hits, defined);
    }

    /** Segment {@code s}'s definitions for each sym: operand of the boolean query, by operand index (null for a regex operand). */
    private static SymbolHits[] defined(Operands operands, Segment s) throws Exception {
        SymbolHits[] out = new SymbolHits[operands.size()];
        for (int i = 0; i < out.length; i++) {
            if (operands.sym(i)) {
                out[i] = SymbolHits.find(
                        s.symbols(),
                        operands.plans().get(i),
                        operands.patterns().get(i));
            }
        }
        return out;
    }

    /** The segment with the most docs; null when there is none. */
    private static Segment largest(List<Segment> segments) {
        Segment best = null;
        for (Segment s : segments) {
            if (best == null || s.deletes().docCount() > best.deletes().docCount()) {
                best = s;
            }
        }
        return best;
    }
}
