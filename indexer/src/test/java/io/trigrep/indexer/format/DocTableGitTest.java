package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs.tgd version 2: branch masks and repository records, byte for byte as FORMAT.md shows them. */
class DocTableGitTest {
    @TempDir
    Path dir;

    private static final String COMMIT = "0b1f000000000000000000000000000000000001";

    @Test
    void aRepositoryRoundTripsWithTheDocumentedTail() throws Exception {
        Path file = dir.resolve("docs.tgd");
        try (DocTableWriter w = new DocTableWriter(file, true)) {
            w.addDoc(16, 3, "a.c".getBytes(StandardCharsets.UTF_8), 0, 1f, 0, 1, 1L);
            w.addPackage("r", 1f, 1, new GitRefs(List.of(new GitRefs.Branch("main", COMMIT)), ""));
            w.finish();
        }
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.getInt(8)).as("version").isEqualTo(2);
        int directory = bytes.length - 16 - 72;
        // mask, repo record, branch record just before the directory
        assertThat(b.getLong(directory - 16 - 16 - 8)).isEqualTo(1L);
        assertThat(List.of(
                        b.getInt(directory - 32),
                        b.getInt(directory - 28),
                        b.getInt(directory - 24),
                        b.getInt(directory - 20)))
                .containsExactly(0, 1, 4, 0);
        assertThat(List.of(
                        b.getInt(directory - 16),
                        b.getInt(directory - 12),
                        b.getInt(directory - 8),
                        b.getInt(directory - 4)))
                .containsExactly(4, 4, 8, 40);
        try (DocTable t = DocTable.open(file)) {
            assertThat(t.branches(0)).isEqualTo(1L);
            assertThat(t.refs(0).branches()).containsExactly(new GitRefs.Branch("main", COMMIT));
            assertThat(t.find("r", "a.c", "main")).isZero();
            assertThat(t.find("r", "a.c", "dev")).isEqualTo(-1);
            t.verifyChecksum();
        }
    }

    @Test
    void versionOneStaysVersionOneWithNoBranches() throws Exception {
        Path file = dir.resolve("docs.tgd");
        try (DocTableWriter w = new DocTableWriter(file)) {
            w.addDoc(16, 3, "a.c".getBytes(StandardCharsets.UTF_8), 0, 1f, 0, 1);
            w.addPackage("p", 1f, 1);
            w.finish();
        }
        assertThat(ByteBuffer.wrap(Files.readAllBytes(file))
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getInt(8))
                .isEqualTo(1);
        try (DocTable t = DocTable.open(file)) {
            assertThat(t.branches(0)).isZero();
            assertThat(t.refs(0)).isEqualTo(GitRefs.NONE);
        }
    }

    @Test
    void aNewerVersionIsRefusedByName() throws Exception {
        Path file = dir.resolve("docs.tgd");
        try (DocTableWriter w = new DocTableWriter(file)) {
            w.addPackage("p", 1f, 0);
            w.finish();
        }
        byte[] bytes = Files.readAllBytes(file);
        bytes[8] = 3;
        Files.write(file, bytes);
        assertThatThrownBy(() -> DocTable.open(file))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("docs.tgd")
                .hasMessageContaining("format version 3");
    }

    @Test
    void aMaskWithoutVersionTwoIsRefused() throws Exception {
        try (DocTableWriter w = new DocTableWriter(dir.resolve("docs.tgd"))) {
            assertThatThrownBy(() -> w.addDoc(16, 3, new byte[] {'a'}, 0, 1f, 0, 1, 2L))
                    .isInstanceOf(IllegalStateException.class);
        }
    }
}
