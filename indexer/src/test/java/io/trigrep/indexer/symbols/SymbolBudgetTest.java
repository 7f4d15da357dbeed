package io.trigrep.indexer.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Which files' definitions a shard keeps within its budget, and that the arrival order never changes it. */
class SymbolBudgetTest {
    /** {@code n} tags whose names have {@code nameChars} chars, no scope: each costs 64 + 3 × nameChars. */
    private static Tag[] tags(int n, int nameChars) {
        Tag[] tags = new Tag[n];
        for (int i = 0; i < n; i++) {
            tags[i] = new Tag("n".repeat(nameChars), i + 1, "macro", "C", "");
        }
        return tags;
    }

    @Test
    void costCountsEachTagAndThreeBytesPerCharOfNameAndScope() {
        Tag[] tags = {new Tag("abcd", 1, "function", "C", "struct:x"), new Tag("e", 2, "macro", "C", "")};
        assertThat(SymbolBudget.cost(tags)).isEqualTo(64 + 3 * (4 + 8) + 64 + 3);
        assertThat(SymbolBudget.cost(new Tag[0])).isZero();
    }

    @Test
    void filesWithinTheBudgetAreAllKept() {
        Tag[][] byDoc = new Tag[3][];
        SymbolBudget budget = new SymbolBudget(3 * 67, byDoc);
        budget.keep(0, tags(1, 1));
        budget.keep(2, tags(2, 1));
        assertThat(byDoc[0]).hasSize(1);
        assertThat(byDoc[2]).hasSize(2);
        assertThat(budget.dropped()).isEmpty();
        assertThat(budget.total()).isEqualTo(3 * 67);
    }

    @Test
    void theFileWithTheMostDefinitionsGoesFirstAndAFileOverTheWholeBudgetGoesAtOnce() {
        Tag[][] byDoc = new Tag[4][];
        SymbolBudget budget = new SymbolBudget(10 * 67, byDoc);
        budget.keep(0, tags(4, 1));
        budget.keep(1, tags(11, 1));
        assertThat(byDoc[1]).isNull();
        budget.keep(2, tags(5, 1));
        budget.keep(3, tags(3, 1));
        // 4 + 5 + 3 = 12 > 10: doc 2 (5) goes; 4 + 3 fit.
        assertThat(byDoc[0]).hasSize(4);
        assertThat(byDoc[2]).isNull();
        assertThat(byDoc[3]).hasSize(3);
        assertThat(budget.dropped())
                .containsExactlyInAnyOrder(new SymbolExtractor.OverBudget(1, 11), new SymbolExtractor.OverBudget(2, 5));
        assertThat(budget.total()).isEqualTo(7 * 67);
    }

    @Test
    void equalCostsDropTheHigherDocFirst() {
        Tag[][] byDoc = new Tag[2][];
        SymbolBudget budget = new SymbolBudget(2 * 67, byDoc);
        budget.keep(1, tags(2, 1));
        budget.keep(0, tags(2, 1));
        assertThat(byDoc[0]).hasSize(2);
        assertThat(byDoc[1]).isNull();
    }

    @Test
    void aFileWithoutDefinitionsCostsNothing() {
        Tag[][] byDoc = new Tag[2][];
        SymbolBudget budget = new SymbolBudget(1, byDoc);
        budget.keep(0, new Tag[0]);
        assertThat(byDoc[0]).isEmpty();
        assertThat(budget.dropped()).isEmpty();
        assertThat(budget.total()).isZero();
    }

    @Test
    void fitTablesDropsFromTheFirstFileWhoseNamesOverflowATableCheapestFirst() {
        Tag[][] byDoc = new Tag[3][];
        SymbolBudget budget = new SymbolBudget(Long.MAX_VALUE, byDoc);
        budget.keep(0, tags(1, 10)); // names 30 bytes, cheapest
        budget.keep(1, tags(1, 20)); // 60 more: 90
        budget.keep(2, tags(1, 30)); // 90 more: 180
        budget.fitTables(100);
        assertThat(byDoc[0]).hasSize(1);
        assertThat(byDoc[1]).hasSize(1);
        assertThat(byDoc[2]).isNull();
        assertThat(budget.dropped()).containsExactly(new SymbolExtractor.OverBudget(2, 1));
        assertThat(budget.total()).isEqualTo(64 + 30 + 64 + 60);
    }

    @Test
    void fitTablesCountsScopesInTheirOwnTable() {
        Tag[][] byDoc = new Tag[2][];
        SymbolBudget budget = new SymbolBudget(Long.MAX_VALUE, byDoc);
        budget.keep(0, new Tag[] {new Tag("a", 1, "member", "C", "s".repeat(20))});
        budget.keep(1, new Tag[] {new Tag("b", 1, "member", "C", "t".repeat(30))});
        budget.fitTables(100); // names 6 bytes, scopes 60 then 150
        assertThat(byDoc[0]).hasSize(1);
        assertThat(byDoc[1]).isNull();
    }

    @Test
    void aBudgetBelowOneByteIsRefused() {
        assertThatThrownBy(() -> new SymbolBudget(0, new Tag[1][])).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * Whatever order the files come in, the kept ones are the longest run of the cheapest that fits:
     * two builds of one input keep the same definitions however ctags' processes interleave.
     */
    @Property(tries = 300)
    void theKeptFilesAreTheCheapestRunThatFitsInAnyOrder(
            @ForAll @Size(min = 1, max = 40) List<@IntRange(min = 0, max = 30) Integer> counts,
            @ForAll @IntRange(min = 1, max = 400) int budgetTags,
            @ForAll long shuffleSeed) {
        long budgetBytes = budgetTags * 67L;
        List<Integer> order = new ArrayList<>();
        for (int doc = 0; doc < counts.size(); doc++) {
            order.add(doc);
        }
        Collections.shuffle(order, new Random(shuffleSeed));
        Tag[][] byDoc = new Tag[counts.size()][];
        SymbolBudget budget = new SymbolBudget(budgetBytes, byDoc);
        for (int doc : order) {
            budget.keep(doc, tags(counts.get(doc), 1));
        }

        List<Integer> cheapestFirst = new ArrayList<>(order);
        cheapestFirst.sort(Comparator.<Integer>comparingInt(counts::get).thenComparingInt(d -> d));
        TreeSet<Integer> expected = new TreeSet<>();
        long sum = 0;
        for (int doc : cheapestFirst) {
            sum += counts.get(doc) * 67L;
            if (sum > budgetBytes) {
                break;
            }
            expected.add(doc);
        }
        TreeSet<Integer> kept = new TreeSet<>();
        for (int doc = 0; doc < byDoc.length; doc++) {
            if (byDoc[doc] != null) {
                kept.add(doc);
            }
        }
        assertThat(kept).isEqualTo(expected);
        assertThat(budget.dropped()).hasSize(counts.size() - expected.size());
        assertThat(budget.total()).isLessThanOrEqualTo(budgetBytes);
    }
}
