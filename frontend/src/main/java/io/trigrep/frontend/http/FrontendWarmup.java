package io.trigrep.frontend.http;

import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCaps;
import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.query.QueryService;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Brings a freshly started frontend to the speed of a warm one before it reports ready, once its
 * backends are ready (the caller waits for them): searches whose results are ingested, teed, sorted and rendered as every
 * view renders them, and requests to its own port for the HTTP codec, the JSON API and the web
 * UI, in rounds until a round is no faster than the one before or the budget is spent. The
 * searches are capped ({@link #CAP}): they warm the code, they do not load the backends.
 *
 * <p>Then the path of a selective query, {@link #SMALL_REQUESTS} times over its own port: a
 * search that finds nothing (asked of the backends, teed, answered) and the same answer from the
 * cache. The rounds run that path a few times, so it stayed interpreted or at the JIT's first
 * tier: a fresh frontend over warm backends answered its first hundred selective queries in a
 * median 9.6 ms, its seven hundredth to thousandth in 2.0 ms, which a warm one takes from the
 * first. The JIT compiles a method fully after thousands of calls, not after a few rounds.
 */
final class FrontendWarmup {
    /** Common words of source code and two regex shapes, one of which has no trigram (a capped scan). */
    static final List<String> QUERIES =
            List.of("return", "include", "static", "error", "printf\\(", "(?i)todo", "[a-z]+_[a-z]+\\(");

    static final QueryCaps CAP = new QueryCaps(20_000, 64L << 20);
    /**
     * A literal that finds nothing at once, URL-encoded: five snowmen (U+2603), whose trigrams no
     * source tree we know holds, so each backend's plan is empty after the trigram look-up.
     * "trigrep warm-up finds nothing" took the backends 28 ms a time on Debian: its trigrams are
     * common, and their lists were intersected before one came out empty.
     */
    private static final String NOTHING = URLEncoder.encode("\u2603".repeat(5), StandardCharsets.UTF_8);
    /** A regex that needs the same snowmen, so it finds nothing as fast, with the shapes users write: a class, an alternation, a group. */
    private static final String NOTHING_REGEX =
            URLEncoder.encode("\u2603".repeat(5) + "(\\w+|[0-9]{2,})\\(", StandardCharsets.UTF_8);

    private static final int MIN_ROUNDS = 3;
    /** The share of the budget the rounds may take, in tenths: a round is not begun when the last one's time would pass it. */
    private static final int ROUNDS_SHARE = 5;
    /** Requests down a selective query's path after the rounds: past the point where its latency stopped falling (about 700). */
    static final int SMALL_REQUESTS = 1500;
    /** Pages of ten rendered per warm-up search: a selective query's page is rendered once per request, not four times a round. */
    private static final int PAGES_PER_SEARCH = 20;

    /**
     * What warming did: rounds, then requests down a selective query's path, time taken, the first
     * and last whole rounds' times (-1 without one), and why the rounds stopped.
     */
    record Outcome(
            int rounds, int smallRequests, long nanos, long firstRoundNanos, long lastRoundNanos, String stoppedBy) {}

    private final FanOut fanOut;
    private final URI self;
    private final LongSupplier clock;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    FrontendWarmup(FanOut fanOut, URI self, LongSupplier clock) {
        this.fanOut = fanOut;
        this.self = self;
        this.clock = clock;
    }

    /**
     * Warms up, within {@code budgetNanos}; call once every backend is ready. Blocks. The rounds
     * stop at {@link #ROUNDS_SHARE} of the budget at the latest, so that the selective path,
     * which most users take, is always warmed too.
     */
    Outcome run(long budgetNanos) throws IOException, InterruptedException {
        long start = clock.getAsLong();
        long first = -1;
        long last = -1;
        long previous = Long.MAX_VALUE;
        int rounds = 0;
        String stoppedBy;
        long share = budgetNanos / 10 * ROUNDS_SHARE;
        rounds:
        while (true) {
            long roundStart = clock.getAsLong();
            if (rounds > 0 && roundStart - start + last > share) {
                // The next round would likely end past the rounds' share: on a slow or busy machine
                // it took the selective path's time (a run with rounds of 2.4, 1.8 and 1.3 s and a
                // 10 s budget left time for 309 of the 1,500 requests).
                stoppedBy = "their share of the budget";
                break;
            }
            for (String query : QUERIES) {
                if (!search(query)) {
                    return new Outcome(rounds, 0, clock.getAsLong() - start, first, last, "a failed search");
                }
                if (clock.getAsLong() - start > share) {
                    stoppedBy = "their share of the budget";
                    break rounds;
                }
            }
            requests();
            last = clock.getAsLong() - roundStart;
            first = rounds++ == 0 ? last : first;
            if (rounds >= MIN_ROUNDS && last >= previous * 9 / 10) {
                stoppedBy = "no faster";
                break;
            }
            previous = last;
        }
        int small = smallRequests(start + budgetNanos);
        return new Outcome(rounds, small, clock.getAsLong() - start, first, last, stoppedBy);
    }

    /**
     * Up to {@link #SMALL_REQUESTS} requests for searches that find nothing; stops at
     * {@code deadline}. Returns how many were sent. Most are regexes, as users' queries are by
     * default: the frontend parses and plans each one to refuse a bad query itself, and that code
     * was still being compiled after ready while the warm-up asked only literals. In every
     * sixteen requests: eight fresh regex searches, four literal ones, three cached answers and
     * the web UI's page.
     */
    private int smallRequests(long deadline) throws IOException, InterruptedException {
        HttpRequest freshRegex = get("/api/v1/search?cache=false&q=" + NOTHING_REGEX);
        HttpRequest freshLiteral = get("/api/v1/search?cache=false&match_mode=literal&q=" + NOTHING);
        HttpRequest cached = get("/api/v1/search?q=" + NOTHING_REGEX);
        HttpRequest webUi = get("/search?q=" + NOTHING_REGEX);
        List<HttpRequest> turns = List.of(
                freshRegex,
                freshLiteral,
                freshRegex,
                cached,
                freshRegex,
                freshLiteral,
                freshRegex,
                cached,
                freshRegex,
                freshLiteral,
                freshRegex,
                cached,
                freshRegex,
                freshLiteral,
                freshRegex,
                webUi);
        int sent = 0;
        while (sent < SMALL_REQUESTS && clock.getAsLong() - deadline < 0) {
            http.send(turns.get(sent % turns.size()), HttpResponse.BodyHandlers.discarding());
            sent++;
        }
        return sent;
    }

    private HttpRequest get(String path) {
        return HttpRequest.newBuilder(self.resolve(path))
                .timeout(Duration.ofSeconds(10))
                .build();
    }

    /** One capped search, rendered as each view would render it; false when it failed. */
    private boolean search(String query) throws IOException {
        try (QueryRun run = fanOut.search(query, false, 2, Duration.ofSeconds(30), CAP)) {
            try {
                run.completion().get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
            if (QueryService.outcome(run) != QueryService.Outcome.ANSWERED) {
                return false;
            }
            for (int page = 0; page < PAGES_PER_SEARCH; page++) {
                PageRenderer.page(query, run, page, 10);
            }
            PageRenderer.page(query, run, 1, 50);
            PageRenderer.grouped(query, run, 0, 10, 3);
            PageRenderer.packages(query, run);
            return true;
        }
    }

    /** The HTTP paths a user's first requests take, with a query that finds nothing so the backends do no work. */
    private void requests() throws IOException, InterruptedException {
        for (String path : List.of(
                "/api/v1/status",
                "/api/v1/search?cache=false&match_mode=literal&q=" + NOTHING,
                "/search?mode=literal&q=" + NOTHING,
                "/")) {
            http.send(get(path), HttpResponse.BodyHandlers.discarding());
        }
    }
}
