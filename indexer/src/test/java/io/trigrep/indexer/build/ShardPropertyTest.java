package io.trigrep.indexer.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.format.PostingIterator;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.format.TrigramIndex;
import io.trigrep.indexer.rank.Popularity;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;

/**
 * Random corpora through the whole indexer, checked against brute force: every posting list is
 * exactly the set of files containing its trigram, every file reads back byte for byte, each file
 * lands in exactly one shard (a package may span shards, with its doc count per shard), and each
 * shard's bytes are within (shards - 1) files of its share.
 */
@Tag("integration") // whole builds of generated corpora
class ShardPropertyTest {

    @Property(tries = 25)
    void shardsAgreeWithBruteForce(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 4) int shards,
            @ForAll @IntRange(min = 1, max = 12) int packages)
            throws Exception {
        Random random = new Random(seed);
        Path root = Files.createTempDirectory("corpus");
        Path out = Files.createTempDirectory("shards");
        try {
            Map<String, Map<String, byte[]>> corpus = new TreeMap<>();
            for (int p = 0; p < packages; p++) {
                String name = "pkg" + p + "_1." + random.nextInt(10);
                Map<String, byte[]> files = new TreeMap<>();
                int count = 1 + random.nextInt(15);
                for (int f = 0; f < count; f++) {
                    String path = (random.nextBoolean() ? "src/" : random.nextBoolean() ? "test/" : "") + "f" + f
                            + (random.nextBoolean() ? ".c" : ".py");
                    files.put(path, randomText(random));
                }
                corpus.put(name, files);
                for (var e : files.entrySet()) {
                    Path file = root.resolve(name).resolve(e.getKey());
                    Files.createDirectories(file.getParent());
                    Files.write(file, e.getValue());
                }
            }
            List<String> errors = new ArrayList<>();
            List<PackageSource> sources = Corpus.discover(List.of(root), out, errors::add);
            // A tiny buffer cuts the trigrams into many ranges, each one pass over the spools.
            IndexBuilder.Options options =
                    new IndexBuilder.Options(shards, FilterLimits.DEFAULT, Popularity.none(), 2, 1024);
            IndexBuilder.Report report = new IndexBuilder(options, Clock.systemUTC()).build(sources, out, errors::add);
            assertThat(errors).isEmpty();

            Set<String> seenPackages = new HashSet<>();
            Map<String, Integer> docsPerPackage = new HashMap<>();
            Set<String> seenFiles = new HashSet<>();
            long[] shardBytes = new long[shards];
            Map<String, Long> packageBytes = new HashMap<>();
            for (int s = 0; s < shards; s++) {
                Shard shard = Shard.open(out.resolve("shard-" + s));
                shard.verify();
                var docs = shard.docs();
                Map<Integer, Set<Integer>> expectedPostings = new TreeMap<>();
                Set<String> packagesHere = new TreeSet<>();
                float previousRank = Float.MAX_VALUE;
                for (int doc = 0; doc < docs.docCount(); doc++) {
                    String pkg = docs.packageName(docs.packageId(doc));
                    packagesHere.add(pkg);
                    assertThat(seenFiles.add(pkg + "/" + docs.path(doc)))
                            .as("%s/%s in one shard only", pkg, docs.path(doc))
                            .isTrue();
                    byte[] expected = corpus.get(pkg).get(docs.path(doc));
                    ByteBuffer content = shard.content(doc);
                    byte[] actual = new byte[content.remaining()];
                    content.get(actual);
                    assertThat(actual).as("%s/%s", pkg, docs.path(doc)).isEqualTo(expected);
                    assertThat(docs.rank(doc)).as("docs are in decreasing rank").isLessThanOrEqualTo(previousRank);
                    previousRank = docs.rank(doc);
                    for (int i = 0; i + 2 < expected.length; i++) {
                        int t = (expected[i] & 0xff) << 16 | (expected[i + 1] & 0xff) << 8 | expected[i + 2] & 0xff;
                        expectedPostings
                                .computeIfAbsent(t, k -> new TreeSet<>())
                                .add(doc);
                    }
                    shardBytes[s] += expected.length;
                    packageBytes.merge(pkg, (long) expected.length, Long::sum);
                }
                assertThat(docs.packageCount()).isEqualTo(packagesHere.size());
                for (String pkg : packagesHere) {
                    seenPackages.add(pkg);
                    int here = 0;
                    for (int doc = 0; doc < docs.docCount(); doc++) {
                        here += docs.packageName(docs.packageId(doc)).equals(pkg) ? 1 : 0;
                    }
                    assertThat(docs.packageDocCount(indexOf(docs, pkg)))
                            .as("%s's docs in shard-%d", pkg, s)
                            .isEqualTo(here);
                    docsPerPackage.merge(pkg, here, Integer::sum);
                }
                TrigramIndex index = shard.index();
                assertThat(index.trigramCount()).isEqualTo(expectedPostings.size());
                PostingIterator it = new PostingIterator();
                for (var e : expectedPostings.entrySet()) {
                    int entry = index.find(e.getKey());
                    assertThat(entry).isGreaterThanOrEqualTo(0);
                    index.postings(entry, it);
                    List<Integer> actual = new ArrayList<>();
                    for (int d = it.next(); d != PostingIterator.NO_MORE_DOCS; d = it.next()) {
                        actual.add(d);
                    }
                    assertThat(actual)
                            .as("postings of trigram %06x", e.getKey())
                            .containsExactlyElementsOf(e.getValue());
                }
            }
            assertThat(seenPackages).isEqualTo(corpus.keySet());
            for (var e : corpus.entrySet()) {
                assertThat(docsPerPackage.get(e.getKey()))
                        .as("docs of %s over all shards", e.getKey())
                        .isEqualTo(e.getValue().size());
            }
            long largestFile = corpus.values().stream()
                    .flatMap(m -> m.values().stream())
                    .mapToLong(b -> b.length)
                    .max()
                    .orElse(0);
            long total = java.util.Arrays.stream(shardBytes).sum();
            for (int s = 0; s < shards; s++) {
                long share = total * (s + 1) / shards - total * s / shards;
                assertThat(Math.abs(shardBytes[s] - share))
                        .as("shard-%d holds %d bytes, its share is %d", s, shardBytes[s], share)
                        .isLessThanOrEqualTo((shards - 1) * largestFile);
            }
            assertThat(report.shards()).hasSize(shards);
        } finally {
            BuildScratch.deleteQuietly(root);
            BuildScratch.deleteQuietly(out);
        }
    }

    private static int indexOf(io.trigrep.indexer.format.DocTable docs, String pkg) throws Exception {
        for (int p = 0; p < docs.packageCount(); p++) {
            if (docs.packageName(p).equals(pkg)) {
                return p;
            }
        }
        throw new AssertionError(pkg);
    }

    /** Text from a small alphabet (so trigrams repeat across files), with some non-ASCII and lines. */
    static byte[] randomText(Random random) {
        String alphabet = "abcde fgh\n{}();=_ü€";
        int length = random.nextInt(4) == 0 ? random.nextInt(3) : random.nextInt(3000);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < length; i++) {
            text.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }
}
