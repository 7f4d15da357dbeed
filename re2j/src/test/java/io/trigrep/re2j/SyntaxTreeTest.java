package io.trigrep.re2j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** trigrep's two additions to the vendored RE2J: the tree and the program it reads off a Pattern. */
class SyntaxTreeTest {
    /** The tree as an s-expression: op, then the runes of a literal or class, then the children. */
    private static String sexp(SyntaxTree t) {
        StringBuilder out = new StringBuilder("(").append(t.op());
        if (t.op() == SyntaxTree.Op.LITERAL) {
            out.append(t.foldCase() ? " fold" : "")
                    .append(" \"")
                    .append(new String(t.runes(), 0, t.runes().length))
                    .append('"');
        } else if (t.op() == SyntaxTree.Op.CHAR_CLASS) {
            for (int i = 0; i < t.runes().length; i += 2) {
                out.append(' ').append((char) t.runes()[i]).append('-').append((char) t.runes()[i + 1]);
            }
        }
        String subs = t.subs().stream().map(SyntaxTreeTest::sexp).collect(Collectors.joining(" "));
        return out.append(subs.isEmpty() ? "" : " " + subs).append(')').toString();
    }

    @Test
    void parsedTreeIsRe2jsParse() {
        assertThat(sexp(SyntaxTree.parsed(Pattern.compile("foo(bar|baz)+\\b"))))
                .isEqualTo(
                        "(CONCAT (LITERAL \"foo\") (PLUS (CAPTURE (CONCAT (LITERAL \"ba\") (CHAR_CLASS r-r z-z)))) (WORD_BOUNDARY))");
        SyntaxTree repeat = SyntaxTree.parsed(Pattern.compile("x{2,3}"));
        assertThat(sexp(repeat)).isEqualTo("(REPEAT (LITERAL \"x\"))");
        assertThat(repeat.min()).isEqualTo(2);
        assertThat(repeat.max()).isEqualTo(3);
    }

    @Test
    void simplifiedTreeIsTheOneRe2jCompiles() {
        assertThat(sexp(SyntaxTree.simplified(Pattern.compile("x{2,3}"))))
                .isEqualTo("(CONCAT (LITERAL \"x\") (LITERAL \"x\") (QUEST (LITERAL \"x\")))");
    }

    @Test
    void flagsOfThePatternApply() {
        SyntaxTree folded = SyntaxTree.parsed(Pattern.compile("ab", Pattern.CASE_INSENSITIVE));
        assertThat(folded.op()).isEqualTo(SyntaxTree.Op.LITERAL);
        assertThat(folded.foldCase()).isTrue();
        assertThat(SyntaxTree.parsed(Pattern.compile("^a", Pattern.MULTILINE))
                        .subs()
                        .get(0)
                        .op())
                .isEqualTo(SyntaxTree.Op.BEGIN_LINE);
        assertThat(SyntaxTree.parsed(Pattern.compile("^a")).subs().get(0).op()).isEqualTo(SyntaxTree.Op.BEGIN_TEXT);
        assertThat(SyntaxTree.parsed(Pattern.compile(".", Pattern.DOTALL)).op()).isEqualTo(SyntaxTree.Op.ANY_CHAR);
        assertThat(SyntaxTree.parsed(Pattern.compile(".")).op()).isEqualTo(SyntaxTree.Op.ANY_CHAR_NOT_NL);
    }

    /** The shapes a planner reading the literals of every match relies on. */
    @Test
    void parsedTreeKeepsEveryOperatorAsWritten() {
        assertThat(sexp(SyntaxTree.parsed(Pattern.compile("a*b+?c??(?:)"))))
                .isEqualTo(
                        "(CONCAT (STAR (LITERAL \"a\")) (PLUS (LITERAL \"b\")) (QUEST (LITERAL \"c\")) (EMPTY_MATCH))");
        SyntaxTree never = SyntaxTree.parsed(Pattern.compile("a{0}"));
        assertThat(never.op()).isEqualTo(SyntaxTree.Op.REPEAT);
        assertThat(never.min()).isZero();
        assertThat(never.max()).isZero();
        assertThat(SyntaxTree.parsed(Pattern.compile("a{2,}")).max()).isEqualTo(-1);
        assertThat(sexp(SyntaxTree.parsed(Pattern.compile("\\b^$\\B"))))
                .isEqualTo("(CONCAT (WORD_BOUNDARY) (BEGIN_TEXT) (END_TEXT) (NO_WORD_BOUNDARY))");
        assertThat(sexp(SyntaxTree.parsed(Pattern.compile(Pattern.quote("a(b|c)")))))
                .isEqualTo("(LITERAL \"a(b|c)\")");
    }

    @Test
    void classesHoldEveryRuneTheyMatch() {
        assertThat(SyntaxTree.parsed(Pattern.compile("(?i)[a-c]")).runes()).containsExactly('A', 'C', 'a', 'c');
        assertThat(SyntaxTree.parsed(Pattern.compile("[^a]")).runes()).containsExactly(0, 'a' - 1, 'a' + 1, 0x10FFFF);
        SyntaxTree empty = SyntaxTree.parsed(Pattern.compile("[^\\x00-\\x{10FFFF}]"));
        assertThat(empty.op()).isEqualTo(SyntaxTree.Op.CHAR_CLASS);
        assertThat(empty.runes()).isEmpty();
    }

    @Test
    void caseOrbitIsWhatAFoldedLiteralMatches() {
        assertThat(SyntaxTree.caseOrbit('k')).containsExactly('K', 'k', 0x212A);
        assertThat(SyntaxTree.caseOrbit(0x212A)).containsExactly('K', 'k', 0x212A);
        assertThat(SyntaxTree.caseOrbit('a')).containsExactly('A', 'a');
        assertThat(SyntaxTree.caseOrbit('1')).containsExactly('1');
        assertThat(SyntaxTree.caseOrbit(0x3C3)).containsExactly(0x3A3, 0x3C2, 0x3C3);
        for (int rune : new int[] {'k', 's', 'a', '1', 0xDF, 0x3C3, 0x1C5, 0xE9}) {
            SyntaxTree literal =
                    SyntaxTree.parsed(Pattern.compile(new String(Character.toChars(rune)), Pattern.CASE_INSENSITIVE));
            assertThat(literal.foldCase()).isTrue();
            Pattern folded = Pattern.compile(new String(Character.toChars(rune)), Pattern.CASE_INSENSITIVE);
            int[] orbit = SyntaxTree.caseOrbit(literal.runes()[0]);
            for (int other = 0; other < 0x3000; other++) {
                boolean inOrbit = java.util.Arrays.binarySearch(orbit, other) >= 0;
                assertThat(folded.matches(new String(Character.toChars(other))))
                        .as("U+%04X against %s", other, folded)
                        .isEqualTo(inOrbit);
            }
        }
        assertThatThrownBy(() -> SyntaxTree.caseOrbit(-1)).hasMessage("rune must be in [0, 0x10FFFF], got -1");
    }

    @Test
    void runesAreACopy() {
        SyntaxTree literal = SyntaxTree.parsed(Pattern.compile("abc"));
        literal.runes()[0] = 'z';
        assertThat(literal.runes()).containsExactly('a', 'b', 'c');
    }

    @Test
    void compiledProgramIsRe2jsInstructions() {
        CompiledProgram program = CompiledProgram.of(Pattern.compile("ab"));
        int pc = program.start();
        while (program.op(pc) == CompiledProgram.NOP || program.op(pc) == CompiledProgram.CAPTURE) {
            pc = program.out(pc);
        }
        assertThat(program.op(pc)).isEqualTo(CompiledProgram.RUNE1);
        assertThat(program.rune1(pc)).isEqualTo('a');
        assertThat(program.matchRune(pc, 'a')).isTrue();
        assertThat(program.matchRune(pc, 'b')).isFalse();
        pc = program.out(pc);
        assertThat(program.rune1(pc)).isEqualTo('b');
        pc = program.out(pc);
        while (program.op(pc) == CompiledProgram.CAPTURE) {
            pc = program.out(pc);
        }
        assertThat(program.op(pc)).isEqualTo(CompiledProgram.MATCH);
    }
}
