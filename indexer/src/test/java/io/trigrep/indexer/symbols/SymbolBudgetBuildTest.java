package io.trigrep.indexer.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.format.Shard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A generated header with thousands of definitions in a shard over its symbol budget: the build
 * completes, the header alone gets no symbols, the hand-written files keep theirs, and the result
 * names the header with its definition count.
 */
@Tag("external") // drives ctags
class SymbolBudgetBuildTest {
    @Test
    void theFileWithTheMostDefinitionsGoesAndTheRestKeepTheirs(@TempDir Path dir) throws Exception {
        Path pkg = Files.createDirectories(dir.resolve("corpus/regs"));
        StringBuilder header = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            header.append("#define REG_BLOCK_")
                    .append(i)
                    .append("__FIELD_MASK 0x")
                    .append(Integer.toHexString(i))
                    .append('\n');
        }
        Files.writeString(pkg.resolve("sh_mask.h"), header);
        Files.writeString(
                pkg.resolve("driver.c"), "int probe(void) { return 0; }\nstatic int remove_dev(int x) { return x; }\n");
        Files.writeString(pkg.resolve("util.c"), "#define MAX_UNITS 8\nint units(void) { return MAX_UNITS; }\n");
        // Room for the two small files (a few hundred bytes), not for 3,000 definitions.
        SymbolExtractor extractor =
                SymbolExtractor.start(new SymbolExtractor.Config("ctags", 2, Duration.ofSeconds(30), 64 * 1024));
        List<String> errors = new ArrayList<>();
        Path out = dir.resolve("index");
        var packages = Corpus.discover(List.of(dir.resolve("corpus")), out, errors::add);
        IndexBuilder.Report report = new IndexBuilder(
                        IndexBuilder.Options.defaults(1).withSymbols(SymbolChoice.extract(extractor)),
                        Clock.systemUTC())
                .build(packages, out, errors::add);
        assertThat(errors).isEmpty();

        Path folder = out.resolve("shard-0");
        Shard shard = Shard.open(folder);
        Symbols symbols = Symbols.open(folder);
        symbols.verify();
        TreeMap<String, Integer> perFile = new TreeMap<>();
        int headerDoc = -1;
        for (int doc = 0; doc < shard.docs().docCount(); doc++) {
            String path = shard.docs().path(doc);
            perFile.put(path, symbols.endOfDoc(doc) - symbols.firstOfDoc(doc));
            if (path.equals("sh_mask.h")) {
                headerDoc = doc;
            }
        }
        assertThat(perFile)
                .containsEntry("sh_mask.h", 0)
                .containsEntry("driver.c", 2)
                .containsEntry("util.c", 2);
        SymbolExtractor.Result result = report.shards().get(0).symbols();
        assertThat(result.overBudget()).containsExactly(new SymbolExtractor.OverBudget(headerDoc, 3000));
        assertThat(result.symbols()).isEqualTo(4);
        assertThat(result.failures()).isEmpty();
    }
}
