package io.trigrep.indexer.corpus;

import static io.trigrep.indexer.corpus.GitFixture.file;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.IndexUpdater;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A repository whose branches moved is re-read only at the paths that changed, and the index then
 * equals, file for file and branch for branch, the trees of the new commits: after a modify, an
 * add, a delete and a rename, a deleted branch, a force-push, a pure deletion, a merge and a
 * removal.
 */
@Tag("integration") // runs git
class GitUpdateTest {
    @TempDir
    Path dir;

    private final IndexBuilder.Options options =
            IndexBuilder.Options.defaults(2).withSymbols(SymbolChoice.none("test"));
    private final IndexUpdater updater = new IndexUpdater(options, Clock.systemUTC());
    private final List<String> errors = new ArrayList<>();

    private static Map<String, GitFixture.Entry> mainTree() {
        Map<String, GitFixture.Entry> t = GitPackageTest.mainTree();
        for (char c = 'a'; c <= 'l'; c++) {
            t.put("src/" + c + ".c", file("int " + c + "_function(void) { return '" + c + "'; }\n"));
        }
        return t;
    }

    private static Map<String, GitFixture.Entry> devTree() {
        Map<String, GitFixture.Entry> t = mainTree();
        t.put("src/util.c", file("int util(void) { return 2; }\n"));
        t.put("dev-only.txt", file("only on dev\n"));
        return t;
    }

    /** A fresh index of {@code repo} at {@code branches} in {@code out}. */
    private void build(GitFixture repo, String branches, Path out) throws Exception {
        new IndexBuilder(options, Clock.systemUTC())
                .build(
                        Corpus.discoverInputs(List.of(repo.folder() + "@" + branches), dir, null, errors::add),
                        out,
                        errors::add);
    }

    private IndexUpdater.Result update(GitFixture repo, String branches) throws Exception {
        IndexUpdater.Result r = updater.update(
                dir.resolve("index"),
                Corpus.discoverInputs(List.of(repo.folder() + "@" + branches), dir, null, errors::add),
                List.of(),
                false,
                errors::add);
        assertThat(errors).isEmpty();
        return r;
    }

    /** The index holds exactly the files of {@code commits} (branch to commit), at those commits. */
    private void assertIndexHolds(GitFixture repo, Map<String, String> commits) throws Exception {
        Path index = dir.resolve("index");
        assertThat(GitPackageTest.indexed(index)).isEqualTo(GitPackageTest.truth(repo, "proj", commits));
        assertThat(GitPackageTest.refsOf(index, "proj")).isEqualTo(commits);
        assertThat(IndexUpdater.repositories(index).get("proj").branches())
                .extracting(b -> b.name() + "@" + b.commit())
                .containsExactlyInAnyOrderElementsOf(commits.entrySet().stream()
                        .map(e -> e.getKey() + "@" + e.getValue())
                        .toList());
    }

    /** Files of {@code commits} at {@code paths}: what a re-read of those paths indexes. */
    private static long filesAt(GitFixture repo, Map<String, String> commits, Set<String> paths) throws Exception {
        return GitPackageTest.truth(repo, "proj", commits).keySet().stream()
                .filter(k -> paths.contains(k.substring("proj/".length(), k.indexOf('\0'))))
                .count();
    }

    @Test
    void aMovedRepositoryIsReReadOnlyAtItsChangedPaths() throws Exception {
        Path index = dir.resolve("index");
        try (GitFixture repo = GitFixture.bare(dir.resolve("proj.git"))) {
            Map<String, String> commits = new TreeMap<>();
            commits.put("main", repo.commit("main", mainTree()));
            commits.put("dev", repo.commit("dev", devTree()));
            Map<String, GitFixture.Entry> goneTree = mainTree();
            goneTree.put("gone-only.txt", file("only on gone\n"));
            commits.put("gone", repo.commit("gone", goneTree));
            repo.headAt("main");
            build(repo, "main,dev,gone", index);
            assertThat(errors).isEmpty();
            assertIndexHolds(repo, commits);
            int total = GitPackageTest.truth(repo, "proj", commits).size();

            // main: a file modified, one added, one deleted (still on the other branches), one renamed.
            Map<String, GitFixture.Entry> next = mainTree();
            next.put("src/util.c", file("int util(void) { return 5; }\n"));
            next.put("src/added.c", file("int added(void);\n"));
            next.remove("README");
            next.put("src/b2.c", next.remove("src/b.c"));
            commits.put("main", repo.commit("main", next));
            IndexUpdater.Result r = update(repo, "main,dev,gone");
            Set<String> changed = Set.of("src/util.c", "src/added.c", "README", "src/b.c", "src/b2.c");
            assertThat(r.moved()).isEqualTo(Map.of("proj", changed.size()));
            assertThat(r.stats().files())
                    .as("files re-read")
                    .isEqualTo(filesAt(repo, commits, changed))
                    .isLessThan(total / 2);
            assertIndexHolds(repo, commits);

            // A deleted branch: the paths of its tree are re-read, with the branches left.
            repo.deleteBranch("gone");
            commits.remove("gone");
            r = update(repo, "main,dev");
            assertThat(r.moved()).containsKey("proj");
            assertIndexHolds(repo, commits);

            // A force-push: the new commit is no descendant of the old one; still a tree diff.
            Map<String, GitFixture.Entry> rewritten = devTree();
            rewritten.put("src/c.c", file("int c_rewritten(void);\n"));
            commits.put("dev", repo.forcePush("dev", rewritten));
            r = update(repo, "main,dev");
            assertThat(r.moved()).isEqualTo(Map.of("proj", 1));
            assertThat(r.stats().files()).isEqualTo(filesAt(repo, commits, Set.of("src/c.c")));
            assertIndexHolds(repo, commits);

            // A commit that only deletes a file no other branch holds: nothing to read, one file gone.
            next.remove("src/added.c");
            commits.put("main", repo.commit("main", next));
            r = update(repo, "main,dev");
            assertThat(r.moved()).isEqualTo(Map.of("proj", 1));
            assertThat(r.stats().files()).isZero();
            assertIndexHolds(repo, commits);

            // Nothing moved: nothing read, no new generation.
            long before = IndexFolder.current(index).number();
            r = update(repo, "main,dev");
            assertThat(r.unchanged()).containsExactly("proj");
            assertThat(IndexFolder.current(index).number()).isEqualTo(before);

            // The skipped counts are those of a fresh build of the same commits.
            Path fresh = dir.resolve("fresh");
            build(repo, "main,dev", fresh);
            assertThat(skipped(index)).isEqualTo(skipped(fresh));
            assertThat(GitPackageTest.indexed(fresh)).isEqualTo(GitPackageTest.indexed(index));

            // A merge carries the masks of segments written at other branch lists by name.
            updater.merge(index, true, errors::add);
            assertThat(errors).isEmpty();
            assertIndexHolds(repo, commits);

            // A deleted repository.
            updater.update(index, List.of(), List.of("proj"), false, errors::add);
            assertThat(GitPackageTest.indexed(index)).isEmpty();
            assertThat(IndexFolder.current(index).packages()).isEmpty();
        }
    }

    /** The package's skipped counts and every shard's, as "reason files bytes". */
    private static List<String> skipped(Path index) throws Exception {
        Generation g = IndexFolder.current(index);
        TreeSet<String> shards = new TreeSet<>();
        long[] files = new long[1];
        for (Generation.ShardEntry s : g.shards()) {
            s.skipped().forEach((reason, c) -> {
                if (c.files() > 0) {
                    shards.add(reason);
                    files[0] += c.files();
                }
            });
        }
        List<String> out = new ArrayList<>();
        for (Generation.PackageEntry p : g.packages()) {
            p.skipped().forEach((reason, c) -> out.add(p.name() + " " + reason + " " + c.files() + " " + c.bytes()));
        }
        out.add("shards " + shards + " " + files[0]);
        return out;
    }

    /**
     * A path whose bytes are not UTF-8 ({@code caf\xe9.txt}) is re-read when it changes, and kept
     * when a branch beside it goes: the re-read matches paths as the walk decodes them.
     */
    @Test
    void aPathThatIsNotUtf8IsReReadNotDropped() throws Exception {
        Path index = dir.resolve("index");
        try (GitFixture repo = GitFixture.bare(dir.resolve("proj.git"))) {
            Map<String, GitFixture.Entry> tree = mainTree();
            tree.put("caf\uDCE9.txt", file("version one\n"));
            tree.put("d\uDCE9j\uDCE0/vu.c", file("int vu;\n"));
            tree.put("\u00e9t\u00e9/caf\uDCE9.txt", file("in a UTF-8 folder\n"));
            Map<String, String> commits = new TreeMap<>();
            commits.put("main", repo.commit("main", tree));
            commits.put("dev", repo.commit("dev", devTree()));
            repo.headAt("main");
            build(repo, "main,dev", index);
            assertThat(errors).isEmpty();
            assertIndexHolds(repo, commits);

            tree.put("caf\uDCE9.txt", file("version two\n"));
            tree.put("d\uDCE9j\uDCE0/vu.c", file("int vu = 2;\n"));
            tree.put("\u00e9t\u00e9/caf\uDCE9.txt", file("in a UTF-8 folder, two\n"));
            commits.put("main", repo.commit("main", tree));
            assertThat(update(repo, "main,dev").moved()).isEqualTo(Map.of("proj", 3));
            assertIndexHolds(repo, commits);

            repo.deleteBranch("dev");
            commits.remove("dev");
            update(repo, "main");
            assertIndexHolds(repo, commits);
        }
    }
}
