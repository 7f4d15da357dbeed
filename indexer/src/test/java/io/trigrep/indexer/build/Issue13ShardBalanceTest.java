package io.trigrep.indexer.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.format.ShardFiles;
import io.trigrep.indexer.rank.Popularity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 13, "search everything": shards are balanced by bytes whatever the corpus looks like. A
 * one-package tree (a kernel) spreads over every shard; a package spanning shards is in each
 * one's package table with the docs it has there; the same input gives byte-identical shards.
 */
@Tag("integration") // whole builds of generated corpora
class Issue13ShardBalanceTest {
    @TempDir
    static Path corpora;

    /** package -> path -> bytes, per corpus. */
    static final Map<String, Map<String, Map<String, byte[]>>> FILES = new HashMap<>();

    /** 5,000 files of 100 to 1,500 bytes in one package: more files than one part holds, so it is read in two parts. */
    @BeforeAll
    static void writeCorpora() throws Exception {
        Random random = new Random(13);
        Map<String, Map<String, byte[]>> one = new TreeMap<>();
        one.put("linux_6.1", files(random, 5000, "drivers/"));
        write(corpora.resolve("one"), one);
        FILES.put("one", one);
        // Skewed: one package holds most bytes, a few mid-sized, many tiny.
        Map<String, Map<String, byte[]>> many = new TreeMap<>();
        many.put("huge_1.0", files(random, 2500, "src/"));
        for (int p = 0; p < 4; p++) {
            many.put("mid" + p + "_2.0", files(random, 300, "lib/"));
        }
        for (int p = 0; p < 25; p++) {
            many.put("tiny" + p + "_0.1", files(random, 1 + random.nextInt(8), ""));
        }
        write(corpora.resolve("many"), many);
        FILES.put("many", many);
    }

    private static Map<String, byte[]> files(Random random, int count, String prefix) {
        Map<String, byte[]> files = new TreeMap<>();
        for (int f = 0; f < count; f++) {
            int length = 100 + random.nextInt(1401);
            StringBuilder text = new StringBuilder();
            while (text.length() < length) {
                text.append("int v")
                        .append(random.nextInt(100_000))
                        .append(" = ")
                        .append(random.nextInt())
                        .append(";\n");
            }
            files.put(
                    prefix + "d" + f % 37 + "/f" + f + ".c",
                    text.substring(0, length).getBytes(StandardCharsets.UTF_8));
        }
        return files;
    }

    private static void write(Path root, Map<String, Map<String, byte[]>> corpus) throws Exception {
        for (var p : corpus.entrySet()) {
            for (var f : p.getValue().entrySet()) {
                Path file = root.resolve(p.getKey()).resolve(f.getKey());
                Files.createDirectories(file.getParent());
                Files.write(file, f.getValue());
            }
        }
    }

    static IndexBuilder.Report build(Path corpus, Path out, int shards) throws Exception {
        List<String> errors = new ArrayList<>();
        List<PackageSource> sources = Corpus.discover(List.of(corpus), out, errors::add);
        IndexBuilder.Options options =
                new IndexBuilder.Options(shards, FilterLimits.DEFAULT, Popularity.none(), 2, 1 << 16);
        IndexBuilder.Report report = new IndexBuilder(options, Clock.systemUTC()).build(sources, out, errors::add);
        assertThat(errors).isEmpty();
        return report;
    }

    @ParameterizedTest(name = "{0} shards")
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8})
    void oneRepositorySpreadsOverEveryShard(int shards, @TempDir Path out) throws Exception {
        checkBalanced("one", shards, out);
    }

    @ParameterizedTest(name = "{0} shards")
    @ValueSource(ints = {2, 3, 4, 5, 6, 7, 8})
    void skewedPackagesAreBalancedToo(int shards, @TempDir Path out) throws Exception {
        checkBalanced("many", shards, out);
    }

    /** Every shard within 5% of the mean bytes; the shards' files are exactly the input's; package tables count each shard's docs. */
    private void checkBalanced(String name, int shards, Path out) throws Exception {
        Map<String, Map<String, byte[]>> corpus = FILES.get(name);
        build(corpora.resolve(name), out, shards);
        long[] bytes = new long[shards];
        Map<String, byte[]> seen = new HashMap<>();
        Map<String, Integer> docsPerPackage = new HashMap<>();
        int spanning = 0;
        Map<String, Integer> shardsPerPackage = new HashMap<>();
        for (int s = 0; s < shards; s++) {
            Shard shard = Shard.open(out.resolve("shard-" + s));
            DocTable docs = shard.docs();
            int[] counted = new int[docs.packageCount()];
            for (int doc = 0; doc < docs.docCount(); doc++) {
                String key = docs.packageName(docs.packageId(doc)) + "/" + docs.path(doc);
                var content = shard.content(doc);
                byte[] actual = new byte[content.remaining()];
                content.get(actual);
                assertThat(seen.put(key, actual))
                        .as("%s in one shard only", key)
                        .isNull();
                bytes[s] += actual.length;
                counted[docs.packageId(doc)]++;
            }
            for (int p = 0; p < docs.packageCount(); p++) {
                assertThat(docs.packageDocCount(p))
                        .as("shard-%d's doc count of %s", s, docs.packageName(p))
                        .isEqualTo(counted[p]);
                assertThat(counted[p]).isPositive();
                docsPerPackage.merge(docs.packageName(p), counted[p], Integer::sum);
                shardsPerPackage.merge(docs.packageName(p), 1, Integer::sum);
            }
        }
        Map<String, byte[]> expected = new HashMap<>();
        corpus.forEach((pkg, files) -> files.forEach((path, content) -> expected.put(pkg + "/" + path, content)));
        assertThat(seen.keySet()).isEqualTo(expected.keySet());
        expected.forEach((key, content) -> assertThat(seen.get(key)).as(key).isEqualTo(content));
        corpus.forEach((pkg, files) -> assertThat(docsPerPackage.get(pkg))
                .as("docs of %s over all shards", pkg)
                .isEqualTo(files.size()));

        long total = java.util.Arrays.stream(bytes).sum();
        double mean = (double) total / shards;
        for (int s = 0; s < shards; s++) {
            assertThat(Math.abs(bytes[s] - mean))
                    .as("shard-%d: %d bytes, mean %.0f", s, bytes[s], mean)
                    .isLessThanOrEqualTo(0.05 * mean);
        }
        for (var e : shardsPerPackage.entrySet()) {
            spanning += e.getValue() > 1 ? 1 : 0;
        }
        if (name.equals("one")) {
            assertThat(shardsPerPackage.get("linux_6.1")).isEqualTo(shards);
        } else {
            // Small packages stay whole: only packages larger than what a shard had left are split.
            assertThat(spanning).as("packages spanning shards").isLessThanOrEqualTo(shards);
        }
    }

    @Test
    void sameInputGivesByteIdenticalShards(@TempDir Path dir) throws Exception {
        for (String name : List.of("one", "many")) {
            Path a = dir.resolve(name + "-a");
            Path b = dir.resolve(name + "-b");
            build(corpora.resolve(name), a, 3);
            build(corpora.resolve(name), b, 3);
            for (int s = 0; s < 3; s++) {
                for (String file : List.of(ShardFiles.TRIGRAMS, ShardFiles.DOCS, ShardFiles.CONTENTS)) {
                    assertThat(Files.readAllBytes(a.resolve("shard-" + s).resolve(file)))
                            .as("%s shard-%d/%s", name, s, file)
                            .isEqualTo(
                                    Files.readAllBytes(b.resolve("shard-" + s).resolve(file)));
                }
            }
        }
    }

    @Test
    void assignerKeepsSmallPackagesWholeAndSplitsTheLargeOne() {
        // 1 package of 100 files of 10 bytes, 3 of two 25-byte files: 1150 bytes into 2 shards of 575.
        long[] large = new long[100];
        java.util.Arrays.fill(large, 10);
        List<long[]> packages = List.of(large, new long[] {25, 25}, new long[] {25, 25}, new long[] {25, 25});
        List<List<ShardAssigner.Range>> shards = ShardAssigner.assign(packages, 2);
        long[] load = new long[2];
        for (int s = 0; s < 2; s++) {
            for (ShardAssigner.Range r : shards.get(s)) {
                for (int f = r.from(); f < r.to(); f++) {
                    load[s] += packages.get(r.pkg())[f];
                }
            }
        }
        assertThat(load[0] + load[1]).isEqualTo(1150);
        assertThat(Math.abs(load[0] - 575)).as("within half the largest file").isLessThanOrEqualTo(25);
        // The large one spans both shards; each small one is whole: one range of both its files.
        assertThat(shards.stream()
                        .flatMap(List::stream)
                        .filter(r -> r.pkg() == 0)
                        .count())
                .isEqualTo(2);
        assertThat(shards.stream().flatMap(List::stream).filter(r -> r.pkg() > 0))
                .hasSize(3)
                .allMatch(r -> r.from() == 0 && r.to() == 2);
        // Same input, same answer.
        assertThat(ShardAssigner.assign(packages, 2)).isEqualTo(shards);
    }
}
