package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A shard folder opened whole: its parts, a doc's bytes, counts that must agree, and messages without server paths. */
class ShardTest {
    @TempDir
    Path dir;

    Path folder;

    @BeforeEach
    void copyGoldenShard() throws Exception {
        folder = dir.resolve("shard-1");
        Files.createDirectories(folder);
        for (String f : List.of(ShardFiles.TRIGRAMS, ShardFiles.DOCS, ShardFiles.CONTENTS)) {
            Files.copy(
                    CorruptionTest.GOLDEN.resolveSibling("shard-1").resolve(f),
                    folder.resolve(f),
                    StandardCopyOption.REPLACE_EXISTING);
        }
        writeManifest(DocTable.open(folder.resolve(ShardFiles.DOCS)).docCount());
    }

    private void writeManifest(int docs) throws Exception {
        Files.writeString(
                folder.resolve(ShardFiles.MANIFEST), new Manifest("shard-1", docs, 0, 0, 0, 0, 0, 0, 0).toJson());
    }

    @Test
    void theOpenedPartsAreTheFolderFiles() throws Exception {
        Shard shard = Shard.open(folder);
        shard.verify();
        assertThat(shard.folder()).isEqualTo(folder);
        assertThat(shard.manifest().shard()).isEqualTo("shard-1");
        assertThat(shard.index().path()).isEqualTo(folder.resolve(ShardFiles.TRIGRAMS));
        assertThat(shard.docs().path()).isEqualTo(folder.resolve(ShardFiles.DOCS));
        assertThat(shard.contents().size()).isEqualTo(Files.size(folder.resolve(ShardFiles.CONTENTS)));
        DocTable docs = shard.docs();
        assertThat(docs.docCount()).isPositive();
        byte[] all = Files.readAllBytes(folder.resolve(ShardFiles.CONTENTS));
        for (int doc = 0; doc < docs.docCount(); doc++) {
            ByteBuffer content = shard.content(doc);
            assertThat(content).isEqualTo(ByteBuffer.wrap(all, (int) docs.contentOffset(doc), docs.contentLength(doc)));
        }
    }

    @Test
    void docCountsThatDisagreeAreRefused() throws Exception {
        int docs = DocTable.open(folder.resolve(ShardFiles.DOCS)).docCount();
        writeManifest(docs + 1);
        assertThatThrownBy(() -> Shard.open(folder)).isInstanceOfSatisfying(CorruptIndexException.class, e -> {
            assertThat(e.file()).isEqualTo(folder.resolve(ShardFiles.TRIGRAMS));
            assertThat(e.offset()).isZero();
            assertThat(e.problem())
                    .isEqualTo("index counts " + docs + " docs, doc table " + docs + ", manifest " + (docs + 1));
        });
        writeManifest(docs);
        Files.copy(
                CorruptionTest.GOLDEN.resolve(ShardFiles.TRIGRAMS),
                folder.resolve(ShardFiles.TRIGRAMS),
                StandardCopyOption.REPLACE_EXISTING);
        int other = TrigramIndex.open(folder.resolve(ShardFiles.TRIGRAMS)).docCount();
        assertThat(other).isNotEqualTo(docs);
        assertThatThrownBy(() -> Shard.open(folder))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageEndingWith("index counts " + other + " docs, doc table " + docs + ", manifest " + docs);
    }

    @Test
    void withoutPathsNamesTheShardInsteadOfItsFolder() throws Exception {
        // named through a detour: not the normalized absolute path, so each spelling is replaced on its own
        Shard relative = Shard.open(folder.getParent().resolve("./shard-1"));
        Shard absolute = Shard.open(folder);
        String folderText = folder.toAbsolutePath().normalize().toString();
        String message = folderText + "/docs.tgd at offset 5: bad";
        assertThat(absolute.withoutPaths(message)).isEqualTo("shard-1/docs.tgd at offset 5: bad");
        assertThat(relative.withoutPaths(message)).isEqualTo("shard-1/docs.tgd at offset 5: bad");
        assertThat(relative.withoutPaths(relative.folder() + "/contents.tgc: gone"))
                .isEqualTo("shard-1/contents.tgc: gone");
        assertThat(absolute.withoutPaths("no path here")).isEqualTo("no path here");
    }
}
