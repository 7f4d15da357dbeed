package io.trigrep.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.re2j.Pattern;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A literal query searches the text as typed: the blanks between its words are kept (a regex
 * query's words are joined by single spaces, as Debian Code Search's are); blanks at either end
 * are dropped, and filters are taken out, a filter between two words leaving one space.
 */
class LiteralQueryTest {
    @ParameterizedTest(name = "[{0}]")
    @CsvSource(
            delimiterString = " ;; ",
            ignoreLeadingAndTrailingWhitespace = false,
            value = {
                "int  main ;; int  main ;; int main",
                "int\tmain ;; int\tmain ;; int main",
                "  return 0;   ;; return 0; ;; return 0;",
                "return   0; count:3 ;; return   0; ;; return 0;",
                "count:3 a  b   c ;; a  b   c ;; a b c",
                "int package:zlib  main ;; int main ;; int main",
                "a  package:zlib ;; a ;; a",
            })
    void keepsTheBlanksBetweenItsWords(String query, String literal, String regex) throws Exception {
        assertThat(QueryParser.parse(query, true).pattern()).isEqualTo(literal);
        assertThat(QueryParser.parse(query, false).pattern()).isEqualTo(regex);
    }

    @Test
    void aLineBreakBetweenWordsIsOneSpace() throws Exception {
        // Results are lines: no pattern spans a line break.
        assertThat(QueryParser.parse("a \n b", true).pattern()).isEqualTo("a b");
        assertThat(QueryParser.parse("a\r\nb", true).pattern()).isEqualTo("a b");
        assertThat(QueryParser.parse("a \t b", true).pattern()).isEqualTo("a \t b");
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(
            delimiterString = " ;; ",
            value = {
                "sym:^deflate  a  b ;; a  b",
                "a  b  sym:^deflate ;; a  b",
                "a sym:^deflate  b ;; a b",
            })
    void aLiteralBesideSymKeepsItsBlanksToo(String query, String literal) throws Exception {
        ParsedQuery parsed = QueryParser.parse(query, true);
        List<String> regexes =
                parsed.operands().stream().map(ParsedQuery.Operand::regex).toList();
        assertThat(regexes).containsExactly("^deflate", Pattern.quote(literal));
    }
}
