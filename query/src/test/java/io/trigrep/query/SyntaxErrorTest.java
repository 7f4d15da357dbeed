package io.trigrep.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 15: every regex syntax error is a message a user can act on, with the 1-based position
 * of the mistake in the query as typed; never RE2J's "internal error".
 */
class SyntaxErrorTest {
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {
                "foo) ;; unexpected ) without a matching ( ;; 4",
                "a(b)) ;; unexpected ) without a matching ( ;; 5",
                "[)]) ;; unexpected ) without a matching ( ;; 4",
                "\\()) ;; unexpected ) without a matching ( ;; 3",
                "path:x foo) ;; unexpected ) without a matching ( ;; 11",
                "foo  bar) ;; unexpected ) without a matching ( ;; 9",
                "foo path:x bar) ;; unexpected ) without a matching ( ;; 15",
                "foo path:x (bar ;; missing closing ) ;; 12",
                "a  b** ;; invalid nested repetition operator ;; 5",
                "foo(bar ;; missing closing ) ;; 4",
                "(?i)foo(bar ;; missing closing ) ;; 8",
                "*a ;; missing argument to repetition operator ;; 1",
                "a** ;; invalid nested repetition operator ;; 2",
                "x{2,1} ;; invalid repeat count ;; 2",
                "[z-a] ;; invalid character class range ;; 2",
                "a\\8 ;; invalid escape sequence ;; 2",
            })
    void aSyntaxErrorSaysWhatAndWhere(String query, String message, int position) {
        QueryException e =
                catchThrowableOfType(() -> CompiledQuery.of(QueryParser.parse(query, false)), QueryException.class);
        assertThat(e).as("refused: %s", query).isNotNull();
        assertThat(e.getMessage())
                .contains(message)
                .doesNotContain("internal error")
                .doesNotContain("(?m)");
        assertThat(e.position()).isEqualTo(position);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {"\\) ;; 1", "[)] ;; 1", "(a)(b) ;; 1", "[]a)] ;; 1", "[^]a)] ;; 1"})
    void aClosingParenthesisThatIsTextIsNoError(String query, int ignored) throws Exception {
        assertThat(CompiledQuery.of(QueryParser.parse(query, false))).isNotNull();
    }

    /** Issue 15: a regex that matches the empty string matches every line of every file; refused, saying why. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {
                "x? ;; 1",
                "() ;; 1",
                "a* ;; 1",
                "^ ;; 1",
                "$ ;; 1",
                "^$ ;; 1",
                "a|  ;; 1",
                "path:x \\b? ;; 8",
                "(?i)x* ;; 1"
            })
    void aRegexThatMatchesTheEmptyStringIsRefused(String query, int position) {
        QueryException e =
                catchThrowableOfType(() -> CompiledQuery.of(QueryParser.parse(query, false)), QueryException.class);
        assertThat(e).as("refused: %s", query).isNotNull();
        assertThat(e.getMessage()).startsWith("the regex matches the empty string, so every line of every file");
        assertThat(e.position()).isEqualTo(position);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {". ;; true", "[a-z]+ ;; true", "\\bint\\b ;; false", "x?y ;; true", "inflate ;; false"})
    void aRegexThatNeedsACharacterRunsAndSaysWhetherItScansEverything(String query, boolean fullScan) throws Exception {
        assertThat(CompiledQuery.of(QueryParser.parse(query, false)).fullScan()).isEqualTo(fullScan);
    }
}
