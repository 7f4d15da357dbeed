package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.symbols.SymbolExtractor;
import io.trigrep.indexer.symbols.Symbols;
import io.trigrep.query.plan.Planner;
import io.trigrep.query.plan.Query;
import io.trigrep.re2j.Pattern;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both ways {@link Definitions} answers (each file's definitions read as it comes, or the matching
 * names looked up once on the name index) give, on every line of every file of the real Debian
 * sources the backend's tests search, what the definitions say when read one by one: a line is a
 * definition of the query when a symbol on it has a name the pattern finds.
 */
@Tag("external") // drives ctags
class DefinitionsTest {
    @TempDir
    static Path dir;

    static Symbols symbols;

    @BeforeAll
    static void build() throws Exception {
        TestShards.build(
                Path.of("src/test/resources/corpus"),
                dir.resolve("out"),
                IndexBuilder.Options.defaults(1)
                        .withSymbols(SymbolChoice.extract(SymbolExtractor.start(
                                new SymbolExtractor.Config("ctags", 2, Duration.ofSeconds(60))))));
        symbols = Symbols.open(dir.resolve("out/shard-0"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"lua_push", "luaS_[a-z]+", "adler32", "sds[A-Z]?[a-z]+", "lua_State"})
    void lookingNamesUpAgreesWithReadingEachFile(String regex) throws Exception {
        Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
        Query plan = Planner.plan(regex, false, false);
        assertThat(SymbolHits.definedLines(symbols, plan, pattern, Definitions.MAX_LOOKED_UP))
                .as("the plan requires trigrams and few enough names match: the look-up way applies")
                .isNotNull();
        List<Integer> truth = truth(pattern);
        assertThat(truth).isNotEmpty();
        assertThat(defined(new Definitions(symbols, pattern, plan, Integer.MAX_VALUE)))
                .isEqualTo(truth);
        assertThat(defined(new Definitions(symbols, pattern, plan, 0))).isEqualTo(truth);
    }

    @ParameterizedTest
    @ValueSource(strings = {"(?i)LUA_PUSH", "sds|adler"})
    void withoutARequiredTrigramEachFileIsRead(String regex) throws Exception {
        Pattern pattern = Pattern.compile(regex, Pattern.MULTILINE);
        Query plan = Planner.plan(regex, false, regex.startsWith("(?i)"));
        assertThat(SymbolHits.definedLines(symbols, plan, pattern, Definitions.MAX_LOOKED_UP))
                .isNull();
        List<Integer> truth = truth(pattern);
        assertThat(truth).isNotEmpty();
        assertThat(defined(new Definitions(symbols, pattern, plan, 0))).isEqualTo(truth);
        assertThat(defined(new Definitions(symbols, pattern, plan, Integer.MAX_VALUE)))
                .isEqualTo(truth);
    }

    /**
     * Docs come in rank order, not by number, and a paused file's lines resume at a line already
     * asked: the look-up way's cursor must agree with reading each file whatever the order.
     */
    @Test
    void theLookUpWayAgreesInAnyOrderOfDocsAndLines() throws Exception {
        Pattern pattern = Pattern.compile("lua_[a-z]+", Pattern.MULTILINE);
        Query plan = Planner.plan("lua_[a-z]+", false, false);
        Definitions lookedUp = new Definitions(symbols, pattern, plan, 0);
        Definitions perFile = new Definitions(symbols, pattern, plan, Integer.MAX_VALUE);
        int yes = 0;
        for (int doc = symbols.docCount() - 1; doc >= 0; doc--) {
            int last = 0;
            for (int s = symbols.firstOfDoc(doc); s < symbols.endOfDoc(doc); s++) {
                last = Math.max(last, symbols.line(s));
            }
            for (int line : new int[] {last, 1, last / 2, last / 2, last / 2 + 1, last + 1, 2, last}) {
                boolean expected = perFile.defines(doc, line);
                assertThat(lookedUp.defines(doc, line))
                        .as("doc %d line %d", doc, line)
                        .isEqualTo(expected);
                yes += expected ? 1 : 0;
            }
        }
        assertThat(yes).as("some lines asked define a name").isPositive();
    }

    /** The (doc, line) of every symbol whose name {@code pattern} finds, each once, in order. */
    private static List<Integer> truth(Pattern pattern) throws Exception {
        java.util.TreeSet<Integer> out = new java.util.TreeSet<>();
        for (int doc = 0; doc < symbols.docCount(); doc++) {
            for (int s = symbols.firstOfDoc(doc); s < symbols.endOfDoc(doc); s++) {
                if (pattern.matcher(symbols.name(symbols.nameId(s))).find()) {
                    out.add(doc * 1_000_000 + symbols.line(s));
                }
            }
        }
        return new ArrayList<>(out);
    }

    /** Every (doc, line) the definitions answer yes for, as doc * 1,000,000 + line, up to the line after each doc's last definition. */
    private static List<Integer> defined(Definitions definitions) throws Exception {
        List<Integer> out = new ArrayList<>();
        for (int doc = 0; doc < symbols.docCount(); doc++) {
            int last = 0;
            for (int s = symbols.firstOfDoc(doc); s < symbols.endOfDoc(doc); s++) {
                last = Math.max(last, symbols.line(s));
            }
            for (int line = 1; line <= last + 1; line++) {
                if (definitions.defines(doc, line)) {
                    out.add(doc * 1_000_000 + line);
                }
            }
        }
        return out;
    }
}
