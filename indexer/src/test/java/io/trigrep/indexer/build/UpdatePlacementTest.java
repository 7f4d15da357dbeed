package io.trigrep.indexer.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.corpus.GitFixture;
import io.trigrep.indexer.corpus.GitPackage;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.rank.Popularity;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.indexer.segments.LiveShard;
import io.trigrep.indexer.segments.Segment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An update puts each package no larger than a stripe whole on one shard, a new version where its
 * old one was: backends switch to a generation one at a time, and a package on one shard appears
 * (or is replaced) in every answer at once, never half of it, never two versions side by side.
 */
class UpdatePlacementTest {
    @TempDir
    Path dir;

    @Test
    void aSmallPackageAddedToBalancedShardsIsNotSplit() throws Exception {
        Path first = dir.resolve("first");
        for (int p = 0; p < 4; p++) {
            writePackage(first, "pkg" + p + "_1.0", 6);
        }
        IndexBuilder.Options options = new IndexBuilder.Options(2, FilterLimits.DEFAULT, Popularity.none(), 1, 1 << 20);
        Path index = dir.resolve("index");
        List<String> errors = new ArrayList<>();
        new IndexBuilder(options, Clock.systemUTC())
                .build(Corpus.discover(List.of(first), dir, errors::add), index, errors::add);
        Map<String, Set<Integer>> before = shardsOfPackages(index);
        assertThat(before.values()).allMatch(s -> s.size() == 1);

        Path adds = dir.resolve("adds");
        writePackage(adds, "fresh_1.0", 6);
        writePackage(adds, "pkg0_2.0", 8);
        new IndexUpdater(options, Clock.systemUTC())
                .update(index, Corpus.discover(List.of(adds), dir, errors::add), List.of(), false, errors::add);
        assertThat(errors).isEmpty();
        Map<String, Set<Integer>> after = shardsOfPackages(index);
        assertThat(after.get("fresh_1.0")).as("%s", after).hasSize(1);
        assertThat(after.get("pkg0_2.0")).as("%s", after).isEqualTo(before.get("pkg0_1.0"));
    }

    @Test
    void aChangedFileOfARepositoryOnSeveralShardsStaysOnItsShard() throws Exception {
        // Four times a stripe over two shards: the repository is striped over both.
        Map<String, GitFixture.Entry> tree = new TreeMap<>();
        for (int f = 0; f < 48; f++) {
            tree.put("src/f" + f + ".c", GitFixture.file(text("f" + f, 1100)));
        }
        IndexBuilder.Options options = new IndexBuilder.Options(2, FilterLimits.DEFAULT, Popularity.none(), 1, 1 << 20);
        Path index = dir.resolve("index");
        List<String> errors = new ArrayList<>();
        try (GitFixture repo = GitFixture.bare(dir.resolve("mono.git"))) {
            repo.commit("main", tree);
            new IndexBuilder(options, Clock.systemUTC())
                    .build(List.of(GitPackage.open(repo.folder(), List.of("main"), "", "")), index, errors::add);
            Map<String, Integer> before = shardsOfPaths(index);
            assertThat(Set.copyOf(before.values())).containsExactlyInAnyOrder(0, 1);

            // One changed file from each shard, and a new one.
            String onZero = firstPathOn(before, 0);
            String onOne = firstPathOn(before, 1);
            tree.put(onZero, GitFixture.file(text("changed zero", 1100)));
            tree.put(onOne, GitFixture.file(text("changed one", 1100)));
            tree.put("src/new.c", GitFixture.file(text("new", 20)));
            repo.commit("main", tree);
            IndexUpdater.Result r = new IndexUpdater(options, Clock.systemUTC())
                    .update(
                            index,
                            List.of(GitPackage.open(repo.folder(), List.of("main"), "", "")),
                            List.of(),
                            false,
                            errors::add);
            assertThat(errors).isEmpty();
            assertThat(r.moved()).containsEntry("mono", 3);
            Map<String, Integer> after = shardsOfPaths(index);
            assertThat(after).hasSize(before.size() + 1);
            assertThat(after.get("mono/" + onZero)).isZero();
            assertThat(after.get("mono/" + onOne)).isEqualTo(1);
        }
    }

    @Test
    void aChangedFileStaysOnItsShardWhenThatShardIsTheFuller() throws Exception {
        // A repository striped over both shards beside a package on each; the update removes the
        // one on shard 1, so shard 0 is the fuller when one file of the repository there changes.
        Map<String, GitFixture.Entry> tree = new TreeMap<>();
        for (int f = 0; f < 120; f++) {
            tree.put("src/f" + f + ".c", GitFixture.file(text("f" + f, 1100)));
        }
        Path corpus = dir.resolve("corpus");
        for (String[] pkg : new String[][] {{"big_1.0", "46"}, {"small_1.0", "37"}}) {
            for (int f = 0; f < Integer.parseInt(pkg[1]); f++) {
                Path file = corpus.resolve(pkg[0]).resolve("b" + f + ".c");
                Files.createDirectories(file.getParent());
                Files.writeString(file, text(pkg[0] + f, 1100));
            }
        }
        IndexBuilder.Options options = new IndexBuilder.Options(2, FilterLimits.DEFAULT, Popularity.none(), 1, 1 << 20);
        Path index = dir.resolve("index");
        List<String> errors = new ArrayList<>();
        try (GitFixture repo = GitFixture.bare(dir.resolve("mono.git"))) {
            repo.commit("main", tree);
            List<PackageSource> all = new ArrayList<>(Corpus.discover(List.of(corpus), dir, errors::add));
            all.add(GitPackage.open(repo.folder(), List.of("main"), "", ""));
            new IndexBuilder(options, Clock.systemUTC()).build(all, index, errors::add);
            Map<String, Set<Integer>> packages = shardsOfPackages(index);
            assertThat(packages.get("mono")).as("%s", packages).containsExactly(0, 1);
            int small = packages.get("small_1.0").iterator().next();
            String changed = firstPathOn(shardsOfPaths(index), 1 - small);

            tree.put(changed, GitFixture.file(text("changed", 1100)));
            repo.commit("main", tree);
            new IndexUpdater(options, Clock.systemUTC())
                    .update(
                            index,
                            List.of(GitPackage.open(repo.folder(), List.of("main"), "", "")),
                            List.of("small"),
                            false,
                            errors::add);
            assertThat(errors).isEmpty();
            assertThat(shardsOfPaths(index).get("mono/" + changed)).isEqualTo(1 - small);
        }
    }

    /** The shard of each live file, by package/path; a file on two shards fails. */
    private static Map<String, Integer> shardsOfPaths(Path index) throws Exception {
        Map<String, Integer> out = new TreeMap<>();
        eachLiveDoc(index, (k, docs, d) -> {
            String file = docs.packageName(docs.packageId(d)) + "/" + docs.path(d);
            assertThat(out.put(file, k)).as(file).isNull();
        });
        return out;
    }

    /** The path of the first file of repository mono on {@code shard}. */
    private static String firstPathOn(Map<String, Integer> shards, int shard) {
        return shards.entrySet().stream()
                .filter(e -> e.getKey().startsWith("mono/") && e.getValue() == shard)
                .findFirst()
                .orElseThrow()
                .getKey()
                .substring("mono/".length());
    }

    /** {@code lines} different lines of about 80 bytes, each naming {@code name}. */
    private static String text(String name, int lines) {
        StringBuilder text = new StringBuilder();
        for (int line = 0; line < lines; line++) {
            text.append(name)
                    .append(" line ")
                    .append(line)
                    .append(": int value_")
                    .append(line * 31 % 997)
                    .append(" = compute(")
                    .append(line)
                    .append(", \"")
                    .append(name)
                    .append("\");\n");
        }
        return text.toString();
    }

    /** Each live package's shards, by full name. */
    private static Map<String, Set<Integer>> shardsOfPackages(Path index) throws Exception {
        Map<String, Set<Integer>> out = new TreeMap<>();
        eachLiveDoc(
                index,
                (k, docs, d) -> out.computeIfAbsent(docs.packageName(docs.packageId(d)), n -> new TreeSet<>())
                        .add(k));
        return out;
    }

    private interface LiveDoc {
        void visit(int shard, DocTable docs, int doc) throws Exception;
    }

    /** Visits every live file of the index's current generation. */
    private static void eachLiveDoc(Path index, LiveDoc visitor) throws Exception {
        List<Generation.ShardEntry> shards = IndexFolder.current(index).shards();
        for (int k = 0; k < shards.size(); k++) {
            try (LiveShard live = LiveShard.open(index.resolve(shards.get(k).name()))) {
                for (Segment seg : live.segments()) {
                    DocTable docs = seg.shard().docs();
                    for (int d = 0; d < docs.docCount(); d++) {
                        if (seg.live(d)) {
                            visitor.visit(k, docs, d);
                        }
                    }
                }
            }
        }
    }

    /** A package of {@code files} files of about 900 bytes, each different. */
    private static void writePackage(Path root, String name, int files) throws Exception {
        for (int f = 0; f < files; f++) {
            StringBuilder text = new StringBuilder();
            for (int line = 0; line < 60; line++) {
                text.append(name).append(" line ").append(f * 1000 + line).append('\n');
            }
            Path file = root.resolve(name).resolve("src/f" + f + ".c");
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        }
    }
}
