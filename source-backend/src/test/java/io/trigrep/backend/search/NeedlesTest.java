package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.format.TrigramIndex;
import io.trigrep.indexer.format.TrigramIndexWriter;
import io.trigrep.query.plan.Query;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The needles read off a plan: the fewest strings, then those in the fewest files, at most eight. */
class NeedlesTest {
    /** How many files hold each trigram of the test index. */
    private static final Map<String, Integer> FILES =
            new TreeMap<>(Map.of("abc", 5, "def", 4, "ghi", 1, "jkl", 1, "mno", 3, "xyz", 2));

    private static TrigramIndex index;

    @BeforeAll
    static void writeIndex(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("trigrams.tgi");
        try (TrigramIndexWriter writer = new TrigramIndexWriter(file, 10)) {
            for (var e : FILES.entrySet()) {
                for (int doc = 0; doc < e.getValue(); doc++) {
                    writer.add(value(e.getKey()), doc);
                }
            }
            writer.finish();
        }
        index = TrigramIndex.open(file);
    }

    private static int value(String s) {
        return (s.charAt(0) & 0xff) << 16 | (s.charAt(1) & 0xff) << 8 | s.charAt(2) & 0xff;
    }

    private static Query t(String s) {
        return new Query.Trigram(value(s));
    }

    private static Query and(Query... operands) {
        return new Query.And(List.of(operands));
    }

    private static Query or(Query... operands) {
        return new Query.Or(List.of(operands));
    }

    private static List<String> needles(Query plan, boolean fold) throws Exception {
        return Needles.of(plan, index, fold);
    }

    @Test
    void aTrigramIsItsOwnNeedleLowerCasedWhenFolding() throws Exception {
        assertThat(needles(t("aBc"), false)).containsExactly("aBc");
        assertThat(needles(t("AZc"), true)).containsExactly("azc");
        // Only A-Z fold: the bytes just outside stay as they are.
        assertThat(needles(t("@[Z"), true)).containsExactly("@[z");
        assertThat(needles(new Query.Trigram(0xc3a978), false)).containsExactly("\u00c3\u00a9x");
        assertThat(needles(new Query.Trigram(0xc3a958), true)).containsExactly("\u00c3\u00a9x");
    }

    @Test
    void allAndNoneGiveNoNeedles() throws Exception {
        assertThat(needles(Query.ALL, false)).isEmpty();
        assertThat(needles(Query.NONE, false)).isEmpty();
        assertThat(needles(and(Query.ALL, Query.ALL), false)).isEmpty();
        assertThat(needles(or(t("abc"), Query.ALL), false)).isEmpty();
    }

    @Test
    void anAndTakesItsOperandWithTheFewestNeedles() throws Exception {
        assertThat(needles(and(or(t("ghi"), t("jkl")), t("abc")), false)).containsExactly("abc");
        assertThat(needles(and(t("abc"), or(t("ghi"), t("jkl"))), false)).containsExactly("abc");
        assertThat(needles(and(Query.ALL, or(t("ghi"), t("jkl"))), false)).containsExactly("ghi", "jkl");
        assertThat(needles(and(or(t("ghi"), t("jkl")), Query.ALL), false)).containsExactly("ghi", "jkl");
    }

    @Test
    void amongAsManyNeedlesAnAndTakesThoseInFewerFiles() throws Exception {
        assertThat(needles(and(t("abc"), t("ghi")), false)).containsExactly("ghi");
        assertThat(needles(and(t("ghi"), t("abc")), false)).containsExactly("ghi");
        assertThat(needles(and(or(t("abc"), t("def")), or(t("mno"), t("xyz"))), false))
                .containsExactly("mno", "xyz");
        assertThat(needles(and(or(t("mno"), t("xyz")), or(t("abc"), t("def"))), false))
                .containsExactly("mno", "xyz");
        // A trigram no file holds costs nothing.
        assertThat(needles(and(t("ghi"), t("qqq")), false)).containsExactly("qqq");
        // Equal costs: the first operand stays.
        assertThat(needles(and(t("jkl"), t("ghi")), false)).containsExactly("jkl");
        assertThat(needles(and(t("ghi"), t("jkl")), false)).containsExactly("ghi");
        // Costs are per needle times needles: 2 * (1 + 1) = 4 against 2 * (2 + 3) = 10.
        assertThat(needles(and(or(t("mno"), t("xyz")), or(t("ghi"), t("jkl"))), false))
                .containsExactly("ghi", "jkl");
    }

    @Test
    void anOrUnitesItsOperandsUpToEightNeedles() throws Exception {
        assertThat(needles(or(t("abc"), and(t("def"), t("ghi"))), false)).containsExactly("abc", "ghi");
        Query[] eight = new Query[8];
        Query[] nine = new Query[9];
        for (int k = 0; k < 9; k++) {
            Query q = t("n" + (char) ('a' + k) + "x");
            if (k < 8) {
                eight[k] = q;
            }
            nine[k] = q;
        }
        assertThat(needles(or(eight), false)).hasSize(8);
        assertThat(needles(or(nine), false)).isEmpty();
        // Nine trigrams that fold to eight needles are eight.
        Query[] folded = nine.clone();
        folded[8] = t("nAx");
        assertThat(needles(or(folded), true)).hasSize(8);
        assertThat(needles(or(folded), false)).isEmpty();
    }
}
