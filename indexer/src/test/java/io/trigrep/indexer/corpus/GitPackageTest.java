package io.trigrep.indexer.corpus;

import static io.trigrep.indexer.corpus.GitFixture.bytes;
import static io.trigrep.indexer.corpus.GitFixture.file;
import static io.trigrep.indexer.corpus.GitFixture.link;
import static io.trigrep.indexer.corpus.GitFixture.submodule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.IndexUpdater;
import io.trigrep.indexer.files.FileTrees;
import io.trigrep.indexer.filter.SkipReason;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.indexer.segments.LiveShard;
import io.trigrep.indexer.segments.Segment;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A git repository indexed at several branches equals, file for file and branch for branch, its trees. */
class GitPackageTest {
    @TempDir
    Path dir;

    static Map<String, GitFixture.Entry> mainTree() {
        Map<String, GitFixture.Entry> t = new LinkedHashMap<>();
        t.put("README", file("a readme\n"));
        t.put("src/util.c", file("int util(void) { return 1; }\n"));
        t.put("old/name.c", file("int renamed_function(void);\n"));
        t.put("data.bin", bytes(new byte[] {1, 0, 2, 0, 3}));
        t.put("link", link("README"));
        t.put("vendor/lib", submodule("0123456789abcdef0123456789abcdef01234567"));
        return t;
    }

    static Map<String, GitFixture.Entry> devTree() {
        Map<String, GitFixture.Entry> t = mainTree();
        t.put("src/util.c", file("int util(void) { return 2; }\n"));
        t.remove("old/name.c");
        t.put("new/name.c", file("int renamed_function(void);\n"));
        t.put("dev-only.txt", file("only on dev\n"));
        return t;
    }

    /** What the indexed commits hold, by brute force: "package/path\0content" to its branches. */
    static Map<String, TreeSet<String>> truth(GitFixture repo, String pkg, Map<String, String> branchCommits)
            throws Exception {
        Map<String, TreeSet<String>> out = new TreeMap<>();
        for (Map.Entry<String, String> b : branchCommits.entrySet()) {
            for (Map.Entry<String, byte[]> f : repo.files(b.getValue()).entrySet()) {
                if (indexOf(f.getValue(), (byte) 0) >= 0) {
                    continue; // binary: left out
                }
                out.computeIfAbsent(
                                pkg + "/" + f.getKey() + "\0" + new String(f.getValue(), StandardCharsets.UTF_8),
                                x -> new TreeSet<>())
                        .add(b.getKey());
            }
        }
        return out;
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** What the index holds: every live file as "package/path\0content" to its branches, each once. */
    static Map<String, TreeSet<String>> indexed(Path index) throws Exception {
        Map<String, TreeSet<String>> out = new TreeMap<>();
        for (Generation.ShardEntry s : IndexFolder.current(index).shards()) {
            try (LiveShard live = LiveShard.open(index.resolve(s.name()))) {
                for (Segment seg : live.segments()) {
                    DocTable docs = seg.shard().docs();
                    for (int d = 0; d < docs.docCount(); d++) {
                        if (!seg.live(d)) {
                            continue;
                        }
                        ByteBuffer content = seg.shard().content(d);
                        byte[] bytes = new byte[content.remaining()];
                        content.get(bytes);
                        int pkg = docs.packageId(d);
                        String key = docs.packageName(pkg) + "/" + docs.path(d) + "\0"
                                + new String(bytes, StandardCharsets.UTF_8);
                        TreeSet<String> previous =
                                out.put(key, new TreeSet<>(seg.refs(pkg).names(docs.branches(d))));
                        assertThat(previous).as("%s stored once", key).isNull();
                    }
                }
            }
        }
        return out;
    }

    /** The commit each branch of {@code pkg} is reported at, from every live file that branch holds. */
    static Map<String, String> refsOf(Path index, String pkg) throws Exception {
        Map<String, String> out = new TreeMap<>();
        for (Generation.ShardEntry s : IndexFolder.current(index).shards()) {
            try (LiveShard live = LiveShard.open(index.resolve(s.name()))) {
                for (Segment seg : live.segments()) {
                    DocTable docs = seg.shard().docs();
                    for (int d = 0; d < docs.docCount(); d++) {
                        int p = docs.packageId(d);
                        if (seg.live(d) && docs.packageName(p).equals(pkg)) {
                            GitRefs refs = seg.refs(p);
                            for (String name : refs.names(docs.branches(d))) {
                                String was = out.put(name, refs.commit(name));
                                assertThat(was).as("%s at one commit", name).isIn(null, refs.commit(name));
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    @Test
    void twoBranchesAreIndexedOnceEachFileWithItsBranches() throws Exception {
        Path index = dir.resolve("index");
        try (GitFixture repo = GitFixture.bare(dir.resolve("proj.git"))) {
            String main = repo.commit("main", mainTree());
            String dev = repo.commit("dev", devTree());
            repo.headAt("main");
            List<String> errors = new ArrayList<>();
            List<PackageSource> sources =
                    Corpus.discoverInputs(List.of(repo.folder() + "@main,dev"), dir, null, errors::add);
            assertThat(errors).isEmpty();
            assertThat(sources).extracting(PackageSource::name).containsExactly("proj");
            IndexBuilder.Report report = new IndexBuilder(
                            IndexBuilder.Options.defaults(2)
                                    .withSymbols(io.trigrep.indexer.build.SymbolChoice.none("test")),
                            Clock.systemUTC())
                    .build(sources, index, errors::add);
            assertThat(errors).isEmpty();

            Map<String, String> commits = new TreeMap<>(Map.of("main", main, "dev", dev));
            Map<String, TreeSet<String>> expected = truth(repo, "proj", commits);
            assertThat(indexed(index)).isEqualTo(expected);
            // README is the same blob on both branches: one file, two branches.
            assertThat(expected.get("proj/README\0a readme\n")).containsExactly("dev", "main");
            assertThat(refsOf(index, "proj")).isEqualTo(commits);
            // The binary file once, the link once, the submodule entry once (as vcs).
            assertThat(report.stats().skippedFiles(io.trigrep.indexer.filter.SkipReason.BINARY))
                    .isEqualTo(1);
            assertThat(report.stats().skippedFiles(io.trigrep.indexer.filter.SkipReason.SYMLINK))
                    .isEqualTo(1);
            assertThat(report.stats().skippedFiles(io.trigrep.indexer.filter.SkipReason.VCS))
                    .isEqualTo(1);

            // A full merge re-indexes from the contents: the branch masks survive it.
            new IndexUpdater(
                            IndexBuilder.Options.defaults(2)
                                    .withSymbols(io.trigrep.indexer.build.SymbolChoice.none("test")),
                            Clock.systemUTC())
                    .merge(index, true, errors::add);
            assertThat(errors).isEmpty();
            assertThat(indexed(index)).isEqualTo(expected);
        }
    }

    @Test
    void reIndexingIsKeyedByCommit() throws Exception {
        Path index = dir.resolve("index");
        Path other = dir.resolve("mirror/other_1.0/o.c");
        java.nio.file.Files.createDirectories(other.getParent());
        java.nio.file.Files.writeString(other, "int other;\n");
        IndexBuilder.Options options =
                IndexBuilder.Options.defaults(1).withSymbols(io.trigrep.indexer.build.SymbolChoice.none("test"));
        IndexUpdater updater = new IndexUpdater(options, Clock.systemUTC());
        try (GitFixture repo = GitFixture.bare(dir.resolve("proj.git"))) {
            repo.commit("main", mainTree());
            String input = repo.folder() + "@main";
            List<String> errors = new ArrayList<>();
            List<PackageSource> all = new ArrayList<>(
                    Corpus.discoverInputs(List.of(input, dir.resolve("mirror").toString()), dir, null, errors::add));
            new IndexBuilder(options, Clock.systemUTC()).build(all, index, errors::add);
            long built = IndexFolder.current(index).number();

            IndexUpdater.Result same = updater.update(
                    index,
                    Corpus.discoverInputs(List.of(input), dir, null, errors::add),
                    List.of(),
                    false,
                    errors::add);
            assertThat(same.unchanged()).containsExactly("proj");
            assertThat(same.added()).isEmpty();
            assertThat(IndexFolder.current(index).number())
                    .as("no new generation")
                    .isEqualTo(built);

            Map<String, GitFixture.Entry> next = mainTree();
            next.put("src/util.c", file("int util(void) { return 5; }\n"));
            String moved = repo.commit("main", next);
            IndexUpdater.Result r = updater.update(
                    index,
                    Corpus.discoverInputs(List.of(input), dir, null, errors::add),
                    List.of(),
                    false,
                    errors::add);
            assertThat(errors).isEmpty();
            assertThat(r.added()).containsExactly("proj");
            assertThat(r.replaced()).containsExactly("proj");
            assertThat(refsOf(index, "proj")).containsEntry("main", moved);
            assertThat(r.moved()).containsEntry("proj", 1);
            // Only the changed path's file is replaced: nothing else of the first segment is deleted.
            Generation g = IndexFolder.current(index);
            assertThat(g.shards().get(0).segments().get(0).deleted()).isEqualTo(1);
            assertThat(indexed(index)).containsAllEntriesOf(truth(repo, "proj", Map.of("main", moved)));
            assertThat(indexed(index))
                    .hasSize(truth(repo, "proj", Map.of("main", moved)).size() + 1);
            assertThat(indexed(index)).containsKey("other_1.0/o.c\0int other;\n");
        }
    }

    @Test
    void aRepositoryWithoutBranchesNamedIsIndexedAtHead() throws Exception {
        Path index = dir.resolve("index");
        try (GitFixture repo = GitFixture.bare(dir.resolve("lib.git"))) {
            repo.commit("trunk", Map.of("x.c", file("int x;\n")));
            repo.headAt("trunk");
            List<String> errors = new ArrayList<>();
            List<PackageSource> sources =
                    Corpus.discoverInputs(List.of(repo.folder().toString()), dir, null, errors::add);
            assertThat(errors).isEmpty();
            assertThat(sources.get(0).refs().branches())
                    .extracting(GitRefs.Branch::name)
                    .containsExactly("trunk");
            assertThat(sources.get(0).name()).isEqualTo("lib");
        }
    }

    @Test
    void aLargeRepositorySpreadsOverEveryShard() throws Exception {
        Path index = dir.resolve("index");
        try (GitFixture repo = GitFixture.bare(dir.resolve("mono.git"))) {
            Map<String, GitFixture.Entry> tree = new LinkedHashMap<>();
            for (int f = 0; f < 48; f++) {
                StringBuilder text = new StringBuilder();
                for (int line = 0; text.length() < 100_000; line++) {
                    text.append("int f")
                            .append(f)
                            .append("_")
                            .append(line)
                            .append(" = ")
                            .append(line)
                            .append(";\n");
                }
                tree.put("dir" + (f % 6) + "/file" + f + ".c", file(text.toString()));
            }
            repo.commit("main", tree);
            List<String> errors = new ArrayList<>();
            new IndexBuilder(
                            IndexBuilder.Options.defaults(3)
                                    .withSymbols(io.trigrep.indexer.build.SymbolChoice.none("test")),
                            Clock.systemUTC())
                    .build(
                            Corpus.discoverInputs(List.of(repo.folder() + "@main"), dir, null, errors::add),
                            index,
                            errors::add);
            assertThat(errors).isEmpty();
            long total = 0;
            long[] bytes = new long[3];
            for (int k = 0; k < 3; k++) {
                bytes[k] = io.trigrep.indexer.format.Manifest.read(
                                index.resolve("shard-" + k).resolve(io.trigrep.indexer.format.ShardFiles.MANIFEST))
                        .contentBytes();
                total += bytes[k];
            }
            for (long b : bytes) {
                assertThat(b)
                        .as("each shard holds about a third of the repository")
                        .isBetween(total / 4, total / 2);
            }
            assertThat(indexed(index)).hasSize(48);
        }
    }

    /**
     * Reads share one open repository for a few seconds (JGit's cache): a repository deleted, or
     * replaced by another at the same path, in the meantime is read as it is on disk now.
     */
    @Test
    void aRepositoryReplacedOnDiskIsReadAsItIsNow() throws Exception {
        Path folder = dir.resolve("lib.git");
        try (GitFixture repo = GitFixture.bare(folder)) {
            repo.commit("main", Map.of("a.c", file("int a;\n")));
        }
        assertThat(contents(GitPackage.open(folder, List.of("main"), "", ""))).containsOnlyKeys("a.c");
        FileTrees.delete(folder);
        assertThatThrownBy(() -> GitPackage.open(folder, List.of("main"), "", ""))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("not a git repository");
        try (GitFixture repo = GitFixture.bare(folder)) {
            repo.commit("main", Map.of("b.c", file("int b;\n")));
        }
        GitPackage again = GitPackage.open(folder, List.of("main"), "", "");
        assertThat(contents(again)).containsExactly(Map.entry("b.c", "int b;\n"));
    }

    /** Each file the package reads, by path. */
    private static Map<String, String> contents(PackageSource source) throws IOException {
        Map<String, String> out = new TreeMap<>();
        source.read(new FileVisitor() {
            @Override
            public long maxFileBytes() {
                return Long.MAX_VALUE;
            }

            @Override
            public void file(String path, ByteBuffer content) {
                out.put(path, StandardCharsets.UTF_8.decode(content).toString());
            }

            @Override
            public void skipped(String path, SkipReason reason, long bytes) {
                out.put(path, "skipped " + reason);
            }
        });
        return out;
    }

    @Test
    void anUnknownBranchIsRefusedByName() throws Exception {
        try (GitFixture repo = GitFixture.bare(dir.resolve("lib.git"))) {
            repo.commit("main", Map.of("x.c", file("int x;\n")));
            List<String> errors = new ArrayList<>();
            assertThat(Corpus.discoverInputs(List.of(repo.folder() + "@main,nope"), dir, null, errors::add))
                    .isEmpty();
            assertThat(errors).singleElement().asString().contains("nope");
        }
    }
}
