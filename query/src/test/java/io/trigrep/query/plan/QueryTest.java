package io.trigrep.query.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The query algebra's simplifications, asserted on the s-expressions it prints. */
class QueryTest {
    private static Query t(String s) {
        return new Query.Trigram(s.charAt(0) << 16 | s.charAt(1) << 8 | s.charAt(2));
    }

    @Test
    void allAndNoneAreTheIdentitiesAndZeros() {
        assertThat(Query.and(Query.ALL, t("abc"))).hasToString("\"abc\"");
        assertThat(Query.and(t("abc"), Query.ALL)).hasToString("\"abc\"");
        assertThat(Query.and(Query.ALL, Query.ALL)).isEqualTo(Query.ALL);
        assertThat(Query.and(t("abc"), Query.NONE)).isEqualTo(Query.NONE);
        assertThat(Query.or(t("abc"), Query.ALL)).isEqualTo(Query.ALL);
        assertThat(Query.or(Query.NONE, t("abc"))).hasToString("\"abc\"");
        assertThat(Query.or(Query.NONE, Query.NONE)).isEqualTo(Query.NONE);
        assertThat(Query.combine(true, List.of())).isEqualTo(Query.ALL);
        assertThat(Query.combine(false, List.of())).isEqualTo(Query.NONE);
    }

    @Test
    void operandsAreFlattenedDeduplicatedAndSorted() {
        assertThat(Query.and(t("xyz"), Query.and(t("abc"), t("xyz")))).hasToString("(and \"abc\" \"xyz\")");
        assertThat(Query.or(Query.or(t("xyz"), t("mno")), t("abc"))).hasToString("(or \"abc\" \"mno\" \"xyz\")");
        // Only the same operator flattens: an OR inside an AND stays a group.
        assertThat(Query.and(t("xyz"), Query.or(t("abc"), t("def")))).hasToString("(and \"xyz\" (or \"abc\" \"def\"))");
        assertThat(Query.or(t("xyz"), Query.and(t("abc"), t("def")))).hasToString("(or \"xyz\" (and \"abc\" \"def\"))");
        assertThat(Query.and(t("abc"), t("abc")))
                .isInstanceOf(Query.Trigram.class)
                .hasToString("\"abc\"");
    }

    @Test
    void allOfAndAnyOfSimplifyAsAndAndOrDo() {
        assertThat(Query.allOf(List.of(t("xyz"), Query.ALL, t("abc"), t("xyz"))))
                .hasToString("(and \"abc\" \"xyz\")");
        assertThat(Query.allOf(List.of(t("abc"), Query.NONE))).isEqualTo(Query.NONE);
        assertThat(Query.anyOf(List.of(t("xyz"), Query.NONE, t("abc")))).hasToString("(or \"abc\" \"xyz\")");
        assertThat(Query.anyOf(List.of(t("abc"), Query.ALL))).isEqualTo(Query.ALL);
    }

    @Test
    void absorptionDropsWhatAnotherOperandImplies() {
        // a | (a & b) = a, and a & (a | b) = a.
        assertThat(Query.or(t("aaa"), Query.and(t("aaa"), t("bbb")))).hasToString("\"aaa\"");
        assertThat(Query.or(Query.and(t("aaa"), t("bbb")), t("aaa"))).hasToString("\"aaa\"");
        assertThat(Query.and(t("aaa"), Query.or(t("aaa"), t("bbb")))).hasToString("\"aaa\"");
        assertThat(Query.and(Query.or(t("aaa"), t("bbb")), t("aaa"))).hasToString("\"aaa\"");
        // (a & b) | (a & b & c) = a & b: an AND holding every conjunct of another.
        assertThat(Query.or(Query.and(t("aaa"), t("bbb")), Query.and(t("aaa"), Query.and(t("bbb"), t("ccc")))))
                .hasToString("(and \"aaa\" \"bbb\")");
        // Not absorbed: the other operand's conjuncts are not all in it.
        assertThat(Query.or(Query.and(t("aaa"), t("bbb")), Query.and(t("aaa"), t("ccc"))))
                .hasToString("(or (and \"aaa\" \"bbb\") (and \"aaa\" \"ccc\"))");
        assertThat(Query.or(t("ccc"), Query.and(t("aaa"), t("bbb")))).hasToString("(or \"ccc\" (and \"aaa\" \"bbb\"))");
        assertThat(Query.and(t("ccc"), Query.or(t("aaa"), t("bbb")))).hasToString("(and \"ccc\" (or \"aaa\" \"bbb\"))");
        // An AND whose operands are both ORs: neither is an operand of the other.
        assertThat(Query.and(Query.or(t("aaa"), t("bbb")), Query.or(t("aaa"), t("ccc"))))
                .hasToString("(and (or \"aaa\" \"bbb\") (or \"aaa\" \"ccc\"))");
        // Two absorbed operands: the scan goes on after the first removal.
        assertThat(Query.combine(
                        false, List.of(Query.and(t("aaa"), t("bbb")), t("aaa"), Query.and(t("aaa"), t("ccc")))))
                .hasToString("\"aaa\"");
    }

    @Test
    void trigramsPrintQuotesBackslashesAndUnprintableBytesEscaped() {
        assertThat(new Query.Trigram('"' << 16 | '\\' << 8 | 'a')).hasToString("\"\\\"\\\\a\"");
        assertThat(new Query.Trigram(0x1f << 16 | 0x20 << 8 | 0x7e)).hasToString("\"\\x1f ~\"");
        assertThat(new Query.Trigram(0x7f << 16 | 0x80 << 8 | 0xff)).hasToString("\"\\x7f\\x80\\xff\"");
        assertThat(Query.ALL).hasToString("all");
        assertThat(Query.NONE).hasToString("none");
    }
}
