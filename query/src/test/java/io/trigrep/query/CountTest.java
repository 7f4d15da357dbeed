package io.trigrep.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code count:N}: how many results a query keeps, in every query form, and what is refused. */
class CountTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {
                "main count:100 ;; 100 ;; main",
                "count:1 int main ;; 1 ;; int main",
                "count:2147483647 main ;; 2147483647 ;; main",
                "foo AND NOT bar count:5 ;; 5 ;; foo AND NOT bar",
                "sym:^main$ count:7 ;; 7 ;; ''",
                "path:\\.h$ count:3 ;; 3 ;; ''",
                "COUNT:4 main ;; 4 ;; main",
                "main ;; 0 ;; main",
            })
    void keepsTheCountOutOfThePattern(String query, int count, String pattern) throws Exception {
        ParsedQuery parsed = QueryParser.parse(query, false);
        assertThat(parsed.count()).isEqualTo(count);
        assertThat(parsed.pattern()).isEqualTo(pattern);
        assertThat(CompiledQuery.of(parsed).query().count()).isEqualTo(count);
    }

    @Test
    void aLiteralQueryTakesItToo() throws Exception {
        ParsedQuery parsed = QueryParser.parse("a.b count:9", true);
        assertThat(parsed.count()).isEqualTo(9);
        assertThat(parsed.pattern()).isEqualTo("a.b");
        assertThat(parsed.literal()).isTrue();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {
                "main count:0 ;; a whole number from 1 to 2147483647, got '0' ;; 6",
                "main count: ;; got '' ;; 6",
                "main count:-1 ;; got '-1' ;; 6",
                "main count:1e3 ;; got '1e3' ;; 6",
                "main count:2147483648 ;; got '2147483648' ;; 6",
                "main count:99999999999999999999 ;; got '99999999999999999999' ;; 6",
                "main -count:5 ;; -count: is not supported ;; 6",
                "main count:5 count:6 ;; count: given twice ;; 14",
                "count:5 ;; empty query ;; 0",
            })
    void refusesWhatIsNoCount(String query, String message, int position) {
        QueryException e = catchThrowableOfType(() -> QueryParser.parse(query, false), QueryException.class);
        assertThat(e).as("refused: %s", query).isNotNull();
        assertThat(e.getMessage()).contains(message);
        assertThat(e.position()).isEqualTo(position);
    }
}
