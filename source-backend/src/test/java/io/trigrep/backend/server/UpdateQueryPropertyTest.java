package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.IndexUpdater;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.segments.IndexFolder;
import io.trigrep.proto.Tls;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Tag;
import net.jqwik.api.constraints.IntRange;

/**
 * Issue 16, through the backend: random sequences of add, replace, remove and merge over a
 * generated corpus, and after every step the same queries against backends serving the updated
 * index and backends serving a fresh build of the same corpus. Over all shards the answers are the
 * same lines with the same ranges and the same rankings (placement over shards may differ, so the
 * shards' answers are compared together).
 */
@Tag("integration")
class UpdateQueryPropertyTest {
    private static final List<String> QUERIES = List.of(
            "alpha",
            "malloc\\(",
            "(?i)GAMMA",
            "\\bint main\\b",
            "[a-z]+_[0-9]+",
            "free\\( path:src/",
            "alpha AND NOT beta",
            "path:\\.py$",
            "return -path:doc/",
            "é");

    @Property(tries = 5)
    void answersEqualAFreshBuildsAfterEveryStep(
            @ForAll long seed,
            @ForAll @IntRange(min = 1, max = 2) int shards,
            @ForAll @IntRange(min = 3, max = 6) int steps)
            throws Exception {
        Random random = new Random(seed);
        Path work = Files.createTempDirectory("update-queries");
        try {
            IndexBuilder.Options options = IndexBuilder.Options.defaults(shards);
            IndexUpdater updater = new IndexUpdater(options, Clock.systemUTC());
            Map<String, Map.Entry<String, Map<String, byte[]>>> model = new TreeMap<>();
            Path index = work.resolve("index");
            Path first = work.resolve("in-0");
            for (int p = 0; p < 2 + random.nextInt(3); p++) {
                write(random, model, first, "pkg" + p);
            }
            List<String> errors = new ArrayList<>();
            new IndexBuilder(options, Clock.systemUTC())
                    .build(Corpus.discover(List.of(first), work, errors::add), index, errors::add);
            compare(index, model, options, work, "initial build");
            for (int step = 0; step < steps; step++) {
                int op = random.nextInt(8);
                String what;
                if (op < 4) {
                    Path in = work.resolve("in-" + (step + 1));
                    String key = "pkg" + random.nextInt(6);
                    write(random, model, in, key);
                    updater.update(
                            index,
                            Corpus.discover(List.of(in), work, errors::add),
                            List.of(),
                            random.nextBoolean(),
                            errors::add);
                    what = "step " + step + ": add or replace " + key;
                } else if (op < 6 && model.size() > 1) {
                    String key = new ArrayList<>(model.keySet()).get(random.nextInt(model.size()));
                    model.remove(key);
                    updater.update(index, List.of(), List.of(key), false, errors::add);
                    what = "step " + step + ": remove " + key;
                } else {
                    updater.merge(index, random.nextBoolean(), errors::add);
                    what = "step " + step + ": merge";
                }
                assertThat(errors).as(what).isEmpty();
                compare(index, model, options, work, what);
            }
        } finally {
            io.trigrep.backend.SegmentedIndex.delete(work);
        }
    }

    private static void compare(
            Path index,
            Map<String, Map.Entry<String, Map<String, byte[]>>> model,
            IndexBuilder.Options options,
            Path work,
            String what)
            throws Exception {
        Path corpus = work.resolve("fresh-corpus");
        Path fresh = work.resolve("fresh-index");
        io.trigrep.backend.SegmentedIndex.delete(corpus);
        io.trigrep.backend.SegmentedIndex.delete(fresh);
        for (var e : model.values()) {
            for (var f : e.getValue().entrySet()) {
                Path file = corpus.resolve(e.getKey()).resolve(f.getKey());
                Files.createDirectories(file.getParent());
                Files.write(file, f.getValue());
            }
        }
        List<String> errors = new ArrayList<>();
        new IndexBuilder(options, Clock.systemUTC())
                .build(Corpus.discover(List.of(corpus), work, errors::add), fresh, errors::add);
        int shards = IndexFolder.current(index).shards().size();
        for (String query : QUERIES) {
            assertThat(answers(index, shards, query))
                    .as("%s: %s", what, query)
                    .isEqualTo(answers(fresh, shards, query));
        }
    }

    /** Every shard's results for {@code query}, together, sorted. */
    private static List<String> answers(Path index, int shards, String query) throws Exception {
        List<String> all = new ArrayList<>();
        for (int k = 0; k < shards; k++) {
            BackendServer server =
                    BackendServer.open(index.resolve("shard-" + k), BackendConfig.defaults(), Tls.PLAIN, false, false);
            try {
                InetSocketAddress at = server.start("127.0.0.1", 0);
                all.addAll(SegmentedSearchTest.search(at, query, false, 0).results());
            } finally {
                server.close();
            }
        }
        all.sort(null);
        return all;
    }

    private static void write(
            Random random, Map<String, Map.Entry<String, Map<String, byte[]>>> model, Path input, String key)
            throws Exception {
        String name = key + "_" + (1 + random.nextInt(9)) + "." + random.nextInt(100);
        String[] words = {"alpha", "beta", "gamma", "GAMMA", "malloc(", "free(", "return", "x_1", "int main", "é", "\n"
        };
        Map<String, byte[]> files = new TreeMap<>();
        for (int f = 0; f < 1 + random.nextInt(8); f++) {
            String path = (random.nextBoolean() ? "src/" : random.nextBoolean() ? "doc/" : "") + "f" + f
                    + (random.nextBoolean() ? ".c" : ".py");
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < random.nextInt(200); i++) {
                text.append(words[random.nextInt(words.length)]).append(random.nextInt(4) == 0 ? "\n" : " ");
            }
            files.put(path, text.toString().getBytes(StandardCharsets.UTF_8));
        }
        for (var e : files.entrySet()) {
            Path file = input.resolve(name).resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.write(file, e.getValue());
        }
        model.put(key, Map.entry(name, files));
    }
}
