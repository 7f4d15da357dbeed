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
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The symbols a shard holds are exactly what ctags finds when run on the same files on disk:
 * same names, kinds, lines, languages and scopes, in the right docs. The corpus is the real
 * Debian files (zlib, lua, redis) the backend's tests search.
 */
@Tag("external") // drives ctags
@Tag("integration")
class CtagsGroundTruthTest {
    static final Path CORPUS = Path.of("../source-backend/src/test/resources/corpus");

    @Test
    void shardsHoldWhatCtagsFindsOnDisk(@TempDir Path out) throws Exception {
        List<String> errors = new ArrayList<>();
        var packages = Corpus.discover(List.of(CORPUS), out, errors::add);
        SymbolExtractor extractor =
                SymbolExtractor.start(new SymbolExtractor.Config("ctags", 2, java.time.Duration.ofSeconds(30)));
        IndexBuilder.Report report = new IndexBuilder(
                        IndexBuilder.Options.defaults(2).withSymbols(SymbolChoice.extract(extractor)),
                        Clock.systemUTC())
                .build(packages, out, errors::add);
        assertThat(errors).isEmpty();
        assertThat(report.shards())
                .allSatisfy(s -> assertThat(s.symbolFailures()).isEmpty());

        TreeSet<String> indexed = new TreeSet<>();
        for (int shardNumber = 0; shardNumber < 2; shardNumber++) {
            Path folder = out.resolve("shard-" + shardNumber);
            Shard shard = Shard.open(folder);
            Symbols symbols = Symbols.open(folder);
            assertThat(symbols.present()).isTrue();
            symbols.verify();
            for (int doc = 0; doc < shard.docs().docCount(); doc++) {
                String path = shard.docs().packageName(shard.docs().packageId(doc)) + "/"
                        + shard.docs().path(doc);
                int previousLine = 0;
                for (int s = symbols.firstOfDoc(doc); s < symbols.endOfDoc(doc); s++) {
                    assertThat(symbols.doc(s)).isEqualTo(doc);
                    assertThat(symbols.line(s)).isGreaterThanOrEqualTo(previousLine);
                    previousLine = symbols.line(s);
                    indexed.add(path + " " + symbols.name(symbols.nameId(s)) + " " + symbols.kind(s) + " "
                            + symbols.line(s) + " " + symbols.language(s) + " " + symbols.scope(s));
                }
            }
        }

        List<String> files;
        try (Stream<Path> walk = Files.walk(CORPUS)) {
            files = walk.filter(Files::isRegularFile)
                    .map(p -> CORPUS.relativize(p).toString())
                    .sorted()
                    .toList();
        }
        TreeSet<String> onDisk = ctagsOnDisk(CORPUS, files);
        assertThat(onDisk).hasSizeGreaterThan(300);
        assertThat(onDisk.stream().map(t -> t.substring(0, t.indexOf(' '))))
                .anyMatch(p -> p.endsWith(".c"))
                .anyMatch(p -> p.endsWith(".h"))
                .anyMatch(p -> p.endsWith(".go"));
        TreeSet<String> missing = new TreeSet<>(onDisk);
        missing.removeAll(indexed);
        TreeSet<String> extra = new TreeSet<>(indexed);
        extra.removeAll(onDisk);
        assertThat(missing).as("found by ctags on disk, not in the shards").isEmpty();
        assertThat(extra).as("in the shards, not found by ctags on disk").isEmpty();
    }

    /** What ctags itself finds in {@code files} under {@code root}: "path name kind line language scope" each. */
    static TreeSet<String> ctagsOnDisk(Path root, List<String> files) throws Exception {
        List<String> command = new ArrayList<>(List.of("ctags", "--options=NONE"));
        command.addAll(Ctags.MAPS);
        command.addAll(List.of("--output-format=json", "--fields=NnKlsF", "-o", "-"));
        command.addAll(files);
        Process ctags = new ProcessBuilder(command)
                .directory(root.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        String json = new String(ctags.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(ctags.waitFor()).isZero();
        TagLine parsed = new TagLine();
        TreeSet<String> tags = new TreeSet<>();
        for (String line : json.lines().toList()) {
            parsed.parse(line);
            if ("tag".equals(parsed.type)) {
                tags.add(pathOf(line) + " " + parsed.name() + " " + parsed.kind + " " + parsed.line + " "
                        + parsed.language + " " + (parsed.scope() == null ? "" : parsed.scope()));
            }
        }
        return tags;
    }

    /** The "path" field, which the symbols file does not keep and TagLine does not read. */
    private static String pathOf(String line) {
        int at = line.indexOf("\"path\": \"") + 9;
        return line.substring(at, line.indexOf('"', at));
    }
}
