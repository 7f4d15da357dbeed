package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Tls;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WarmupTest {
    @TempDir
    Path dir;

    @Test
    void aWarmingBackendAnswersSearchesButIsNotReadyUntilWarmed() throws Exception {
        Shard shard =
                TestShards.build(TestShards.CORPUS, dir.resolve("shards"), 1).get(0);
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        try (BackendServer server = new BackendServer(
                shard,
                BackendConfig.defaults(),
                ShardCheck.pending(shard, true),
                Tls.PLAIN,
                new PrintStream(log, true, StandardCharsets.UTF_8))) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            server.verify(new PrintStream(log, true, StandardCharsets.UTF_8));
            assertThat(BackendClient.ping(address, 5000))
                    .as("readiness while warming")
                    .contains("not ready")
                    .contains("warming up");
            long results = count(address, search("int"), last -> true);
            assertThat(results).as("a search while warming is answered in full").isGreaterThan(0);

            server.warmUp(Tls.PLAIN, Duration.ofSeconds(30));

            assertThat(BackendClient.ping(address, 5000))
                    .as("readiness once warmed")
                    .isNull();
            // The selective path ran with a word of the shard that finds a few results, and
            // stopped for one of its reasons (which one depends on the machine's speed).
            String said = log.toString(StandardCharsets.UTF_8);
            java.util.regex.Matcher done = java.util.regex.Pattern.compile(
                            "warmed up, .* then (\\d+) selective searches for \"(\\w+)\"(, \"\\w+\")* \\(.*stopped:"
                                    + " (settled|the budget|the request cap)\\)")
                    .matcher(said);
            assertThat(done.find()).as(said).isTrue();
            assertThat(Integer.parseInt(done.group(1))).isBetween(1, Warmup.MAX_SELECTIVE_SEARCHES);
            MessageBuilder literal = io.trigrep.proto.Messages.newBuilder();
            literal.initRoot(io.trigrep.proto.Request.factory)
                    .initSearch()
                    .setQuery(done.group(2))
                    .setLiteral(true);
            assertThat(count(address, literal, last -> true)).as(done.group(2)).isBetween(1L, 100L);
            assertThat(count(address, search("int"), last -> true)).isEqualTo(results);
        }
    }

    private static long count(
            InetSocketAddress backend, org.capnproto.MessageBuilder request, BackendClient.Handler last)
            throws java.io.IOException {
        try (BackendClient.Connection connection = new BackendClient.Connection(backend)) {
            return connection.count(request, last);
        }
    }

    private static org.capnproto.MessageBuilder search(String query) {
        org.capnproto.MessageBuilder request = io.trigrep.proto.Messages.newBuilder();
        request.initRoot(io.trigrep.proto.Request.factory).initSearch().setQuery(query);
        return request;
    }

    @Test
    void warmingSearchesComeFromTheShardAndFindSomething() throws Exception {
        Shard shard =
                TestShards.build(TestShards.CORPUS, dir.resolve("shards"), 1).get(0);
        List<String> words = Warmup.words(shard, 12);
        assertThat(words).isNotEmpty().allSatisfy(w -> assertThat(w).matches("[A-Za-z_][A-Za-z0-9_]{5,39}"));
        try (BackendServer server = new BackendServer(shard, BackendConfig.defaults())) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            for (String word : words) {
                assertThat(count(address, search(word), last -> true)).as(word).isGreaterThan(0);
            }
        }
    }

    @Test
    void warmingAsksForResultsAsTheFrontendDoes() throws Exception {
        Shard shard =
                TestShards.build(TestShards.CORPUS, dir.resolve("shards"), 1).get(0);
        // The frontend and the CLI ask for FileResults: a warm-up of per-line Results compiled
        // code no user's query runs, and left the writer of FileResults to the first real ones.
        assertThat(Warmup.searches(Warmup.words(shard, 12), Warmup.rarePair(shard), 20_000_000_000L))
                .isNotEmpty()
                .allSatisfy(search -> assertThat(search.request()
                                .getRoot(io.trigrep.proto.Request.factory)
                                .asReader()
                                .getSearch()
                                .getFileResults())
                        .isTrue());
    }

    @Test
    void eachSearchOfARoundHasADeadlineThatLetsMoreThanTheMinimumRoundsFitInTheirShare() throws Exception {
        Shard shard =
                TestShards.build(TestShards.CORPUS, dir.resolve("shards"), 1).get(0);
        List<String> words = Warmup.words(shard, 4);
        String everyFile = Warmup.rarePair(shard);
        // Budgets above the one where a search's share falls to MIN_SEARCH_MILLIS (about 11 s with
        // the default shard's 17 searches besides the every-file and slow ones).
        for (long budget : new long[] {20_000_000_000L, 12_000_000_000L, 60_000_000_000L}) {
            List<Warmup.Search> round = Warmup.searches(words, everyFile, budget);
            // Positive: 0 would mean the backend's default, minutes on a big shard.
            assertThat(round)
                    .as("budget %d ns", budget)
                    .allSatisfy(search -> assertThat(deadline(search)).isPositive());
            // The every-file search, last, and the slow one may take their parts of the share; the others share the
            // rest.
            long everyFileShare = budget / Warmup.EVERY_FILE_PART / 10 * Warmup.ROUNDS_SHARE;
            long slowShare = budget / Warmup.STREAM_PART / 10 * Warmup.ROUNDS_SHARE;
            long othersShare =
                    (budget - budget / Warmup.EVERY_FILE_PART - budget / Warmup.STREAM_PART) / 10 * Warmup.ROUNDS_SHARE;
            assertFits(deadline(round.get(round.size() - 1)), 1, everyFileShare);
            List<Warmup.Search> slow =
                    round.stream().filter(Warmup.Search::slow).toList();
            assertThat(slow).hasSize(1);
            assertFits(deadline(slow.get(0)), 1, slowShare);
            List<Warmup.Search> others = round.subList(0, round.size() - 1).stream()
                    .filter(search -> !search.slow())
                    .toList();
            assertThat(others).allSatisfy(search -> assertFits(deadline(search), others.size(), othersShare));
            // All of them: room for one round more than the minimum, as the rounds loop expects.
            long round1 = round.stream()
                    .mapToLong(search -> deadline(search) * 1_000_000L)
                    .sum();
            assertThat(round1 * (Warmup.MIN_ROUNDS + 1)).isLessThanOrEqualTo(budget / 10 * Warmup.ROUNDS_SHARE);
        }
        // However small the budget, a search gets the few files' time it needs to run its code.
        assertThat(Warmup.searchDeadlineMillis(1_000_000L, 17)).isEqualTo(Warmup.MIN_SEARCH_MILLIS);
    }

    private static int deadline(Warmup.Search search) {
        return search.request()
                .getRoot(io.trigrep.proto.Request.factory)
                .asReader()
                .getSearch()
                .getDeadlineMillis();
    }

    /** {@code searches} of {@code deadline} ms, with one round more than the minimum, fit in {@code share}, and not needlessly: a ms more would not. */
    private static void assertFits(int deadline, int searches, long share) {
        // Room for one round more than the minimum: searches overrun their deadlines.
        assertThat(deadline * 1_000_000L * (Warmup.MIN_ROUNDS + 1) * searches).isLessThanOrEqualTo(share);
        // Not needlessly short: a larger deadline would no longer fit.
        assertThat((deadline + 1) * 1_000_000L * (Warmup.MIN_ROUNDS + 1) * searches)
                .isGreaterThan(share);
    }

    @Test
    void warmingStopsAtItsBudget() throws Exception {
        Shard shard =
                TestShards.build(TestShards.CORPUS, dir.resolve("shards"), 1).get(0);
        try (BackendServer server = new BackendServer(shard, BackendConfig.defaults())) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            // A clock that jumps a second per reading: the budget of 5 s is spent within the first round.
            AtomicLong clock = new AtomicLong();
            Warmup.Outcome done = Warmup.run(
                    address,
                    Tls.PLAIN,
                    Warmup.searches(Warmup.words(shard, 12), Warmup.rarePair(shard), 5_000_000_000L),
                    Warmup.rare(Warmup.words(shard, 48)),
                    5_000_000_000L,
                    () -> clock.addAndGet(1_000_000_000L),
                    () -> 0);
            assertThat(done.rounds().count()).isZero();
            assertThat(done.searches()).isBetween(1, 5);
        }
    }

    @Test
    void theEveryFileSearchIsTheLetterPairTheSampledFilesHoldLeast() throws Exception {
        // Every pair of letters as a word of its own, each once, but for "qZ", and "Aa" many times.
        StringBuilder text = new StringBuilder();
        for (char a : letters()) {
            for (char b : letters()) {
                if (a != 'q' || b != 'Z') {
                    text.append(a).append(b).append(' ');
                }
            }
        }
        text.append("Aa ".repeat(100)).append('\n');
        Path corpus = dir.resolve("corpus");
        java.nio.file.Files.createDirectories(corpus.resolve("pairs"));
        java.nio.file.Files.writeString(corpus.resolve("pairs/all.txt"), text);
        java.nio.file.Files.writeString(corpus.resolve("pairs/other.c"), "int main(void) { return 0; }\n");
        Shard shard = TestShards.build(corpus, dir.resolve("shards"), 1).get(0);

        String pair = Warmup.rarePair(shard);

        assertThat(pair).isEqualTo("qZ");
        List<String> queries = Warmup.searches(List.of("return"), pair, 20_000_000_000L).stream()
                .filter(search -> !search.slow())
                .map(search -> search.request()
                        .getRoot(io.trigrep.proto.Request.factory)
                        .asReader()
                        .getSearch())
                .filter(search -> search.getLiteral())
                .map(search -> search.getQuery().toString())
                .toList();
        assertThat(queries).containsExactly("return", "qZ");
    }

    private static char[] letters() {
        return "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    }
}
