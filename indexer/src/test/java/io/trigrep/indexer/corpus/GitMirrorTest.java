package io.trigrep.indexer.corpus;

import static io.trigrep.indexer.corpus.GitFixture.file;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trigrep.indexer.files.FileTrees;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.eclipse.jgit.lib.ConfigConstants;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.StoredConfig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Mirrors of remotes: cloned once, fetched after, and kept to a few packs however often they are fetched. */
@Tag("integration") // real repositories, fetched over JGit's local transport
class GitMirrorTest {
    @TempDir
    Path dir;

    @Test
    void aMirrorFetchedOftenIsRepackedBeforeTheFetchReturns() throws Exception {
        try (GitFixture remote = GitFixture.bare(dir.resolve("remote.git"))) {
            String url = urlOfMain(remote);
            List<String> warnings = new ArrayList<>();
            GitMirror mirrors = new GitMirror(dir.resolve("cache"), null, 60, warnings::add);
            Path mirror = mirrors.update(url);
            // Repacked past three packs, as git gc --auto is past fifty.
            try (Repository repo = GitPackage.openRepository(mirror)) {
                StoredConfig config = repo.getConfig();
                config.setInt(ConfigConstants.CONFIG_GC_SECTION, null, ConfigConstants.CONFIG_KEY_AUTOPACKLIMIT, 3);
                config.save();
            }
            for (int i = 1; i <= 8; i++) {
                String commit = remote.commit("main", Map.of("a.c", file("int a" + i + ";\n")));
                assertThat(mirrors.update(url)).isEqualTo(mirror);
                assertThat(packs(mirror)).as("fetch %d: the mirror's packs", i).hasSizeLessThanOrEqualTo(4);
                try (Repository repo = GitPackage.openRepository(mirror)) {
                    assertThat(repo.exactRef("refs/heads/main").getObjectId().name())
                            .isEqualTo(commit);
                }
            }
            assertThat(packs(mirror)).as("no temporary pack left behind").allMatch(p -> p.endsWith(".pack"));
            assertThat(warnings).isEmpty();
        }
    }

    @Test
    void aLocalRemoteThatIsGoneIsNamedSo() throws Exception {
        Path gone = dir.resolve("remote.git");
        String url;
        try (GitFixture remote = GitFixture.bare(gone)) {
            url = urlOfMain(remote);
        }
        GitMirror mirrors = new GitMirror(dir.resolve("cache"), null, 60, w -> {});
        mirrors.update(url);
        FileTrees.delete(gone);
        assertThatThrownBy(() -> mirrors.update(url))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("cannot mirror: no repository at " + gone);
    }

    @Test
    void aMirrorFollowsTheBranchTheRemotesHeadNames() throws Exception {
        try (GitFixture remote = GitFixture.bare(dir.resolve("remote.git"))) {
            String url = urlOfMain(remote);
            GitMirror mirrors = new GitMirror(dir.resolve("cache"), null, 60, w -> {});
            Path mirror = mirrors.update(url);
            String trunk = remote.commit("trunk", Map.of("a.c", file("int trunk;\n")));
            remote.headAt("trunk");
            remote.deleteBranch("main");
            mirrors.update(url);
            try (Repository repo = GitPackage.openRepository(mirror)) {
                assertThat(repo.exactRef("HEAD").getTarget().getName()).isEqualTo("refs/heads/trunk");
                assertThat(repo.resolve("HEAD").name()).isEqualTo(trunk);
            }
        }
    }

    @Test
    void aCloneAKilledProcessLeftIsClearedAndOneInProgressKept() throws Exception {
        Path cache = dir.resolve("cache");
        Files.createDirectories(cache.resolve(".clone-old/objects"));
        Files.createDirectories(cache.resolve(".clone-dead/objects"));
        Files.createFile(cache.resolve(".clone-dead.lock"));
        Files.createDirectories(cache.resolve(".clone-live/objects"));
        try (GitFixture remote = GitFixture.bare(dir.resolve("remote.git"));
                FileChannel live = FileChannel.open(
                        cache.resolve(".clone-live.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            live.lock();
            String url = urlOfMain(remote);
            Path mirror = new GitMirror(cache, null, 60, w -> {}).update(url);
            try (Stream<Path> files = Files.list(cache)) {
                assertThat(files.map(p -> p.getFileName().toString()))
                        .containsExactlyInAnyOrder(mirror.getFileName().toString(), ".clone-live", ".clone-live.lock");
            }
        }
    }

    /** Gives {@code remote} a first commit on main, its HEAD; its URL. */
    private static String urlOfMain(GitFixture remote) throws Exception {
        remote.commit("main", Map.of("a.c", file("int a;\n")));
        remote.headAt("main");
        return remote.folder().toUri().toString();
    }

    /** The mirror's pack files, and any temporary pack a collection left. */
    private static List<String> packs(Path mirror) throws Exception {
        try (Stream<Path> files = Files.list(mirror.resolve("objects/pack"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".pack") || n.endsWith("_tmp"))
                    .sorted()
                    .toList();
        }
    }
}
