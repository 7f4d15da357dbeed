package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.symbols.SymbolExtractor;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Result;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 18: a plain query ranks the line that defines a matching symbol above the lines that only
 * use it. The calls here look better than the definition by every other measure (column 0, no
 * indent), so without symbols they come first; with them, the definition does.
 */
@Tag("external") // drives ctags
@Tag("integration")
class DefinitionRankingTest {
    @Test
    void theDefinitionComesFirstOnlyWithSymbols(@TempDir Path dir) throws Exception {
        Path pkg = Files.createDirectories(dir.resolve("corpus/lib_1.0/src"));
        Files.writeString(
                pkg.resolve("widget.c"), "#include \"widget.h\"\n\nint widget_open(int x)\n{\n    return x + 1;\n}\n");
        for (String caller : List.of("a", "b", "c", "d", "e")) {
            Files.writeString(pkg.resolve(caller + ".c"), "void " + caller + "(void);\nwidget_open(1);\n");
        }
        Path with = index(dir, "with", true);
        Path without = index(dir, "without", false);
        // The names looked up on the name index by the query's trigrams, then the per-file way a
        // query without a required trigram (case folded: its plan is an OR of spellings) takes.
        for (String query : List.of("widget_open", "(?i)WIDGET_OPEN")) {
            assertThat(ranked(with, query).get(0)).as(query).isEqualTo("src/widget.c:3");
            assertThat(ranked(without, query).get(0))
                    .as("the calls rank first by their looks alone: " + query)
                    .isNotEqualTo("src/widget.c:3");
        }
    }

    /** The shard of the corpus, built with or without symbols. */
    private static Path index(Path dir, String name, boolean symbols) throws Exception {
        Path out = dir.resolve(name);
        List<String> errors = new ArrayList<>();
        IndexBuilder.Options options = IndexBuilder.Options.defaults(1);
        if (symbols) {
            options = options.withSymbols(SymbolChoice.extract(
                    SymbolExtractor.start(new SymbolExtractor.Config("ctags", 1, Duration.ofSeconds(30)))));
        }
        new IndexBuilder(options, Clock.systemUTC())
                .build(Corpus.discover(List.of(dir.resolve("corpus")), out, errors::add), out, errors::add);
        assertThat(errors).isEmpty();
        return out.resolve("shard-0");
    }

    /** The results of {@code query}, best ranking first. */
    private static List<String> ranked(Path shard, String query) throws Exception {
        try (BackendServer server = new BackendServer(Shard.open(shard), BackendConfig.defaults())) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            MessageBuilder request = Messages.newBuilder();
            request.initRoot(Request.factory).initSearch().setQuery(query).setLiteral(false);
            List<Object[]> results = new ArrayList<>();
            BackendClient.exchange(address, request, r -> {
                if (r.which() == io.trigrep.proto.Response.Which.RESULT) {
                    Result.Reader result = r.getResult();
                    results.add(new Object[] {result.getPath() + ":" + result.getLine(), result.getRanking()});
                }
                return true;
            });
            assertThat(results).hasSize(6);
            results.sort(Comparator.comparing((Object[] r) -> (Float) r[1]).reversed());
            return results.stream().map(r -> (String) r[0]).toList();
        }
    }
}
