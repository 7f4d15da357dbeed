package io.trigrep.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Issue 18: boolean queries parse to the condition a reader expects, with today's queries unchanged. */
class BooleanQueryTest {
    private static CompiledQuery spec(String query) throws QueryException {
        return CompiledQuery.of(QueryParser.parse(query, false));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {
                "a1 AND b2 ;; (and #0 #1) ;; a1|b2",
                "a1 OR b2 AND c3 ;; (or #0 (and #1 #2)) ;; a1|b2|c3",
                "(a1 OR b2) AND c3 ;; (and (or #0 #1) #2) ;; a1|b2|c3",
                "( a1 OR b2 ) AND c3 ;; (and (or #0 #1) #2) ;; a1|b2|c3",
                "NOT a1 ;; (not #0) ;; ",
                "a1 NOT b2 ;; (and #0 (not #1)) ;; a1",
                "a1 AND NOT (b2 OR NOT c3) ;; (and #0 (not (or #1 (not #2)))) ;; a1|c3",
                "NOT NOT a1 ;; (not (not #0)) ;; a1",
                "(malloc\\( OR calloc\\() AND NOT free\\( ;; (and (or #0 #1) (not #2)) ;; malloc\\(|calloc\\(",
                "(foo|bar) AND baz ;; (and #0 #1) ;; (foo|bar)|baz",
                "((foo|bar) OR x1) AND y2 ;; (and (or #0 #1) #2) ;; (foo|bar)|x1|y2",
                "struct foo AND int main ;; (and #0 #1) ;; struct foo|int main",
                "a1 AND b2 path:\\.c$ ;; (and #0 #1) ;; a1|b2",
                "NOT (NOT a1 AND b2) ;; (not (and (not #0) #1)) ;; a1",
                "(NOT a1) AND b2 ;; (and (not #0) #1) ;; b2",
            })
    void parsesTheConditionAndTheShownOperands(String query, String condition, String shown) throws Exception {
        ParsedQuery parsed = QueryParser.parse(query, false);
        assertThat(parsed.isBoolean()).isTrue();
        assertThat(parsed.condition()).hasToString(condition);
        CompiledQuery spec = spec(query);
        List<String> expected = shown == null ? List.of() : List.of(shown.split("\\|(?![^(]*\\))"));
        List<String> actual = new java.util.ArrayList<>();
        for (int i = 0; i < spec.operands().size(); i++) {
            if (spec.operands().shown().get(i)) {
                actual.add(parsed.operands().get(i).regex());
            }
        }
        assertThat(actual).isEqualTo(expected);
        assertThat(spec.pattern() == null).isEqualTo(expected.isEmpty());
    }

    @Test
    void candidatesCombineTheOperandsPlansAndNotNarrowsNothing() throws Exception {
        assertThat(spec("abc AND xyz").plan()).hasToString("(and \"abc\" \"xyz\")");
        assertThat(spec("abc OR xyz").plan()).hasToString("(or \"abc\" \"xyz\")");
        assertThat(spec("abc AND NOT xyz").plan()).hasToString("\"abc\"");
        assertThat(spec("abc OR NOT xyz").plan()).hasToString("all");
        assertThat(spec("abc OR NOT xyz").fullScan()).isTrue();
        assertThat(spec("(abcd OR wxyz) AND NOT q1").plan())
                .hasToString("(or (and \"abc\" \"bcd\") (and \"wxy\" \"xyz\"))");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {
                "foo bar",
                "NOTE this",
                "and or not",
                "a(b)c",
                "(foo|bar)",
                "ANDROID OR_ELSE",
            })
    void queriesWithoutAnOperatorWordKeepTheirMeaning(String query) throws Exception {
        ParsedQuery parsed = QueryParser.parse(query, false);
        assertThat(parsed.isBoolean()).isFalse();
        assertThat(parsed.pattern()).isEqualTo(query);
    }

    @Test
    void aLiteralQueryIsTakenVerbatim() throws Exception {
        ParsedQuery parsed = QueryParser.parse("NOT NULL AND x", true);
        assertThat(parsed.isBoolean()).isFalse();
        assertThat(parsed.pattern()).isEqualTo("NOT NULL AND x");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {
                "AND foo ;; AND needs an operand before it ;; 1",
                "foo OR ;; OR needs an operand after it ;; 7",
                "foo AND OR bar ;; OR needs an operand before it ;; 9",
                "NOT ;; NOT needs an operand after it ;; 4",
                "(foo AND bar ;; missing ) to close the group opened here ;; 1",
                "foo AND bar) ;; unexpected ) closes no group ;; 12",
                "( ) AND foo ;; ( opens an empty group ;; 3",
                "foo AND x? ;; matches the empty string ;; 9",
                "foo AND b(ar ;; missing closing ) ;; 10",
                "foo AND NOT ^ ;; matches the empty string ;; 13",
            })
    void mistakesSayWhatAndWhere(String query, String message, int position) {
        QueryException e = catchThrowableOfType(() -> spec(query), QueryException.class);
        assertThat(e).as("refused: %s", query).isNotNull();
        assertThat(e.getMessage()).contains(message);
        assertThat(e.position()).isEqualTo(position);
    }

    @Test
    void operandsAreBounded() {
        StringBuilder query = new StringBuilder("w0");
        for (int i = 1; i <= ConditionParser.MAX_OPERANDS; i++) {
            query.append(" OR w").append(i);
        }
        QueryException e = catchThrowableOfType(() -> spec(query.toString()), QueryException.class);
        assertThat(e.getMessage()).contains("too many operands");
    }

    @Test
    void filtersAloneWithAPathAskForFiles() throws Exception {
        ParsedQuery files = QueryParser.parse("path:Makefile\\.am$ package:zlib", false);
        assertThat(files.filesOnly()).isTrue();
        CompiledQuery spec = CompiledQuery.of(files);
        assertThat(spec.pattern()).isNull();
        assertThat(spec.fullScan()).as("a file-name query reads no content").isFalse();
        assertThat(QueryParser.parse("file:\\.h$", false).filesOnly()).isTrue();
        QueryException e =
                catchThrowableOfType(() -> QueryParser.parse("package:zlib -path:test", false), QueryException.class);
        assertThat(e.getMessage()).contains("nothing to search for");
    }
}
