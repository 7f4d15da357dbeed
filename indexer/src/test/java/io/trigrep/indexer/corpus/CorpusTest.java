package io.trigrep.indexer.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Inputs say what they are: a package is one package, a mirror is many, anything else is refused. */
class CorpusTest {
    @TempDir
    Path dir;

    private static void write(Path file, String text) throws Exception {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private List<String> names(List<String> errors, String... inputs) {
        return Corpus.discoverInputs(List.of(inputs), dir, null, errors::add).stream()
                .map(PackageSource::name)
                .toList();
    }

    @Test
    void aFolderNamedNameVersionIsOnePackage() throws Exception {
        Path lua = dir.resolve("lua5.4_5.4.4-3");
        write(lua.resolve("doc/manual.html"), "x\n");
        write(lua.resolve("src/lua.c"), "x\n");
        List<String> errors = new ArrayList<>();
        assertThat(names(errors, lua + "/")).containsExactly("lua5.4_5.4.4-3");
        assertThat(errors).isEmpty();
    }

    @Test
    void aFolderWithDebianAtItsRootIsOnePackage() throws Exception {
        Path zlib = dir.resolve("zlib");
        write(zlib.resolve("debian/control"), "Source: zlib\n");
        write(zlib.resolve("zlib.h"), "x\n");
        List<String> errors = new ArrayList<>();
        assertThat(names(errors, zlib.toString())).containsExactly("zlib");
        assertThat(errors).isEmpty();
    }

    @Test
    void aGitWorkTreeIsOnePackage() throws Exception {
        Path repo = dir.resolve("proj");
        Files.createDirectories(repo.resolve(".git"));
        write(repo.resolve(".git/HEAD"), "ref: refs/heads/main\n");
        write(repo.resolve("src/a.c"), "x\n");
        assertThat(Corpus.kind(repo)).isEqualTo(Corpus.FolderKind.GIT);
    }

    @Test
    void aMirrorIsAFolderOfPackages() throws Exception {
        Path mirror = dir.resolve("mirror");
        write(mirror.resolve("alpha_1.0/a.c"), "x\n");
        write(mirror.resolve("beta/b.c"), "x\n");
        List<String> errors = new ArrayList<>();
        assertThat(names(errors, mirror.toString())).containsExactly("alpha_1.0", "beta");
        assertThat(errors).isEmpty();
    }

    @Test
    void aMirrorMayHoldANoticeBesideItsPackages() throws Exception {
        Path mirror = dir.resolve("mirror");
        write(mirror.resolve("NOTICE"), "where these come from\n");
        write(mirror.resolve("alpha_1.0/a.c"), "x\n");
        write(mirror.resolve("zlib/debian/control"), "Source: zlib\n");
        List<String> errors = new ArrayList<>();
        assertThat(names(errors, mirror.toString())).containsExactly("alpha_1.0", "zlib");
        assertThat(errors).isEmpty();
    }

    @Test
    void anAmbiguousFolderIsRefusedSayingHowToWriteIt() throws Exception {
        Path proj = dir.resolve("proj");
        write(proj.resolve("Makefile"), "all:\n");
        write(proj.resolve("src/a.c"), "x\n");
        List<String> errors = new ArrayList<>();
        assertThat(names(errors, proj.toString())).isEmpty();
        assertThat(errors).hasSize(1);
        assertThat(errors.get(0)).contains("Makefile").contains("proj=" + proj);

        errors.clear();
        assertThat(names(errors, "proj=" + proj)).containsExactly("proj");
        assertThat(errors).isEmpty();
    }
}
