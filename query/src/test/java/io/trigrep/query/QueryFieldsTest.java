package io.trigrep.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class QueryFieldsTest {
    private static final List<ParsedQuery.Filter> PKG =
            List.of(new ParsedQuery.Filter(ParsedQuery.Kind.PACKAGE, false, "zlib"));

    @Test
    void withoutAPatternTheTextIsParsedAsTyped() throws QueryException {
        ParsedQuery q = QueryFields.parse("inflate package:zlib", "", false, false, List.of());

        assertThat(q).isEqualTo(QueryParser.parse("inflate package:zlib", false));
    }

    @Test
    void theGivenPartsAreTakenAsTheyAreWithThePatternPlacedInTheText() throws QueryException {
        ParsedQuery q = QueryFields.parse("package:zlib inflate", "inflate", true, true, PKG);

        assertThat(q).isEqualTo(new ParsedQuery("package:zlib inflate", "inflate", 13, true, true, PKG));
    }

    @Test
    void aPatternWithoutTextStandsForTheText() throws QueryException {
        assertThat(QueryFields.parse("", "inflate", false, false, PKG).raw()).isEqualTo("inflate");
    }

    @Test
    void aPatternOverTheLengthLimitIsRefused() {
        String tooLong = "x".repeat(QueryParser.MAX_QUERY_CHARS + 1);

        assertThatThrownBy(() -> QueryFields.parse("", tooLong, false, false, List.of()))
                .isInstanceOf(QueryException.class)
                .hasMessageContaining("query too long");
    }
}
