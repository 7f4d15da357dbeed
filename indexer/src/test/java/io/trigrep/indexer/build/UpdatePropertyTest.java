package io.trigrep.indexer.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.PostingIterator;
import io.trigrep.indexer.format.TrigramIndex;
import io.trigrep.indexer.rank.Popularity;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.indexer.segments.LiveShard;
import io.trigrep.indexer.segments.Segment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.zip.CRC32C;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;

/**
 * Random sequences of add, replace, remove and merge over a generated corpus of packages, checked
 * after every step against a fresh build of the same corpus. The two are equivalent when every
 * live file has the same package, path, bytes, static rank, file type, line count and package
 * weight (everything a search reads of a file), every trigram's live candidates are the same
 * files, and the skipped-file counts and the package list agree. Also: no shard's segments
 * exceed what the tiered policy allows, and every generation opens.
 */
@Tag("integration") // whole builds and updates of generated corpora
class UpdatePropertyTest {
    /** Everything a search reads of one file. */
    record DocFacts(long crc, int length, float rank, int fileType, int lines, float weight) {}

    @Property(tries = 12)
    void updatesAndMergesEqualAFreshBuild(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 3) int shards,
            @ForAll @IntRange(min = 2, max = 4) int factor,
            @ForAll @IntRange(min = 4, max = 9) int steps)
            throws Exception {
        Random random = new Random(seed);
        Path work = Files.createTempDirectory("updates");
        try {
            IndexBuilder.Options options =
                    new IndexBuilder.Options(shards, FilterLimits.DEFAULT, Popularity.none(), 2, 1024);
            MergePolicy policy = new MergePolicy(factor, 2048);
            IndexUpdater updater = new IndexUpdater(options, Clock.systemUTC(), policy);
            // The corpus as it should be: source name -> (full name, files).
            Map<String, Map.Entry<String, Map<String, byte[]>>> model = new TreeMap<>();
            Path index = work.resolve("index");
            int inputs = 0;
            // A first full build of a few packages.
            Path first = work.resolve("in-" + inputs++);
            for (int p = 0; p < 1 + random.nextInt(4); p++) {
                addPackage(random, model, first, "pkg" + p);
            }
            List<String> errors = new ArrayList<>();
            new IndexBuilder(options, Clock.systemUTC())
                    .build(Corpus.discover(List.of(first), work, errors::add), index, errors::add);
            check(index, model, options, work, policy, "initial build");
            for (int step = 0; step < steps; step++) {
                int op = random.nextInt(10);
                String what;
                if (op < 6) {
                    // add or replace 1-2 packages, and maybe remove one, in one update
                    Path in = work.resolve("in-" + inputs++);
                    List<String> added = new ArrayList<>();
                    for (int i = 0; i < 1 + random.nextInt(2); i++) {
                        String key = "pkg" + random.nextInt(7);
                        if (!added.contains(key)) {
                            addPackage(random, model, in, key);
                            added.add(key);
                        }
                    }
                    List<String> remove = new ArrayList<>();
                    if (random.nextBoolean() && model.size() > added.size()) {
                        for (String key : model.keySet()) {
                            if (!added.contains(key)) {
                                // by source name or by full name, either way
                                remove.add(
                                        random.nextBoolean()
                                                ? key
                                                : model.get(key).getKey());
                                model.remove(key);
                                break;
                            }
                        }
                    }
                    List<PackageSource> sources = Corpus.discover(List.of(in), work, errors::add);
                    IndexUpdater.Result r = updater.update(index, sources, remove, random.nextBoolean(), errors::add);
                    assertThat(r.added()).hasSize(added.size());
                    what = "step " + step + ": add " + added + ", remove " + remove;
                } else if (op < 8 && !model.isEmpty()) {
                    String key = new ArrayList<>(model.keySet()).get(random.nextInt(model.size()));
                    model.remove(key);
                    IndexUpdater.Result r = updater.update(index, List.of(), List.of(key), false, errors::add);
                    assertThat(r.removed()).hasSize(1);
                    what = "step " + step + ": remove " + key;
                } else {
                    boolean full = random.nextBoolean();
                    updater.merge(index, full, errors::add);
                    what = "step " + step + ": " + (full ? "full" : "tiered") + " merge";
                }
                assertThat(errors).as(what).isEmpty();
                check(index, model, options, work, policy, what);
            }
            updater.merge(index, true, errors::add);
            check(index, model, options, work, policy, "final full merge");
            updater.rebalance(index, errors::add);
            check(index, model, options, work, policy, "rebalancing merge");
            Generation g = IndexFolder.current(index);
            for (Generation.ShardEntry s : g.shards()) {
                assertThat(s.segments())
                        .as("a full merge leaves one segment per shard")
                        .hasSizeLessThanOrEqualTo(1);
                assertThat(s.deleted()).isZero();
            }
        } finally {
            BuildScratch.deleteQuietly(work);
        }
    }

    /** Writes a new version of package {@code key} into {@code input} and records it in the model. */
    private static void addPackage(
            Random random, Map<String, Map.Entry<String, Map<String, byte[]>>> model, Path input, String key)
            throws Exception {
        String name = key + "_" + (1 + random.nextInt(9)) + "." + random.nextInt(100);
        Map<String, byte[]> files = new TreeMap<>();
        int count = 1 + random.nextInt(12);
        for (int f = 0; f < count; f++) {
            String path = (random.nextBoolean() ? "src/" : random.nextBoolean() ? "doc/" : "") + "f" + f
                    + (random.nextBoolean() ? ".c" : ".py");
            files.put(path, text(random));
        }
        if (random.nextInt(3) == 0) {
            // a binary file: skipped, and counted against the package
            files.put("blob.bin", new byte[] {1, 0, 2});
        }
        for (var e : files.entrySet()) {
            Path file = input.resolve(name).resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.write(file, e.getValue());
        }
        model.put(key, Map.entry(name, files));
    }

    private static byte[] text(Random random) {
        String[] words = {"alpha", "beta", "gamma", "malloc(", "free(", "return", "x", "int main", "\n", "  ", "é"};
        StringBuilder s = new StringBuilder();
        int n = random.nextInt(400);
        for (int i = 0; i < n; i++) {
            s.append(words[random.nextInt(words.length)]).append(random.nextInt(4) == 0 ? "\n" : " ");
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static void check(
            Path index,
            Map<String, Map.Entry<String, Map<String, byte[]>>> model,
            IndexBuilder.Options options,
            Path work,
            MergePolicy policy,
            String what)
            throws Exception {
        // The fresh build of the same corpus.
        Path corpus = work.resolve("fresh-corpus");
        Path fresh = work.resolve("fresh-index");
        BuildScratch.deleteQuietly(corpus);
        BuildScratch.deleteQuietly(fresh);
        Files.createDirectories(corpus);
        for (var e : model.values()) {
            for (var f : e.getValue().entrySet()) {
                Path file = corpus.resolve(e.getKey()).resolve(f.getKey());
                Files.createDirectories(file.getParent());
                Files.write(file, f.getValue());
            }
        }
        List<String> errors = new ArrayList<>();
        List<PackageSource> sources = Corpus.discover(List.of(corpus), work, errors::add);
        new IndexBuilder(options, Clock.systemUTC()).build(sources, fresh, errors::add);

        Generation updated = IndexFolder.current(index);
        Generation built = IndexFolder.current(fresh);
        assertThat(names(updated)).as(what + ": packages").isEqualTo(names(built));
        assertThat(skipped(updated)).as(what + ": skipped files by reason").isEqualTo(skipped(built));
        Map<String, DocFacts> a = facts(index);
        Map<String, DocFacts> b = facts(fresh);
        assertThat(a).as(what + ": live files and what search reads of them").isEqualTo(b);
        assertThat(candidates(index)).as(what + ": each trigram's live files").isEqualTo(candidates(fresh));
        for (Generation.ShardEntry s : updated.shards()) {
            long level0 = s.segments().stream()
                    .filter(e -> policy.level(e.liveBytes()) == 0)
                    .count();
            // After an update with a merge a level holds < factor; without one, one more may wait.
            assertThat(level0)
                    .as(what + ": segments of %s at the smallest level", s.name())
                    .isLessThanOrEqualTo(policy.factor() + 4L);
            assertThat(s.liveDocs()).isEqualTo(count(a, index, s.name()));
        }
    }

    private static Map<String, List<Long>> skipped(Generation g) {
        Map<String, List<Long>> out = new TreeMap<>();
        for (Generation.ShardEntry s : g.shards()) {
            s.skipped().forEach((reason, c) -> {
                List<Long> sum = out.computeIfAbsent(reason, r -> new ArrayList<>(List.of(0L, 0L)));
                sum.set(0, sum.get(0) + c.files());
                sum.set(1, sum.get(1) + c.bytes());
            });
        }
        out.values().removeIf(c -> c.get(0) == 0 && c.get(1) == 0);
        return out;
    }

    private static TreeSet<String> names(Generation g) {
        TreeSet<String> out = new TreeSet<>();
        for (Generation.PackageEntry p : g.packages()) {
            out.add(p.name());
        }
        return out;
    }

    private static int count(Map<String, DocFacts> facts, Path index, String shard) throws Exception {
        try (LiveShard live = LiveShard.open(index.resolve(shard))) {
            return live.liveDocs();
        }
    }

    /** Every live file of the index: package/path -> what search reads of it; each file once. */
    static Map<String, DocFacts> facts(Path index) throws Exception {
        Map<String, DocFacts> out = new TreeMap<>();
        for (Generation.ShardEntry s : IndexFolder.current(index).shards()) {
            try (LiveShard live = LiveShard.open(index.resolve(s.name()))) {
                for (Segment seg : live.segments()) {
                    DocTable docs = seg.shard().docs();
                    for (int d = 0; d < docs.docCount(); d++) {
                        if (!seg.live(d)) {
                            continue;
                        }
                        ByteBuffer content = seg.shard().content(d);
                        CRC32C crc = new CRC32C();
                        crc.update(content.duplicate());
                        int pkg = docs.packageId(d);
                        DocFacts previous = out.put(
                                docs.packageName(pkg) + "/" + docs.path(d),
                                new DocFacts(
                                        crc.getValue(),
                                        content.remaining(),
                                        docs.rank(d),
                                        docs.fileType(d),
                                        docs.lines(d),
                                        docs.packageWeight(pkg)));
                        assertThat(previous)
                                .as("%s/%s live once", docs.packageName(pkg), docs.path(d))
                                .isNull();
                    }
                }
            }
        }
        return out;
    }

    /** For every trigram of the index, the live files its posting lists name. */
    static Map<Integer, TreeSet<String>> candidates(Path index) throws Exception {
        Map<Integer, TreeSet<String>> out = new TreeMap<>();
        for (Generation.ShardEntry s : IndexFolder.current(index).shards()) {
            try (LiveShard live = LiveShard.open(index.resolve(s.name()))) {
                for (Segment seg : live.segments()) {
                    TrigramIndex trigrams = seg.shard().index();
                    DocTable docs = seg.shard().docs();
                    PostingIterator it = new PostingIterator();
                    for (int t = 0; t < trigrams.trigramCount(); t++) {
                        it = trigrams.postings(t, it);
                        for (int d = it.next(); d != PostingIterator.NO_MORE_DOCS; d = it.next()) {
                            if (seg.live(d)) {
                                out.computeIfAbsent(trigrams.trigramAt(t), x -> new TreeSet<>())
                                        .add(docs.packageName(docs.packageId(d)) + "/" + docs.path(d));
                            }
                        }
                    }
                }
            }
        }
        return out;
    }
}
