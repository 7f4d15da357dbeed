package io.trigrep.backend.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Issue 18: sym:REGEX asks for definitions; its name regex is planned over names, and misuse is refused where it stands. */
class SymbolQueryTest {
    @Test
    void aSymbolQueryPlansItsNameRegexAndKeepsItsFilters() throws Exception {
        ParsedQuery parsed = QueryParser.parse("sym:^inflateInit2_$ package:zlib case:no", false);
        assertThat(parsed.isSymbolQuery()).isTrue();
        assertThat(parsed.filesOnly()).isFalse();
        assertThat(parsed.symbol()).isEqualTo(new ParsedQuery.Operand("^inflateInit2_$", 4));
        SearchSpec spec = SearchSpec.of(parsed, 10, 1_000_000_000L, 0);
        assertThat(spec.pattern()).isNull();
        assertThat(spec.symbolNames().matcher("INFLATEINIT2_").find()).isTrue();
        assertThat(spec.symbolNames().matcher("inflateInit2").find()).isFalse();
        assertThat(spec.fullScan()).as("reads the symbol index, not every file").isFalse();
        assertThat(spec.packages()).hasSize(1);
        assertThat(SearchSpec.of(QueryParser.parse("sym:Init", false), 10, 1_000_000_000L, 0)
                        .plan())
                .hasToString("(and \"Ini\" \"nit\")");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {
                "-sym:foo ;; cannot exclude ;; 1",
                "sym: ;; needs a regex ;; 1",
                "sym:a1 sym:b2 ;; one sym: per query ;; 8",
                "foo sym:bar ;; cannot be combined with a pattern ;; 1",
                "sym:x? ;; matches the empty string ;; 5",
                "sym:a( ;; missing closing ) ;; 6",
            })
    void misuseIsRefusedWhereItStands(String query, String message, int position) {
        QueryException e = catchThrowableOfType(
                () -> SearchSpec.of(QueryParser.parse(query, false), 10, 1_000_000_000L, 0), QueryException.class);
        assertThat(e).as("refused: %s", query).isNotNull();
        assertThat(e.getMessage()).contains(message);
        assertThat(e.position()).isEqualTo(position);
    }
}
