package io.trigrep.query;

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
        CompiledQuery spec = CompiledQuery.of(parsed);
        assertThat(spec.pattern()).isNull();
        assertThat(spec.symbolNames().matcher("INFLATEINIT2_").find()).isTrue();
        assertThat(spec.symbolNames().matcher("inflateInit2").find()).isFalse();
        assertThat(spec.fullScan()).as("reads the symbol index, not every file").isFalse();
        assertThat(spec.packages()).hasSize(1);
        assertThat(CompiledQuery.of(QueryParser.parse("sym:Init", false)).plan())
                .hasToString("(and \"Ini\" \"nit\")");
    }

    /**
     * A sym: next to a pattern, another sym: or an operator word is an operand of a boolean query:
     * side by side means AND, NOT binds tightest, then AND, then OR; its plan is the files that
     * define a matching name ({@code sym#N}), combined with the other operands' trigrams.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {
                "sym:^inflateInit2_$ AND deflate ;; (and #0 #1) ;; ^inflateInit2_$ ;; (and \"ate\" \"def\" \"efl\" \"fla\" \"lat\" sym#0)",
                "sym:^inflateInit2_$ deflate ;; (and #0 #1) ;; ^inflateInit2_$ ;; (and \"ate\" \"def\" \"efl\" \"fla\" \"lat\" sym#0)",
                "deflate sym:^inflateInit2_$ ;; (and #0 #1) ;; ^inflateInit2_$ ;; (and \"ate\" \"def\" \"efl\" \"fla\" \"lat\" sym#1)",
                "sym:^adler32 OR sym:^crc32 ;; (or #0 #1) ;; ^adler32|^crc32 ;; (or sym#0 sym#1)",
                "sym:^adler32 sym:^crc32 ;; (and #0 #1) ;; ^adler32|^crc32 ;; (and sym#0 sym#1)",
                "sym:foo AND NOT bar ;; (and #0 (not #1)) ;; foo ;; sym#0",
                "(sym:x OR yyy) AND NOT zzz ;; (and (or #0 #1) (not #2)) ;; x ;; (or \"yyy\" sym#0)",
                "NOT sym:foo AND bar ;; (and (not #0) #1) ;; foo ;; \"bar\"",
                "sym:abc OR sym:def AND ghi ;; (or #0 (and #1 #2)) ;; abc|def ;; (or (and \"ghi\" sym#1) sym#0)",
                "(SYM:(a|b) OR c1) ;; (or #0 #1) ;; (a|b) ;; all",
            })
    void aSymNextToAnotherTermIsAnOperand(String query, String condition, String syms, String plan) throws Exception {
        ParsedQuery parsed = QueryParser.parse(query, false);
        assertThat(parsed.isBoolean()).isTrue();
        assertThat(parsed.isSymbolQuery()).isFalse();
        assertThat(parsed.filesOnly()).isFalse();
        assertThat(parsed.condition()).hasToString(condition);
        assertThat(String.join(
                        "|",
                        parsed.operands().stream()
                                .filter(ParsedQuery.Operand::sym)
                                .map(ParsedQuery.Operand::regex)
                                .toList()))
                .isEqualTo(syms);
        CompiledQuery spec = CompiledQuery.of(parsed);
        assertThat(spec.plan()).hasToString(plan);
        assertThat(spec.fullScan()).isEqualTo(plan.equals("all"));
    }

    @Test
    void aSymOperandMatchesNamesAsSymAloneDoes() throws Exception {
        ParsedQuery parsed = QueryParser.parse("foo AND sym:^Inflate case:no", false);
        assertThat(parsed.operands())
                .containsExactly(
                        new ParsedQuery.Operand("foo", 0, false), new ParsedQuery.Operand("^Inflate", 12, true));
        assertThat(parsed.symbolOffset()).isEqualTo(8);
        CompiledQuery spec = CompiledQuery.of(parsed);
        assertThat(spec.operands().sym(1)).isTrue();
        assertThat(spec.operands().patterns().get(1).matcher("inflateEnd").find())
                .isTrue();
        assertThat(spec.operands().patterns().get(1).matcher("xinflate").find()).isFalse();
        // The lines shown by regexes are the regex operands' alone: a sym: operand shows its definitions.
        assertThat(spec.pattern().pattern()).isEqualTo("(?:foo)");
        assertThat(CompiledQuery.of(QueryParser.parse("sym:a1 OR sym:b2", false))
                        .pattern())
                .isNull();
    }

    @Test
    void aLiteralQueryWithASymIsItsVerbatimPatternAndTheSym() throws Exception {
        ParsedQuery parsed = QueryParser.parse("sym:^deflate$ a.b AND (c", true);
        assertThat(parsed.condition()).hasToString("(and #0 #1)");
        assertThat(parsed.operands().get(1).regex()).isEqualTo("a\\.b AND \\(c");
        CompiledQuery spec = CompiledQuery.of(parsed);
        assertThat(spec.operands().patterns().get(1).matcher("xa.b AND (cx").find())
                .isTrue();
        assertThat(spec.operands().patterns().get(1).matcher("xaxb AND (c").find())
                .isFalse();
    }

    @Test
    void symOperandsCountTowardsTheBound() {
        StringBuilder query = new StringBuilder("w0");
        for (int i = 1; i <= ConditionParser.MAX_OPERANDS; i++) {
            query.append(" OR sym:w").append(i);
        }
        QueryException e = catchThrowableOfType(
                () -> CompiledQuery.of(QueryParser.parse(query.toString(), false)), QueryException.class);
        assertThat(e.getMessage()).contains("too many operands");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiterString = " ;; ",
            value = {
                "-sym:foo ;; write NOT sym:REGEX ;; 1",
                "sym: ;; needs a regex ;; 1",
                "sym:x? ;; matches the empty string ;; 5",
                "sym:a( ;; missing closing ) ;; 6",
                "foo AND sym:x? ;; matches the empty string ;; 13",
                "foo AND (sym: OR bar) ;; needs a regex ;; 10",
                "foo AND (-sym:x OR bar) ;; write NOT sym:REGEX ;; 10",
                "sym:abc OR ;; OR needs an operand after it ;; 11",
                "(sym:abc OR foo ;; missing ) to close the group ;; 1",
                "sym:abc AND NOT sym:b[ ;; missing closing ] ;; 22",
                "sym:abc foo AND x? ;; matches the empty string ;; 17",
            })
    void misuseIsRefusedWhereItStands(String query, String message, int position) {
        QueryException e =
                catchThrowableOfType(() -> CompiledQuery.of(QueryParser.parse(query, false)), QueryException.class);
        assertThat(e).as("refused: %s", query).isNotNull();
        assertThat(e.getMessage()).contains(message);
        assertThat(e.position()).isEqualTo(position);
    }
}
