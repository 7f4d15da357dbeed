package io.trigrep.query.plan;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.re2j.Pattern;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PlannerTest {

    @ParameterizedTest
    @CsvSource(
            delimiterString = ";;",
            value = {
                "abc                ;; false ;; false ;; \"abc\"",
                "abcd               ;; false ;; false ;; (and \"abc\" \"bcd\")",
                "ab                 ;; false ;; false ;; all",
                ".                  ;; false ;; false ;; all",
                "\\w+               ;; false ;; false ;; all",
                "a.c                ;; false ;; false ;; all",
                "foo|bar            ;; false ;; false ;; (or \"bar\" \"foo\")",
                "foo(bar|baz)       ;; false ;; false ;; (or (and \"bar\" \"foo\" \"oba\" \"oob\") (and \"baz\" \"foo\" \"oba\" \"oob\"))",
                "(foo)?bar          ;; false ;; false ;; \"bar\"",
                "hello.*world       ;; false ;; false ;; (and \"ell\" \"hel\" \"llo\" \"orl\" \"rld\" \"wor\")",
                "[ab]cd             ;; false ;; false ;; (or \"acd\" \"bcd\")",
                "Abc                ;; false ;; true  ;; (or \"ABC\" \"ABc\" \"AbC\" \"Abc\" \"aBC\" \"aBc\" \"abC\" \"abc\")",
                "a+bc               ;; false ;; false ;; \"abc\"",
                "^int main\\(       ;; false ;; false ;; (and \" ma\" \"ain\" \"in(\" \"int\" \"mai\" \"nt \" \"t m\")",
                "a(b                ;; true  ;; false ;; \"a(b\"",
                "x{2,5}yz           ;; false ;; false ;; (and \"xxy\" \"xyz\")",
                "(?i)xé             ;; false ;; false ;; (or \"X\\xc3\\x89\" \"X\\xc3\\xa9\" \"x\\xc3\\x89\" \"x\\xc3\\xa9\")",
                "ok!                ;; false ;; true  ;; (or \"OK!\" \"Ok!\" \"oK!\" \"ok!\" (and \"O\\xe2\\x84\" \"\\x84\\xaa!\" \"\\xe2\\x84\\xaa\") (and \"\\x84\\xaa!\" \"\\xe2\\x84\\xaa\" \"o\\xe2\\x84\"))",
                "a[^\\x00-\\x{10FFFF}]b ;; false ;; false ;; none",
                "a(?:|[^\\x00-\\x{10FFFF}])bc ;; false ;; false ;; \"abc\"",
            })
    void plansAsExpected(String regex, boolean literal, boolean caseInsensitive, String expected) {
        assertThat(Planner.plan(regex.trim(), literal, caseInsensitive)).hasToString(expected.trim());
    }

    /**
     * How precise each rule is, pinned as plans: the bounds on exact sets (16 strings, 12 bytes),
     * prefix and suffix sets (32, shrunk from the far end), repeats, optional parts, the strings
     * spanning a concatenation, UTF-8 of each width, and the empty class an alternation ignores.
     */
    @ParameterizedTest
    @CsvSource(
            delimiterString = ";;",
            value = {
                "[a-p]xy                      ;; false ;; false ;; (or \"axy\" \"bxy\" \"cxy\" \"dxy\" \"exy\" \"fxy\" \"gxy\" \"hxy\" \"ixy\" \"jxy\" \"kxy\" \"lxy\" \"mxy\" \"nxy\" \"oxy\" \"pxy\")",
                "[a-q]xy                      ;; false ;; false ;; all",
                "xy[a-p]                      ;; false ;; false ;; (or \"xya\" \"xyb\" \"xyc\" \"xyd\" \"xye\" \"xyf\" \"xyg\" \"xyh\" \"xyi\" \"xyj\" \"xyk\" \"xyl\" \"xym\" \"xyn\" \"xyo\" \"xyp\")",
                "([a-p]|zz)xy                 ;; false ;; false ;; (or \"axy\" \"bxy\" \"cxy\" \"dxy\" \"exy\" \"fxy\" \"gxy\" \"hxy\" \"ixy\" \"jxy\" \"kxy\" \"lxy\" \"mxy\" \"nxy\" \"oxy\" \"pxy\" (and \"zxy\" \"zzx\"))",
                "(abcdefghijkl|x)yz           ;; false ;; false ;; (or \"xyz\" (and \"abc\" \"bcd\" \"cde\" \"def\" \"efg\" \"fgh\" \"ghi\" \"hij\" \"ijk\" \"jkl\" \"kly\" \"lyz\"))",
                "(abcdefghijklm|x)yz          ;; false ;; false ;; (or \"xyz\" (and \"lmy\" \"myz\"))",
                "abcdefghijklm                ;; false ;; false ;; (and \"abc\" \"bcd\" \"cde\" \"def\" \"efg\" \"fgh\" \"ghi\" \"hij\" \"ijk\" \"jkl\" \"klm\")",
                "[a-c][a-c][a-c][a-c]         ;; false ;; false ;; (or \"aaa\" \"aab\" \"aac\" \"aba\" \"abb\" \"abc\" \"aca\" \"acb\" \"acc\" \"baa\" \"bab\" \"bac\" \"bba\" \"bbb\" \"bbc\" \"bca\" \"bcb\" \"bcc\" \"caa\" \"cab\" \"cac\" \"cba\" \"cbb\" \"cbc\" \"cca\" \"ccb\" \"ccc\")",
                ".*z[a-f][a-f]                ;; false ;; false ;; (or \"zaa\" \"zab\" \"zac\" \"zad\" \"zae\" \"zaf\" \"zba\" \"zbb\" \"zbc\" \"zbd\" \"zbe\" \"zbf\" \"zca\" \"zcb\" \"zcc\" \"zcd\" \"zce\" \"zcf\" \"zda\" \"zdb\" \"zdc\" \"zdd\" \"zde\" \"zdf\" \"zea\" \"zeb\" \"zec\" \"zed\" \"zee\" \"zef\" \"zfa\" \"zfb\" \"zfc\" \"zfd\" \"zfe\" \"zff\")",
                "(xy)+z                       ;; false ;; false ;; \"xyz\"",
                "x(yz)+                       ;; false ;; false ;; \"xyz\"",
                "xy+z                         ;; false ;; false ;; all",
                "ab+cd                        ;; false ;; false ;; \"bcd\"",
                "ab?cd                        ;; false ;; false ;; (or \"acd\" (and \"abc\" \"bcd\"))",
                "(abc)?def                    ;; false ;; false ;; \"def\"",
                "x(abc)?                      ;; false ;; false ;; all",
                "x{0}abc                      ;; false ;; false ;; \"abc\"",
                "x{0,1}abc                    ;; false ;; false ;; \"abc\"",
                "a*?bcd                       ;; false ;; false ;; \"bcd\"",
                "(?:ab)*cd                    ;; false ;; false ;; all",
                "(abc|de)fg                   ;; false ;; false ;; (or (and \"abc\" \"bcf\" \"cfg\") (and \"def\" \"efg\"))",
                "abc|de                       ;; false ;; false ;; all",
                "abcd.efgh                    ;; false ;; false ;; (and \"abc\" \"bcd\" \"efg\" \"fgh\")",
                "a.bcd                        ;; false ;; false ;; \"bcd\"",
                ".abc                         ;; false ;; false ;; \"abc\"",
                "abc.                         ;; false ;; false ;; \"abc\"",
                "(a|b)*abc                    ;; false ;; false ;; \"abc\"",
                "\\x{7f}\\x{80}\\x{7ff}          ;; false ;; false ;; (and \"\\x7f\\xc2\\x80\" \"\\x80\\xdf\\xbf\" \"\\xc2\\x80\\xdf\")",
                "\\x{800}\\x{ffff}              ;; false ;; false ;; (and \"\\x80\\xef\\xbf\" \"\\xa0\\x80\\xef\" \"\\xe0\\xa0\\x80\" \"\\xef\\xbf\\xbf\")",
                "\\x{10000}                    ;; false ;; false ;; (and \"\\x90\\x80\\x80\" \"\\xf0\\x90\\x80\")",
                "abc                          ;; false ;; true  ;; (or \"ABC\" \"ABc\" \"AbC\" \"Abc\" \"aBC\" \"aBc\" \"abC\" \"abc\")",
                "a.b*                         ;; true  ;; false ;; (and \".b*\" \"a.b\")",
                "a\"\\                          ;; true  ;; false ;; \"a\\\"\\\\\"",
                "abc|[^\\x00-\\x{10FFFF}]       ;; false ;; false ;; \"abc\"",
                "abc[^\\x00-\\x{10FFFF}]*def    ;; false ;; false ;; (and \"abc\" \"def\")",
                "[abc]+def                    ;; false ;; false ;; (or (and \"ade\" \"def\") (and \"bde\" \"def\") (and \"cde\" \"def\"))",
                "def[abc]+                    ;; false ;; false ;; (or (and \"def\" \"efa\") (and \"def\" \"efb\") (and \"def\" \"efc\"))",
                "(abc|def).*(ghi|jkl)         ;; false ;; false ;; (and (or \"abc\" \"def\") (or \"ghi\" \"jkl\"))",
                "(?:a|b)(?:c|d)?xyz           ;; false ;; false ;; (or (and \"acx\" \"cxy\" \"xyz\") (and \"adx\" \"dxy\" \"xyz\") (and \"axy\" \"xyz\") (and \"bcx\" \"cxy\" \"xyz\") (and \"bdx\" \"dxy\" \"xyz\") (and \"bxy\" \"xyz\"))",
                "(ab|cd)(ef|gh)               ;; false ;; false ;; (or (and \"abe\" \"bef\") (and \"abg\" \"bgh\") (and \"cde\" \"def\") (and \"cdg\" \"dgh\"))",
                "(abc)+                       ;; false ;; false ;; \"abc\"",
                "(abc){2,3}                   ;; false ;; false ;; (and \"abc\" \"bca\" \"cab\")",
                "a{3}                         ;; false ;; false ;; \"aaa\"",
                "a{10}                        ;; false ;; false ;; \"aaa\"",
                "a{2}                         ;; false ;; false ;; all",
                "ab{2}                        ;; false ;; false ;; \"abb\"",
                "(ab){2}                      ;; false ;; false ;; (and \"aba\" \"bab\")",
                "xyz{2}y                      ;; false ;; false ;; (and \"xyz\" \"yzz\" \"zzy\")",
                "a{3,}                        ;; false ;; false ;; \"aaa\"",
                "abc()def                     ;; false ;; false ;; (and \"abc\" \"bcd\" \"cde\" \"def\")",
                "\\Aabc\\z                      ;; false ;; false ;; \"abc\"",
                "(?i)k                        ;; false ;; false ;; all",
                "ab+cd+                       ;; false ;; false ;; \"bcd\"",
                "a+bcdef+                     ;; false ;; false ;; (and \"abc\" \"bcd\" \"cde\" \"def\")",
                "[a-f][a-f](?:xy)+            ;; false ;; false ;; (or \"axy\" \"bxy\" \"cxy\" \"dxy\" \"exy\" \"fxy\")",
                "b+[^\\x00-\\x{10FFFF}](?:cde)+ ;; false ;; false ;; none",
                "x(?:a){1}y                   ;; false ;; false ;; \"xay\"",
                "\\x{10FFFF}                  ;; false ;; false ;; (and \"\\x8f\\xbf\\xbf\" \"\\xf4\\x8f\\xbf\")"
            })
    void eachRuleKeepsItsTrigrams(String regex, boolean literal, boolean caseInsensitive, String expected) {
        assertThat(Planner.plan(regex.trim(), literal, caseInsensitive)).hasToString(expected.trim());
    }

    /**
     * The strings spanning a concatenation are kept while each side's set is at most 32 strings
     * (one side here has exactly 32), and a suffix set shrunk to exactly 32 strings of two bytes
     * stays at two bytes, long enough to span into a one-byte prefix.
     */
    @Test
    void setsOfExactlyTheBoundStillSpanTheConcatenation() {
        assertThat(Planner.plan("[a-p][ab]c+", false, false)).hasToString(spanning("", "c"));
        assertThat(Planner.plan("x+(?:[a-p][ab])+", false, false)).hasToString(spanning("x", ""));
        assertThat(Planner.plan("x+y[a-p][ab]z+", false, false).toString())
                .startsWith("(and " + spanning("", "z") + " (or ");
    }

    /** The OR of the 32 trigrams {@code before + [a-p] + [ab] + after}. */
    private static String spanning(String before, String after) {
        List<String> trigrams = new ArrayList<>();
        for (char c = 'a'; c <= 'p'; c++) {
            for (char d = 'a'; d <= 'b'; d++) {
                trigrams.add("\"" + before + c + d + after + "\"");
            }
        }
        return "(or " + String.join(" ", trigrams) + ")";
    }

    @Test
    void unparseableSyntaxFallsBackToAFullScan() {
        assertThat(Planner.plan("(?z)abc", false, false)).isEqualTo(Query.ALL);
    }

    /**
     * A literal's plan is built at once (its trigrams), not by the analysis; both must give the
     * same plan, s-expression for s-expression, whatever the bytes: quotes and backslashes
     * (escaped when printed, so ordered apart from their values), control bytes, runes of two to
     * four UTF-8 bytes, repeated trigrams, and lengths around the exact strings' bound.
     */
    @Property(tries = 3000)
    void aLiteralsPlanIsTheAnalysisPlan(@ForAll("literals") String literal) {
        Query analyzed =
                Planner.analyzed(io.trigrep.re2j.SyntaxTree.parsed(Pattern.compile(Pattern.quote(literal), 0)));
        assertThat(Planner.plan(literal, true, false).toString()).isEqualTo(analyzed.toString());
        assertThat(Planner.plan(literal, true, false)).isEqualTo(analyzed);
    }

    @Provide
    Arbitrary<String> literals() {
        Arbitrary<String> rune = Arbitraries.oneOf(
                Arbitraries.of("a", "b", "c", "_", "\"", "\\", "\t", "\u0001", "\u007f", " "),
                Arbitraries.chars().range('a', 'z').map(String::valueOf),
                Arbitraries.of("\u00e9", "\u00ff", "\u4e2d", "\u2603", "\ud83d\ude00", "\u017f", "\u212a"));
        return rune.list().ofMinSize(0).ofMaxSize(40).map(parts -> String.join("", parts));
    }

    @Property(tries = 3000)
    void neverDropsATrueMatch(
            @ForAll("regexes") String regex, @ForAll("texts") List<String> files, @ForAll boolean fold) {
        Pattern pattern;
        try {
            pattern = Pattern.compile(fold ? "(?i)" + regex : regex, Pattern.MULTILINE);
        } catch (RuntimeException invalid) {
            return;
        }
        Query plan = Planner.plan(regex, false, fold);
        for (String file : files) {
            boolean matches = false;
            for (String line : file.split("\n", -1)) {
                matches |=
                        pattern.matcher(line.getBytes(StandardCharsets.UTF_8)).find();
            }
            if (matches) {
                assertThat(evaluate(plan, trigrams(file)))
                        .as("plan %s for /%s/ on %s", plan, regex, file)
                        .isTrue();
            }
        }
    }

    /** Letters whose case orbit in RE2J reaches past ASCII, or has three members; each orbit's first is its lower case. */
    private static final String[][] ORBITS = {
        {"k", "K", "\u212a"},
        {"s", "S", "\u017f"},
        {"\u03c3", "\u03a3", "\u03c2"},
        {"\u00df", "\u1e9e"},
        {"\u00e9", "\u00c9"},
        {"a", "A"},
        {"\u01c6", "\u01c5", "\u01c4"}
    };

    /** Under (?i) a file holding any case variant of the pattern is a match, and the plan keeps it. */
    @Property(tries = 2000)
    void foldedPlansKeepEveryCaseVariant(
            @ForAll @Size(min = 1, max = 6) List<@IntRange(min = 0, max = 6) Integer> letters,
            @ForAll @Size(6) List<@IntRange(min = 0, max = 2) Integer> variants,
            @ForAll boolean literal) {
        StringBuilder needle = new StringBuilder();
        StringBuilder file = new StringBuilder("x ");
        for (int i = 0; i < letters.size(); i++) {
            String[] orbit = ORBITS[letters.get(i)];
            needle.append(orbit[0]);
            file.append(orbit[variants.get(i) % orbit.length]);
        }
        file.append(" y");
        assertThat(Pattern.compile(needle.toString(), Pattern.CASE_INSENSITIVE)
                        .matcher(file.toString())
                        .find())
                .as("RE2J matches /(?i)%s/ on %s", needle, file)
                .isTrue();
        Query plan = Planner.plan(needle.toString(), literal, true);
        assertThat(evaluate(plan, trigrams(file.toString())))
                .as("plan %s for /(?i)%s/ on %s", plan, needle, file)
                .isTrue();
    }

    @Property(tries = 1000)
    void literalPlansNeverDropATrueMatch(@ForAll("texts") List<String> files, @ForAll boolean fold) {
        for (String file : files) {
            if (file.length() < 2) {
                continue;
            }
            int start = file.length() / 3;
            String needle = file.substring(start, Math.min(file.length(), start + 5));
            if (needle.contains("\n")) {
                continue;
            }
            Query plan = Planner.plan(needle, true, fold);
            assertThat(evaluate(plan, trigrams(file)))
                    .as("plan %s for %s", plan, needle)
                    .isTrue();
            if (fold) {
                // Rune by rune, as RE2J folds: String.toUpperCase would turn ß into SS, which (?i)ß does not match.
                String upper = file.codePoints()
                        .map(Character::toUpperCase)
                        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                        .toString();
                assertThat(evaluate(plan, trigrams(upper)))
                        .as("plan %s for %s on %s", plan, needle, upper)
                        .isTrue();
            }
        }
    }

    @Provide
    Arbitrary<String> regexes() {
        Arbitrary<String> atom = Arbitraries.of(
                "a",
                "b",
                "c",
                "ab",
                "abc",
                "bca",
                "A",
                "é",
                ".",
                "\\w",
                "\\d",
                "[ab]",
                "[^a]",
                "[a-c]",
                "\\b",
                "^",
                "$",
                "(a|bc)",
                "(?i:ab)",
                "x",
                "\\.",
                " ",
                "[[:alpha:]]",
                "\\pL",
                "(?:abc)?",
                "ß",
                "K");
        Arbitrary<String> quantifier = Arbitraries.of("", "", "", "*", "+", "?", "{2}", "{1,3}", "*?");
        return Arbitraries.lazyOf(() -> Arbitraries.strings()
                .ofLength(0)
                .flatMap(ignored -> net.jqwik.api.Combinators.combine(atom, quantifier)
                        .as((a, q) -> a + q)
                        .list()
                        .ofMinSize(1)
                        .ofMaxSize(5)
                        .flatMap(parts -> Arbitraries.of("", "|").map(sep -> {
                            String body = String.join("", parts);
                            return sep.isEmpty() ? body : body + "|" + parts.get(0);
                        }))));
    }

    @Provide
    Arbitrary<List<String>> texts() {
        return Arbitraries.strings()
                .withChars("abcABCxé .\nKkßS_1")
                .ofMaxLength(40)
                .list()
                .ofMaxSize(6);
    }

    static Set<Integer> trigrams(String file) {
        byte[] b = file.getBytes(StandardCharsets.UTF_8);
        Set<Integer> out = new HashSet<>();
        for (int i = 0; i + 2 < b.length; i++) {
            out.add((b[i] & 0xff) << 16 | (b[i + 1] & 0xff) << 8 | b[i + 2] & 0xff);
        }
        return out;
    }

    static boolean evaluate(Query q, Set<Integer> trigrams) {
        if (q instanceof Query.All) {
            return true;
        }
        if (q instanceof Query.None) {
            return false;
        }
        if (q instanceof Query.Trigram t) {
            return trigrams.contains(t.value());
        }
        if (q instanceof Query.And and) {
            return and.operands().stream().allMatch(o -> evaluate(o, trigrams));
        }
        return ((Query.Or) q).operands().stream().anyMatch(o -> evaluate(o, trigrams));
    }
}
