package io.trigrep.indexer.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.format.ShardFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tiny fixed corpus must produce byte-exact, committed shard files. A format change must update
 * them on purpose: run with {@code -Dtrigrep.golden.update=true} and commit the new files.
 */
class GoldenShardTest {
    static final Path CORPUS = Path.of("src/test/resources/golden/corpus");
    static final Path EXPECTED = Path.of("src/test/resources/golden/shards");
    static final List<String> FILES = List.of(ShardFiles.TRIGRAMS, ShardFiles.DOCS, ShardFiles.CONTENTS);

    @Test
    void tinyCorpusGivesTheCommittedBytes(@TempDir Path out) throws Exception {
        List<String> errors = new ArrayList<>();
        var packages = Corpus.discover(List.of(CORPUS), out, errors::add);
        new IndexBuilder(IndexBuilder.Options.defaults(2), Clock.systemUTC()).build(packages, out, errors::add);
        assertThat(errors).isEmpty();
        boolean update = Boolean.getBoolean("trigrep.golden.update");
        for (int shard = 0; shard < 2; shard++) {
            for (String file : FILES) {
                Path actual = out.resolve("shard-" + shard).resolve(file);
                Path expected = EXPECTED.resolve("shard-" + shard).resolve(file);
                if (update) {
                    Files.createDirectories(expected.getParent());
                    Files.copy(actual, expected, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
                assertThat(Files.readAllBytes(actual))
                        .as("shard-%d/%s differs from the committed golden file", shard, file)
                        .isEqualTo(Files.readAllBytes(expected));
            }
        }
    }
}
