package io.trigrep.indexer.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.build.BuiltShard;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.format.Shard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file whose name ctags maps to no language but whose {@code #!} line it reads (an extension-less
 * shell script, a {@code debian/rules} makefile) gets the definitions ctags finds in it on disk; a
 * file with neither a known name nor a {@code #!} line gets none.
 */
@Tag("external") // drives ctags
class CtagsByContentTest {
    private static final String SCRIPT = """
            #!/bin/sh
            # Builds the release tarball.
            make_tarball() {
                tar czf "$1.tar.gz" "$1"
            }
            make_tarball hello
            """;

    private static final String RULES = """
            #!/usr/bin/make -f
            export DH_VERBOSE = 1

            %:
            \tdh $@

            override_dh_auto_test:
            \techo skipped
            """;

    private static final String NOTES = """
            Release notes; a shell function in prose:
            greet() {
                echo hello
            }
            """;

    private static final String SOURCE = """
            int greet(void) { return 0; }
            """;

    @Test
    void scriptsKnownByTheirShebangGetWhatCtagsFindsOnDisk(@TempDir Path dir) throws Exception {
        Path corpus = dir.resolve("corpus");
        Path pkg = corpus.resolve("hello");
        write(pkg.resolve("tools/mkdist"), SCRIPT);
        write(pkg.resolve("debian/rules"), RULES);
        write(pkg.resolve("NOTES"), NOTES);
        write(pkg.resolve("src/greet.c"), SOURCE);
        Path out = dir.resolve("index");
        Files.createDirectories(out);

        List<String> errors = new ArrayList<>();
        var packages = Corpus.discover(List.of(corpus), out, errors::add);
        SymbolExtractor extractor =
                SymbolExtractor.start(new SymbolExtractor.Config("ctags", 2, Duration.ofSeconds(30)));
        IndexBuilder.Report report = new IndexBuilder(
                        IndexBuilder.Options.defaults(1).withSymbols(SymbolChoice.extract(extractor)),
                        Clock.systemUTC())
                .build(packages, out, errors::add);
        assertThat(errors).isEmpty();
        BuiltShard built = report.shards().get(0);
        assertThat(built.symbolFailures()).isEmpty();
        assertThat(built.symbols().files())
                .as("the script, the rules and the C file go to ctags; the notes do not")
                .isEqualTo(3);

        Path folder = out.resolve("shard-0");
        Shard shard = Shard.open(folder);
        Symbols symbols = Symbols.open(folder);
        TreeSet<String> indexed = new TreeSet<>();
        for (int doc = 0; doc < shard.docs().docCount(); doc++) {
            for (int s = symbols.firstOfDoc(doc); s < symbols.endOfDoc(doc); s++) {
                indexed.add(shard.docs().path(doc) + " " + symbols.name(symbols.nameId(s)) + " " + symbols.kind(s) + " "
                        + symbols.line(s) + " " + symbols.language(s) + " " + symbols.scope(s));
            }
        }

        TreeSet<String> onDisk =
                CtagsGroundTruthTest.ctagsOnDisk(pkg, List.of("tools/mkdist", "debian/rules", "NOTES", "src/greet.c"));
        assertThat(onDisk)
                .contains(
                        "tools/mkdist make_tarball function 3 Sh ", "debian/rules override_dh_auto_test target 7 Make ")
                .noneMatch(t -> t.startsWith("NOTES "));
        assertThat(indexed).isEqualTo(onDisk);
    }

    /** An executable file, as scripts are on disk: ctags reads the {@code #!} line of no other. */
    private static void write(Path file, String content) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
