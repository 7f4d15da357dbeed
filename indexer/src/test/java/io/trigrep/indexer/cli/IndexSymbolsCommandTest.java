package io.trigrep.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.ShardFiles;
import io.trigrep.indexer.symbols.Symbols;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 18: an index built without ctags (or with --no-symbols) is built all the same and says why it has no symbols. */
class IndexSymbolsCommandTest {
    @Test
    void withoutCtagsTheIndexIsBuiltAndSaysWhy(@TempDir Path out) throws Exception {
        IndexCommandTest.Run r = IndexCommandTest.run(
                "--shards",
                "2",
                "--out",
                out.toString(),
                "--ctags",
                out.resolve("no-ctags").toString(),
                IndexCommandTest.CORPUS.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).contains("note: building without symbols (sym: search will say so): ctags not found");
        for (String shard : new String[] {"shard-0", "shard-1"}) {
            Path folder = out.resolve(shard);
            assertThat(folder.resolve(ShardFiles.SYMBOLS)).doesNotExist();
            assertThat(Manifest.read(folder.resolve(ShardFiles.MANIFEST)).symbolsAbsent())
                    .startsWith("built without ctags: ctags not found");
            Symbols symbols = Symbols.open(folder);
            assertThat(symbols.present()).isFalse();
            assertThat(symbols.absentReason()).contains("install universal-ctags");
        }
    }

    @Test
    void noSymbolsIsRecorded(@TempDir Path out) throws Exception {
        IndexCommandTest.Run r =
                IndexCommandTest.run("--out", out.toString(), "--no-symbols", IndexCommandTest.CORPUS.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).doesNotContain("symbols ");
        assertThat(Symbols.open(out.resolve("shard-0")).absentReason()).isEqualTo("built with --no-symbols");
    }

    @Test
    @Tag("external") // drives ctags
    void withCtagsEveryShardHasSymbolsAndTheSummaryCountsThem(@TempDir Path out) throws Exception {
        Path corpus = Path.of("../source-backend/src/test/resources/corpus");
        IndexCommandTest.Run r =
                IndexCommandTest.run("--shards", "2", "--out", out.toString(), "--verify", corpus.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).containsPattern("symbols +[1-9][0-9,]* definitions from [1-9][0-9,]* files");
        long total = 0;
        for (String shard : new String[] {"shard-0", "shard-1"}) {
            assertThat(Manifest.read(out.resolve(shard).resolve(ShardFiles.MANIFEST))
                            .symbolsAbsent())
                    .isNull();
            Symbols symbols = Symbols.open(out.resolve(shard));
            assertThat(symbols.present()).isTrue();
            total += symbols.symbolCount();
        }
        assertThat(r.out()).contains(String.format("symbols    %,d definitions", total));
        assertThat(Files.exists(out.resolve("shard-0").resolve(ShardFiles.SYMBOLS)))
                .isTrue();
    }
}
