package io.trigrep.frontend.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.trigrep.backend.warm.Rounds;
import io.trigrep.backend.warm.Settling;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCaps;
import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.fanout.ShardStatus;
import io.trigrep.frontend.query.QueryService;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * Brings a freshly started frontend to the speed of a warm one before it reports ready, once its
 * backends are ready (the caller waits for them). First rounds of capped searches for common words
 * ({@link #CAP}: they warm the code, they do not load the backends), ingested, teed, sorted and
 * rendered as every view renders them, with requests to its own port for the HTTP codec, the JSON
 * API and the web UI, until a round is no faster than the one before ({@link Rounds}) or the
 * rounds' share of the budget is spent.
 *
 * <p>Then the path of a selective query, over its own port, until its latency stops falling
 * ({@link Settling}), with several requests at once: the rounds run that path a few times, so it stayed at the JIT's first tiers.
 * A fresh frontend over warm backends answered its first hundred selective queries in a median
 * 8-13 ms, and under 2 ms after 1,500 to 2,500 more, which a warm one takes from the first. The
 * queries are ones that find a few results in this corpus ({@link #selectiveQueries}: identifiers
 * from the rounds' own results), because the path of results (ingest, tee, a page with context
 * lines) is not the path of a search that finds nothing: after 700 requests that found nothing, the
 * first hundred that found 15 lines still took a median 8.6 ms.
 */
final class FrontendWarmup {
    /** Common words of source code and two regex shapes, one of which has no trigram (a capped scan). */
    static final List<String> QUERIES =
            List.of("return", "include", "static", "error", "printf\\(", "(?i)todo", "[a-z]+_[a-z]+\\(");

    static final QueryCaps CAP = new QueryCaps(20_000, 64L << 20);

    /**
     * Each round then streams one query for long enough to take the paths of a result-heavy one,
     * which {@link #CAP}'s searches never reach: tees of many buffers, a writer past its quantum
     * (on the heavy pool), reads held back while the tee catches up, the backends' pauses, their
     * definitions looked up once per worker, the full sort. Without it a stack answered its first
     * three Linux {@code struct} queries (2 million lines) in 1.09 to 1.16 s and the next ones in
     * 0.71 to 0.85 s, and the JITs of all three processes recompiled those paths meanwhile.
     */
    static final String STREAM = "return";

    /** Half the default cap of a query: a stream of about 60 MB where the word is that common. */
    static final QueryCaps STREAM_CAP = new QueryCaps(500_000, 256L << 20);

    /** A page past the first ranks ({@code QueryRun.FIRST_RANKS}) of the stream: its full sort. */
    private static final int STREAM_PAGE = 500;
    /**
     * A literal that finds nothing at once, URL-encoded: five snowmen (U+2603), whose trigrams no
     * source tree we know holds, so each backend's plan is empty after the trigram look-up.
     * "trigrep warm-up finds nothing" took the backends 28 ms a time on Debian: its trigrams are
     * common, and their lists were intersected before one came out empty.
     */
    private static final String NOTHING = URLEncoder.encode("\u2603".repeat(5), StandardCharsets.UTF_8);
    /**
     * What a browser accepts ({@code Accept-Encoding}): its answers are compressed
     * ({@code HttpContentCompressor}), code that requests without the header never run. The
     * warm-up's client sends none, the benchmarks' sends {@code identity}; the web UI's users get
     * their answers through the compressor.
     */
    private static final String BROWSER_ENCODINGS = "gzip, deflate, br, zstd";
    /** A regex that needs the same snowmen, so it finds nothing as fast, with the shapes users write: a class, an alternation, a group. */
    private static final String NOTHING_REGEX =
            URLEncoder.encode("\u2603".repeat(5) + "(\\w+|[0-9]{2,})\\(", StandardCharsets.UTF_8);
    /**
     * The same, case-blind, with words of letters: the frontend plans it as a backend does, with
     * every case of each trigram of the words. Without it, the first case-blind query after ready
     * threw away the frontend's compiled parser and planner ({@code QueryParser.parse},
     * {@code Parser.parseInternal}, {@code Unicode.simpleFold}, {@code Query.combine}: 38 methods
     * made not entrant, 94 compiled), whose profiles the selective path had made literal-only; its
     * compiler threads took 90 to 480 ms of CPU in that query, on the cores the backends search with.
     * It begins with a letter, as a user's case-blind query does: begun with the snowmen, which have
     * no other case, the regex compiler's literal prefix ({@code Prog.prefix}) never met a
     * case-blind first letter, and its compiled code was thrown away in the first such query.
     */
    private static final String NOTHING_FOLDED =
            URLEncoder.encode("(?i)q" + "\u2603".repeat(5) + "(copyright|license_\\w+)", StandardCharsets.UTF_8);

    /**
     * The last pass's literal: {@code ÿ} (U+00FF), two bytes in UTF-8, so no trigram, and each
     * backend's plan is every file of its shard; source trees hold it rarely, so the pass reads
     * every file's bytes and sends back next to nothing.
     */
    static final String EVERY_FILE = "\u00ff";

    /**
     * How long the last pass may take. A backend whose shard is not in the page cache reads it at
     * the disk's speed; cut short, it stops where it is, and the files it did not reach are left
     * as they were.
     */
    static final Duration LAST_PASS_DEADLINE = Duration.ofSeconds(10);

    private static final int MIN_ROUNDS = 3;
    /** The share of the budget the rounds may take, in tenths: a round is not begun when the last one's time would pass it. */
    private static final int ROUNDS_SHARE = 4;
    /** Steps down a selective query's path per batch, of which half are timed; a batch's median is what {@link Settling} weighs. */
    private static final int BATCH = 64;
    /** Requests sent at once in each untimed step. */
    private static final int AT_ONCE = 3;
    /**
     * Batches at the least: about 5,000 requests, the calls after which HotSpot compiles a method
     * that does not loop at its last tier ({@code Tier4InvocationThreshold}). A request's own code
     * runs once per request, so no fewer requests make it fast, however flat the latency looks.
     */
    private static final int MIN_BATCHES = 5_000 / (BATCH / 2 * (1 + AT_ONCE)) + 1;
    /** Batches in a row not a tenth faster before the latency counts as settled. */
    private static final int PATIENCE = 8;
    /** At most this many steps down the selective path, however the latency moves. */
    static final int MAX_STEPS = 6_000;
    /** Pages of ten rendered per warm-up search: a selective query's page is rendered once per request, not four times a round. */
    private static final int PAGES_PER_SEARCH = 20;
    /** Identifiers from the rounds' results asked as literals, at most, to find a selective query. */
    private static final int PROBES = 24;
    /** Identifiers taken from one rendered page, at most. */
    private static final int PER_PAGE = 4;
    /** The words of {@link #QUERIES}: an identifier holding one is no selective query. */
    private static final List<String> COMMON = List.of("return", "include", "static", "error", "printf", "todo");
    /** A selective query, for the warm-up: at least one result and at most this many. */
    private static final int SELECTIVE_RESULTS = 100;
    /** Selective queries asked, at most. */
    static final int SELECTIVE_QUERIES = 3;

    private static final JsonFactory JSON = new JsonFactory();

    /**
     * What warming did: the whole rounds, the time taken and why the rounds stopped; then the selective path: its queries, the timed one first (none
     * when none was found, and a search that finds nothing took their place), requests sent, and how its steps ran.
     */
    record Outcome(
            Rounds.Summary rounds,
            long nanos,
            String stoppedBy,
            QuietSpell quiet,
            List<String> selective,
            int smallRequests,
            Settling.Run smallPath) {}

    /**
     * What the rehearsed quiet spell did ({@link #quietSpell}): pool workers that timed out, and
     * idle backend connections pinged and answered.
     */
    record QuietSpell(int workersTimedOut, long pingsSent, long pingsAnswered, long nanos) {
        static final QuietSpell NONE = new QuietSpell(0, 0, 0, 0);

        String describe() {
            return String.format(
                    "%d pool workers timed out, %d of %d idle backend connections answered a ping, in %d ms",
                    workersTimedOut, pingsAnswered, pingsSent, nanos / 1_000_000);
        }
    }

    /**
     * Pool workers made to time out in the rehearsed quiet spell, on each kind of queue: more than
     * the calls after which HotSpot profiles a method at its middle tier ({@code
     * Tier3InvocationThreshold}, 200), so that the queue's timed wait is profiled too.
     */
    static final int WORKERS_TIMED_OUT = 256;
    /** How long the rehearsal waits for the backends to answer its pings, at most. */
    private static final Duration PING_WAIT = Duration.ofSeconds(2);

    private final FanOut fanOut;
    private final URI self;
    private final LongSupplier clock;
    /** The JIT's compile time so far ({@link Rounds#jitMillis}), said for each round. */
    private final LongSupplier jitMillis;

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    /** Identifiers seen on the rounds' first pages, at most {@link #PROBES}: for {@link #selectiveQueries}. */
    private final Set<String> identifiers = new LinkedHashSet<>();

    FrontendWarmup(FanOut fanOut, URI self, LongSupplier clock, LongSupplier jitMillis) {
        this.fanOut = fanOut;
        this.self = self;
        this.clock = clock;
        this.jitMillis = jitMillis;
    }

    /**
     * Warms up, within {@code budgetNanos}; call once every backend is ready. Blocks. The rounds
     * stop at {@link #ROUNDS_SHARE} of the budget at the latest, so that the selective path,
     * which most users take, is always warmed too.
     */
    Outcome run(long budgetNanos) throws IOException, InterruptedException {
        long start = clock.getAsLong();
        long deadline = start + budgetNanos;
        // The JIT's time is said, not waited for: on the Linux stack (three JVMs on two cores) the
        // frontend's compiled for 120 to 950 ms in each of 13 rounds of 0.5 to 0.8 s, so waiting
        // for it, the rounds took their whole share, and the selective path, which most users
        // take, got half its requests and ended at a best median of 3.5 ms against 1.8.
        Rounds rounds = new Rounds(MIN_ROUNDS, jitMillis, 0);
        String stoppedBy;
        long share = budgetNanos / 10 * ROUNDS_SHARE;
        rounds:
        while (true) {
            long roundStart = clock.getAsLong();
            if (rounds.count() > 0 && roundStart - start + rounds.lastNanos() > share) {
                // The next round would likely end past the rounds' share: on a slow or busy machine
                // it took the selective path's time (a run with rounds of 2.4, 1.8 and 1.3 s and a
                // 10 s budget left time for 309 of the 1,500 requests then sent).
                stoppedBy = "their share of the budget";
                break;
            }
            rounds.begin();
            for (String query : QUERIES) {
                if (!search(query)) {
                    return failed(rounds, clock.getAsLong() - start);
                }
                if (clock.getAsLong() - start > share) {
                    stoppedBy = "their share of the budget";
                    break rounds;
                }
            }
            if (!stream()) {
                return failed(rounds, clock.getAsLong() - start);
            }
            requests();
            if (rounds.end(clock.getAsLong() - roundStart)) {
                stoppedBy = "no faster";
                break;
            }
        }
        QuietSpell quiet = quietSpell();
        List<String> selective = selectiveQueries(deadline);
        Settling.Run small = smallRequests(selective, deadline);
        return new Outcome(
                rounds.summary(),
                clock.getAsLong() - start,
                stoppedBy,
                quiet,
                selective,
                (small.sent() + 1) / 2 + small.sent() / 2 * AT_ONCE,
                small);
    }

    /** A warm-up cut short by a search that failed: the rounds so far, and no selective path. */
    private static Outcome failed(Rounds rounds, long nanos) {
        return new Outcome(
                rounds.summary(), nanos, "a failed search", QuietSpell.NONE, List.of(), 0, Settling.Run.NOT_RUN);
    }

    /**
     * What the process does when nobody asks, done once before the selective path, whose
     * thousands of requests then compile the code it shares with a user's query having seen it: a
     * pool worker waiting in vain ({@link IdleWorkers}) and the pings that keep idle backend
     * connections open ({@link FanOut#pingIdleConnections}). Left to the first quiet spell after
     * ready, each threw compiled code away (a pool's {@code getTask}; the backend stream's
     * {@code StreamHandler.channelRead}, {@code channelReadComplete} and
     * {@code Messages.peekResponse}, 8 to 10 s into it) that the first user's query then waited
     * for while it was compiled again.
     */
    private QuietSpell quietSpell() throws InterruptedException {
        long start = clock.getAsLong();
        int timedOut = IdleWorkers.timeOut(WORKERS_TIMED_OUT);
        FanOut.Pinged pinged = fanOut.pingIdleConnections(PING_WAIT);
        return new QuietSpell(timedOut, pinged.sent(), pinged.answered(), clock.getAsLong() - start);
    }

    /**
     * Of the rounds' first {@link #PROBES} identifiers (10 to 40 characters) asked as literals,
     * those that found at least one result and at most {@link #SELECTIVE_RESULTS}, those the
     * backends searched the fewest files for first ({@link #choose}), {@link #SELECTIVE_QUERIES}
     * at most: queries like a user's selective ones, whatever the corpus. Empty when none
     * qualifies.
     */
    private List<String> selectiveQueries(long deadline) throws IOException {
        List<Probe> probes = new java.util.ArrayList<>();
        int asked = 0;
        for (String word : identifiers) {
            if (asked++ == PROBES || clock.getAsLong() - deadline >= 0) {
                break;
            }
            long before = clock.getAsLong();
            try (QueryRun run = fanOut.search(word, true, QueryService.CONTEXT_LINES, Duration.ofSeconds(30), CAP)) {
                if (!finished(run)) {
                    break;
                }
                probes.add(new Probe(
                        word,
                        run.index().size(),
                        overShards(run, ShardStatus::filesSearched),
                        clock.getAsLong() - before));
            }
        }
        return choose(probes);
    }

    /** One identifier asked as a literal: what it found, in how many files searched, and how long it took. */
    record Probe(String query, int results, long filesSearched, long nanos) {}

    /**
     * The selective queries among {@code probes}: 1 to {@link #SELECTIVE_RESULTS} results, fewest
     * files searched first, then quickest; {@link #SELECTIVE_QUERIES} at most. Files searched,
     * not time, comes first: the warm-up's JVMs are still compiling, so a probe's time says as much
     * about the code it reached first as about the query, while the files the backends had to
     * search are what a settled search costs. Picked by time, the queries were identifiers in a
     * hundred files or more ({@code grow_stack}: 131 files, 16 ms a search when settled, against
     * 1.9 ms for {@code XML_ParserCreate}), and the budget bought 1,300 to 1,400 requests down
     * the selective path, too few for its per-request code to reach the JIT's last tier.
     */
    static List<String> choose(List<Probe> probes) {
        return probes.stream()
                .filter(p -> p.results() >= 1 && p.results() <= SELECTIVE_RESULTS)
                .sorted(java.util.Comparator.comparingLong(Probe::filesSearched).thenComparingLong(Probe::nanos))
                .limit(SELECTIVE_QUERIES)
                .map(Probe::query)
                .toList();
    }

    /**
     * Requests down a selective query's path, in batches of {@link #BATCH} steps, until the
     * median of a batch's timed steps has settled, {@link #MAX_STEPS} are taken or
     * {@code deadline} passes. Every other step is the timed one, a fresh search for the first
     * selective query, alone; each step between sends {@link #AT_ONCE} requests at once, as
     * several users do, since a frontend warmed one request at a time still compiled code for
     * several seconds of its first concurrent load. Those are the other selective queries,
     * searches that find nothing (a regex, a case-blind regex and a literal), the cached answer and the web UI's page; some as a browser asks them ({@link #BROWSER_ENCODINGS}).
     * Most are regexes, as users' queries are by default: the frontend parses and plans each one
     * to refuse a bad query itself, and that code was still being compiled after ready while the
     * warm-up asked only literals.
     */
    private Settling.Run smallRequests(List<String> selective, long deadline) throws IOException, InterruptedException {
        List<String> queries = selective.isEmpty()
                ? List.of(NOTHING_REGEX)
                : selective.stream()
                        .map(q -> URLEncoder.encode(q, StandardCharsets.UTF_8))
                        .toList();
        String first = queries.get(0);
        HttpRequest timed = get("/api/v1/search?cache=false&q=" + first);
        List<HttpRequest> between = new java.util.ArrayList<>();
        for (String q : queries.subList(1, queries.size())) {
            between.add(get("/api/v1/search?cache=false&q=" + q));
        }
        between.add(get("/api/v1/search?cache=false&q=" + NOTHING_REGEX));
        between.add(get("/api/v1/search?cache=false&q=" + NOTHING_FOLDED));
        between.add(get("/api/v1/search?q=" + first, BROWSER_ENCODINGS));
        between.add(get("/api/v1/search?cache=false&match_mode=literal&q=" + NOTHING, "identity"));
        between.add(get("/search?q=" + first, BROWSER_ENCODINGS));
        between.add(get("/api/v1/search?cache=false&q=" + first, BROWSER_ENCODINGS));
        int[] turn = {0};
        return new Settling(MIN_BATCHES, PATIENCE)
                .run(
                        () -> send(timed),
                        () -> {
                            List<java.util.concurrent.CompletableFuture<HttpResponse<Void>>> sent =
                                    new java.util.ArrayList<>();
                            for (int i = 0; i < AT_ONCE; i++) {
                                sent.add(http.sendAsync(
                                        between.get(turn[0]++ % between.size()),
                                        HttpResponse.BodyHandlers.discarding()));
                            }
                            for (var answer : sent) {
                                try {
                                    answer.get();
                                } catch (java.util.concurrent.ExecutionException e) {
                                    throw new IOException(e.getCause());
                                }
                            }
                            return true;
                        },
                        BATCH,
                        MAX_STEPS,
                        deadline,
                        clock);
    }

    /** Sends {@code request}; true when it was answered (any status: a warm-up request is never refused for being one). */
    private boolean send(HttpRequest request) throws IOException, InterruptedException {
        http.send(request, HttpResponse.BodyHandlers.discarding());
        return true;
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(self.resolve(path))
                .timeout(Duration.ofSeconds(10))
                .build();
    }

    /** The same, accepting {@code encodings} ({@code Accept-Encoding}), as browsers and most HTTP libraries send it. */
    private HttpRequest get(String path, String encodings) {
        return HttpRequest.newBuilder(self.resolve(path))
                .timeout(Duration.ofSeconds(10))
                .header("Accept-Encoding", encodings)
                .build();
    }

    /** One capped search, rendered as each view would render it; false when it failed. */
    private boolean search(String query) throws IOException {
        try (QueryRun run = fanOut.search(query, false, QueryService.CONTEXT_LINES, Duration.ofSeconds(30), CAP)) {
            if (!finished(run)) {
                return false;
            }
            for (int page = 0; page < PAGES_PER_SEARCH; page++) {
                byte[] rendered = PageRenderer.page(query, run, page, 10);
                if (page == 0 && identifiers.size() < PROBES) {
                    identifiers(rendered);
                }
            }
            PageRenderer.page(query, run, 1, 50);
            PageRenderer.grouped(query, run, 0, 10, 3);
            PageRenderer.packages(query, run);
            return true;
        }
    }

    /** The round's stream ({@link #STREAM}): its first page, as the API serves it, and a page that needs the full sort. */
    private boolean stream() throws IOException {
        try (QueryRun run =
                fanOut.search(STREAM, false, QueryService.CONTEXT_LINES, Duration.ofSeconds(30), STREAM_CAP)) {
            if (!finished(run)) {
                return false;
            }
            PageRenderer.page(STREAM, run, 0, 10);
            PageRenderer.page(STREAM, run, STREAM_PAGE, 10);
            return true;
        }
    }

    /** What the last pass read: files searched over the files the shards hold, and its time. */
    record LastPass(long filesSearched, long files, long nanos) {}

    /**
     * One search whose plan is every file of every shard ({@link #EVERY_FILE}), the warm-up's last
     * step. On this project's 2-core VM, memory left alone for tens of seconds reads several times
     * slower the first time again (BENCHMARKS.md, "Idle memory on this VM"): after the rounds and
     * the selective path, the shards' pages that only the backends' own warm-up had read were a
     * minute old when the first user came: the first Linux {@code (?i)copyright} 20 s after ready
     * took the backends' search threads 165 to 180 ms more CPU than the same query 20 s later, and
     * 60 to 95 ms more with the pages read again last. On any machine it also brings back pages
     * another process pushed out of the page cache meanwhile. Its few results' tee is removed.
     * Asked with the context lines of a user's query: asked with none, its few results (five
     * files of the Linux tree hold a {@code ÿ}) were the first lines without context a backend
     * had encoded, and its compiled encoder was thrown away there ({@code -XX:+LogCompilation}:
     * an uncommon trap in {@code FileResultsWriter.writeRuns}) and compiled again during the first
     * user's query after ready.
     */
    LastPass lastPass() throws IOException {
        long start = clock.getAsLong();
        try (QueryRun run = fanOut.search(EVERY_FILE, true, QueryService.CONTEXT_LINES, LAST_PASS_DEADLINE, CAP)) {
            // Cut short or failed, the pass has still read what it reached: the counts say how far.
            finished(run);
            return new LastPass(
                    overShards(run, ShardStatus::filesSearched),
                    overShards(run, ShardStatus::totalFiles),
                    clock.getAsLong() - start);
        }
    }

    /** The sum of one count of {@code run}'s shards (files searched, files held). */
    private static long overShards(QueryRun run, ToLongFunction<ShardStatus> count) {
        long sum = 0;
        for (ShardStatus shard : run.statuses()) {
            sum += count.applyAsLong(shard);
        }
        return sum;
    }

    /** Waits for {@code run} to end; true when it was answered in full. */
    private static boolean finished(QueryRun run) {
        try {
            run.completion().get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return QueryService.outcome(run) == QueryService.Outcome.ANSWERED;
    }

    /**
     * Adds to {@link #identifiers} up to {@link #PER_PAGE} identifiers of 10 to 40 characters from a rendered page's
     * matching lines, none holding one of the rounds' words: from the page of {@code return}, the
     * first twelve were all like {@code return_EOF}, whose trigrams are the commonest there are,
     * and the quickest of them took 7.6 ms a search.
     */
    private void identifiers(byte[] page) throws IOException {
        int added = 0;
        try (JsonParser json = JSON.createParser(page)) {
            for (JsonToken token = json.nextToken(); token != null && added < PER_PAGE; token = json.nextToken()) {
                if (token == JsonToken.FIELD_NAME
                        && "context".equals(json.currentName())
                        && json.nextToken() == JsonToken.VALUE_STRING) {
                    for (String word : words(json.getText())) {
                        if (added < PER_PAGE && !common(word) && identifiers.add(word)) {
                            added++;
                        }
                    }
                }
            }
        }
    }

    private static boolean common(String word) {
        String lower = word.toLowerCase(java.util.Locale.ROOT);
        for (String common : COMMON) {
            if (lower.contains(common)) {
                return true;
            }
        }
        return false;
    }

    /** The identifiers of 10 to 40 characters in {@code line}. */
    private static List<String> words(String line) {
        List<String> words = new java.util.ArrayList<>();
        int start = -1;
        for (int i = 0; i <= line.length(); i++) {
            char c = i < line.length() ? line.charAt(i) : ' ';
            boolean part = c == '_'
                    || (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (start >= 0 && c >= '0' && c <= '9');
            if (part) {
                start = start < 0 ? i : start;
                continue;
            }
            if (start >= 0 && i - start >= 10 && i - start <= 40) {
                words.add(line.substring(start, i));
            }
            start = -1;
        }
        return words;
    }

    /**
     * The HTTP paths a user's first requests take, with a query that finds nothing so the backends
     * do no work; each as a program asks it and as a browser does, whose answer is compressed.
     */
    private void requests() throws IOException, InterruptedException {
        for (String path : List.of(
                "/api/v1/status",
                "/api/v1/search?cache=false&match_mode=literal&q=" + NOTHING,
                "/search?mode=literal&q=" + NOTHING,
                "/")) {
            http.send(get(path), HttpResponse.BodyHandlers.discarding());
            http.send(get(path, BROWSER_ENCODINGS), HttpResponse.BodyHandlers.discarding());
        }
    }
}
