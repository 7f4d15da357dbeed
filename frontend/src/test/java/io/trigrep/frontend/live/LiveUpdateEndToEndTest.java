package io.trigrep.frontend.live;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.trigrep.backend.server.BackendProcess;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.http.FrontendServer;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.IndexUpdater;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 end to end, with real processes: two backends (child JVMs) and a frontend serve an
 * index while a loop of updates (replace, remove, add) and merges runs, and clients query all
 * along through the HTTP API, the cache on. Every answer is complete and has no error and no
 * duplicate line; a package never shows two versions in one answer; once an update completed (the
 * frontend's status shows its generation on every shard) no answer holds a package it removed or
 * replaced; and when it is all over each backend maps exactly the files of the last generation,
 * none deleted, and its heap is back near where it started.
 */
@Tag("integration")
class LiveUpdateEndToEndTest {
    private static final int STABLE = 4;
    private static final int CHURNED = 6;
    private static final int FILES = 6;
    private static final JsonFactory JSON = new JsonFactory();
    private static final Pattern GENERATION = Pattern.compile("\"generation\":(\\d+)");

    @TempDir
    Path dir;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private String base;

    /** The lines of one answer: package/path:line, and the packages they come from. */
    private record Answer(int status, boolean partial, List<String> lines, Set<String> packages) {}

    @Test
    void updatesAndMergesWhileServingLoseNothingAndLeakNothing() throws Exception {
        Path corpus = dir.resolve("corpus");
        for (int p = 0; p < STABLE; p++) {
            writePackage(corpus, "stable" + p + "_1.0", "stable" + p, 1);
        }
        for (int p = 0; p < CHURNED; p++) {
            writePackage(corpus, "churn" + p + "_1.0", "churn" + p, 1);
        }
        Path index = dir.resolve("index");
        IndexBuilder.Options options = IndexBuilder.Options.defaults(2);
        List<String> errors = new ArrayList<>();
        new IndexBuilder(options, Clock.systemUTC())
                .build(Corpus.discover(List.of(corpus), dir, errors::add), index, errors::add);
        assertThat(errors).isEmpty();

        List<Process> backends = new ArrayList<>();
        List<InetSocketAddress> addresses = new ArrayList<>();
        Path data = dir.resolve("data");
        try {
            for (int k = 0; k < 2; k++) {
                Process p = BackendProcess.start("128m", index.resolve("shard-" + k), "--reload-interval-ms", "200");
                backends.add(p);
                addresses.add(BackendProcess.announced(p, index));
            }
            try (FanOut fanOut = new FanOut(addresses, data, 2);
                    FrontendServer server = new FrontendServer(fanOut, 16, new QueryCache(data, 1L << 30, 0))) {
                server.pollStatusEvery(Duration.ofMillis(200));
                InetSocketAddress address = server.start("127.0.0.1", 0);
                base = "http://127.0.0.1:" + address.getPort();
                run(index, options, backends);
            }
        } finally {
            for (Process p : backends) {
                p.destroy();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private void run(Path index, IndexBuilder.Options options, List<Process> backends) throws Exception {
        awaitGeneration(IndexFolder.latest(index).orElseThrow().number());
        // Warm up, then take each backend's heap as its baseline.
        for (int i = 0; i < 20; i++) {
            ask("stable" + (i % STABLE) + "_marker");
        }
        List<Long> baseline = new ArrayList<>();
        for (Process p : backends) {
            baseline.add(heapAfterGc(p.pid()));
        }

        // When each package version stopped being in the index (millis; absent while it is).
        Map<String, Long> goneSince = new ConcurrentHashMap<>();
        Map<String, Integer> live = new ConcurrentHashMap<>();
        for (int p = 0; p < CHURNED; p++) {
            live.put("churn" + p, 1);
        }
        List<String> failures = new CopyOnWriteArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong answers = new AtomicLong();
        List<Thread> clients = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            int client = c;
            Thread t = new Thread(() -> {
                Random random = new Random(client);
                while (!stop.get()) {
                    try {
                        check(random, goneSince, failures);
                        answers.incrementAndGet();
                    } catch (Exception e) {
                        failures.add("client " + client + ": " + e);
                    }
                }
            });
            t.start();
            clients.add(t);
        }

        IndexUpdater updater = new IndexUpdater(options, Clock.systemUTC());
        Map<String, Integer> released = new HashMap<>();
        Random random = new Random(16);
        Path inputs = dir.resolve("inputs");
        for (int op = 0; op < 14; op++) {
            String key = "churn" + random.nextInt(CHURNED);
            Integer version = live.get(key);
            List<String> gone = new ArrayList<>();
            List<String> errors = new ArrayList<>();
            int kind = op % 7 == 6 ? 3 : random.nextInt(3);
            if (kind == 3) {
                updater.merge(index, random.nextBoolean(), errors::add);
            } else if (kind == 0 && version != null) {
                updater.update(index, List.of(), List.of(key), false, errors::add);
                live.remove(key);
                gone.add(key + "_" + version + ".0");
            } else {
                // Versions only go up, also after a removal: a version once gone never comes back.
                int next = released.merge(key, 1, Integer::sum) + 1;
                Path in = inputs.resolve("op" + op);
                writePackage(in, key + "_" + next + ".0", key, next);
                updater.update(index, Corpus.discover(List.of(in), dir, errors::add), List.of(), true, errors::add);
                live.put(key, next);
                if (version != null) {
                    gone.add(key + "_" + version + ".0");
                }
            }
            assertThat(errors).as("op %d", op).isEmpty();
            awaitGeneration(IndexFolder.latest(index).orElseThrow().number());
            long completed = System.currentTimeMillis();
            for (String g : gone) {
                goneSince.put(g, completed);
            }
            Thread.sleep(300); // the clients ask this generation a while before the next operation
        }
        updater.merge(index, true, List.of()::add);
        awaitGeneration(IndexFolder.latest(index).orElseThrow().number());
        Thread.sleep(500); // and the merged one
        stop.set(true);
        for (Thread t : clients) {
            t.join(PATIENCE.toMillis());
        }
        assertThat(failures).as("after %d answers", answers.get()).isEmpty();
        assertThat(answers.get()).isGreaterThan(50);

        // Every backend lets the old generations go: the files it maps are exactly the last one's.
        Generation last = IndexFolder.latest(index).orElseThrow();
        for (int k = 0; k < backends.size(); k++) {
            long pid = backends.get(k).pid();
            Set<String> expected = new HashSet<>();
            Path shard = index.resolve("shard-" + k).toAbsolutePath();
            for (Generation.SegmentEntry s : last.shards().get(k).segments()) {
                Path folder = IndexFolder.segmentFolder(shard, s.id());
                try (var files = Files.list(folder)) {
                    for (Path f : files.toList()) {
                        String name = f.getFileName().toString();
                        if (name.endsWith(".tgi")
                                || name.endsWith(".tgd")
                                || name.endsWith(".tgc")
                                || name.endsWith(".tgs")) {
                            expected.add(f.toString());
                        }
                    }
                }
            }
            int shardNumber = k;
            eventually(
                    "shard-" + k + "'s backend letting the old generations go",
                    PATIENCE,
                    () -> assertThat(
                                    mappedIndexFiles(pid, index.toAbsolutePath().toString()))
                            .as("shard-%d's backend maps the last generation's files and nothing else", shardNumber)
                            .isEqualTo(expected));
            long heap = heapAfterGc(pid);
            assertThat(heap)
                    .as("shard-%d's backend heap after the updates, against %d before", k, baseline.get(k))
                    .isLessThan(baseline.get(k) * 3 / 2 + (16L << 20));
        }
    }

    /** One query, checked: 200, not partial, no duplicate line, complete, one version, none gone. */
    private void check(Random random, Map<String, Long> goneSince, List<String> failures) throws Exception {
        long asked = System.currentTimeMillis();
        boolean stable = random.nextBoolean();
        String key = stable ? "stable" + random.nextInt(STABLE) : "churn" + random.nextInt(CHURNED);
        Answer a = ask(key + "_marker");
        String what = key + "_marker";
        if (a.status() != 200 || a.partial()) {
            failures.add(what + ": status " + a.status() + (a.partial() ? ", partial" : ""));
            return;
        }
        if (new HashSet<>(a.lines()).size() != a.lines().size()) {
            failures.add(what + ": a duplicate line in " + a.lines());
        }
        if (a.packages().size() > 1) {
            failures.add(what + ": two versions at once: " + a.packages());
        }
        if ((stable || !a.lines().isEmpty()) && a.lines().size() != FILES) {
            failures.add(what + ": " + a.lines().size() + " lines, not " + FILES + ": " + a.lines());
        }
        for (String p : a.packages()) {
            Long gone = goneSince.get(p);
            if (gone != null && asked > gone) {
                failures.add(what + ": " + p + " answered " + (asked - gone) + " ms after its update completed");
            }
        }
    }

    private Answer ask(String query) throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(base + "/api/v1/search?per_page=100&q="
                                + URLEncoder.encode(query, StandardCharsets.UTF_8)))
                        .timeout(Duration.ofSeconds(30))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        List<String> lines = new ArrayList<>();
        Set<String> packages = new HashSet<>();
        boolean partial = false;
        if (response.statusCode() == 200) {
            try (JsonParser p = JSON.createParser(response.body())) {
                String pkg = null;
                String path = null;
                int depth = 0;
                for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                    if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
                        depth++;
                    } else if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                        depth--;
                    } else if (t == JsonToken.FIELD_NAME) {
                        String field = p.currentName();
                        JsonToken value = p.nextToken();
                        if (depth == 1 && field.equals("partial")) {
                            partial = value == JsonToken.VALUE_TRUE;
                        } else if (depth == 3 && field.equals("package")) {
                            pkg = p.getText();
                        } else if (depth == 3 && field.equals("path")) {
                            path = p.getText();
                        } else if (depth == 3 && field.equals("line")) {
                            lines.add(pkg + "/" + path + ":" + p.getIntValue());
                            packages.add(pkg);
                        } else if (value == JsonToken.START_OBJECT || value == JsonToken.START_ARRAY) {
                            depth++;
                        }
                    }
                }
            }
        }
        return new Answer(response.statusCode(), partial, lines, packages);
    }

    /** Waits until the frontend's status shows generation {@code n} on every shard. */
    private void awaitGeneration(long n) throws Exception {
        eventually("the frontend showing generation " + n + " on both shards", PATIENCE, () -> {
            String body = http.send(
                            HttpRequest.newBuilder(URI.create(base + "/api/v1/status"))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString())
                    .body();
            List<Long> generations = new ArrayList<>();
            for (Matcher m = GENERATION.matcher(body); m.find(); ) {
                generations.add(Long.parseLong(m.group(1)));
            }
            assertThat(generations).as(body).containsExactly(n, n);
        });
    }

    /** The index files {@code pid} maps, by path; a deleted one keeps its " (deleted)" mark. */
    private static Set<String> mappedIndexFiles(long pid, String indexRoot) throws Exception {
        Set<String> files = new HashSet<>();
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/maps"))) {
            int slash = line.indexOf('/');
            if (slash >= 0 && line.substring(slash).startsWith(indexRoot)) {
                files.add(line.substring(slash));
            }
        }
        return files;
    }

    /** {@code pid}'s heap in use after a full collection, as jcmd reports it. */
    private static long heapAfterGc(long pid) throws Exception {
        String jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();
        run(jcmd, Long.toString(pid), "GC.run");
        String info = run(jcmd, Long.toString(pid), "GC.heap_info");
        Matcher m = Pattern.compile("used (\\d+)K").matcher(info);
        assertThat(m.find()).as("heap info: %s", info).isTrue();
        return Long.parseLong(m.group(1)) << 10;
    }

    private static String run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    /**
     * A package of {@link #FILES} files, each holding "{key}_marker" on one line, among lines that
     * differ by version (so versions are different bytes, as they are).
     */
    private static void writePackage(Path root, String name, String key, int version) throws Exception {
        Random random = new Random(name.hashCode());
        for (int f = 0; f < FILES; f++) {
            StringBuilder text = new StringBuilder();
            int at = random.nextInt(50);
            for (int line = 0; line < 60; line++) {
                text.append(line == at ? key + "_marker" : "v" + version + " line " + random.nextInt(100_000))
                        .append('\n');
            }
            Path file = root.resolve(name).resolve("src/f" + f + ".c");
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        }
    }
}
