package io.trigrep.indexer.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.format.Shard;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shard whose definitions far outgrow the memory for writing them: the writer spills sorted runs
 * and merges them, every definition is kept (a generated header's thousands too), templates ctags
 * parses by their name without {@code .in} get theirs, the whole equals one serial ctags run over
 * the corpus, and the file is byte for byte the one a build with ample memory writes.
 */
@Tag("external") // drives ctags
@Tag("integration")
class SymbolSpillBuildTest {
    @Test
    void aTinyBudgetSpillsAndKeepsEveryDefinition(@TempDir Path dir) throws Exception {
        Path corpus = dir.resolve("corpus");
        Path pkg = Files.createDirectories(corpus.resolve("regs"));
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
        Files.writeString(pkg.resolve("zconf.h.in"), "#define ZLIB_CONST_TEMPLATE 1\nstruct z_opts { int level; };\n");
        Files.createDirectories(pkg.resolve("sub"));
        Files.writeString(pkg.resolve("sub/Makefile.in"), "CFLAGS = -O2\nall: units\n");
        Files.writeString(pkg.resolve("notes.in"), "not a template of anything ctags parses\n");
        Path other = Files.createDirectories(corpus.resolve("other"));
        for (int f = 0; f < 40; f++) {
            Files.writeString(
                    other.resolve("f" + f + ".c"), "int fn_" + f + "(void) { return " + f + "; }\nint shared_name;\n");
        }

        Path small = dir.resolve("small");
        IndexBuilder.Report tight = build(corpus, small, 64 * 1024);
        Path large = dir.resolve("large");
        IndexBuilder.Report ample = build(corpus, large, SymbolExtractor.Config.DEFAULT_BUDGET_BYTES);

        int runs = 0;
        int symbolCount = 0;
        for (var shard : tight.shards()) {
            runs += shard.symbols().spilledRuns();
            symbolCount += shard.symbols().symbols();
            assertThat(shard.symbols().failures()).isEmpty();
        }
        assertThat(runs).as("runs spilled with a 64 KiB budget").isGreaterThan(0);
        assertThat(ample.shards())
                .allSatisfy(s -> assertThat(s.symbols().spilledRuns()).isZero());
        for (int shard = 0; shard < 2; shard++) {
            assertThat(Files.readAllBytes(small.resolve("shard-" + shard + "/symbols.tgs")))
                    .isEqualTo(Files.readAllBytes(large.resolve("shard-" + shard + "/symbols.tgs")));
        }

        TreeSet<String> indexed = indexed(small);
        TreeSet<String> byCtags = ctagsOwn(corpus);
        assertThat(indexed).hasSize(symbolCount).isEqualTo(byCtags);
        assertThat(indexed)
                .anyMatch(t -> t.startsWith("regs/zconf.h.in ZLIB_CONST_TEMPLATE macro 1 "))
                .anyMatch(t -> t.startsWith("regs/sub/Makefile.in CFLAGS "))
                .anyMatch(t -> t.startsWith("regs/sh_mask.h REG_BLOCK_2999__FIELD_MASK macro 3000 "))
                .noneMatch(t -> t.startsWith("regs/notes.in "));
    }

    private static IndexBuilder.Report build(Path corpus, Path out, long budget) throws Exception {
        SymbolExtractor extractor =
                SymbolExtractor.start(new SymbolExtractor.Config("ctags", 2, Duration.ofSeconds(30), budget));
        List<String> errors = new ArrayList<>();
        var packages = Corpus.discover(List.of(corpus), out, errors::add);
        IndexBuilder.Report report = new IndexBuilder(
                        IndexBuilder.Options.defaults(2).withSymbols(SymbolChoice.extract(extractor)),
                        Clock.systemUTC())
                .build(packages, out, errors::add);
        assertThat(errors).isEmpty();
        return report;
    }

    /** Every definition of the index as "package/path name kind line language scope". */
    static TreeSet<String> indexed(Path index) throws Exception {
        TreeSet<String> out = new TreeSet<>();
        for (int n = 0; Files.isDirectory(index.resolve("shard-" + n)); n++) {
            Path folder = index.resolve("shard-" + n);
            Shard shard = Shard.open(folder);
            Symbols symbols = Symbols.open(folder);
            symbols.verify();
            for (int doc = 0; doc < shard.docs().docCount(); doc++) {
                String path = shard.docs().packageName(shard.docs().packageId(doc)) + "/"
                        + shard.docs().path(doc);
                for (int s = symbols.firstOfDoc(doc); s < symbols.endOfDoc(doc); s++) {
                    out.add(path + " " + symbols.name(symbols.nameId(s)) + " " + symbols.kind(s) + " " + symbols.line(s)
                            + " " + symbols.language(s) + " " + symbols.scope(s));
                }
            }
        }
        return out;
    }

    /** What one ctags process finds over every file under {@code corpus}, named as {@link #indexed} names them. */
    static TreeSet<String> ctagsOwn(Path corpus) throws Exception {
        List<String> files;
        try (Stream<Path> walk = Files.walk(corpus)) {
            files = walk.filter(Files::isRegularFile)
                    .map(p -> corpus.relativize(p).toString())
                    .sorted()
                    .toList();
        }
        List<String> command = new ArrayList<>(List.of("ctags", "--options=NONE"));
        command.addAll(Ctags.MAPS);
        command.addAll(List.of("--output-format=json", "--fields=NnKlsF", "-o", "-"));
        command.addAll(files);
        Process ctags = new ProcessBuilder(command)
                .directory(corpus.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String json = new String(ctags.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ctags.waitFor()).isZero();
        TagLine parsed = new TagLine();
        TreeSet<String> out = new TreeSet<>();
        for (String line : json.lines().toList()) {
            parsed.parse(line);
            if ("tag".equals(parsed.type)) {
                int at = line.indexOf("\"path\": \"") + 9;
                String path = line.substring(at, line.indexOf('"', at));
                out.add(path + " " + parsed.name() + " " + parsed.kind + " " + parsed.line + " " + parsed.language + " "
                        + (parsed.scope() == null ? "" : parsed.scope()));
            }
        }
        return out;
    }
}
