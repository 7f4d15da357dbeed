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
 */
final class FrontendWarmup {
    /** Common words of source code and two regex shapes, one of which has no trigram (a capped scan). */
    static final List<String> QUERIES =
            List.of("return", "include", "static", "error", "printf\\(", "(?i)todo", "[a-z]+_[a-z]+\\(");

    static final QueryCaps CAP = new QueryCaps(20_000, 64L << 20);
    private static final int MIN_ROUNDS = 3;

    /** What warming did: rounds, time taken, the first and last whole rounds' times (-1 without one), and why it stopped. */
    record Outcome(int rounds, long nanos, long firstRoundNanos, long lastRoundNanos, String stoppedBy) {}

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

    /** Warms up, within {@code budgetNanos}; call once every backend is ready. Blocks. */
    Outcome run(long budgetNanos) throws IOException, InterruptedException {
        long start = clock.getAsLong();
        long first = -1;
        long last = -1;
        long previous = Long.MAX_VALUE;
        int rounds = 0;
        while (true) {
            long roundStart = clock.getAsLong();
            for (String query : QUERIES) {
                if (!search(query) || clock.getAsLong() - start > budgetNanos) {
                    return new Outcome(rounds, clock.getAsLong() - start, first, last, "budget or a failed search");
                }
            }
            requests();
            last = clock.getAsLong() - roundStart;
            first = rounds++ == 0 ? last : first;
            if (rounds >= MIN_ROUNDS && last >= previous * 9 / 10) {
                return new Outcome(rounds, clock.getAsLong() - start, first, last, "no faster");
            }
            previous = last;
        }
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
            PageRenderer.page(query, run, 0, 10);
            PageRenderer.page(query, run, 1, 50);
            PageRenderer.grouped(query, run, 0, 10, 3);
            PageRenderer.packages(query, run);
            return true;
        }
    }

    /** The HTTP paths a user's first requests take, with a query that finds nothing so the backends do no work. */
    private void requests() throws IOException, InterruptedException {
        String none = URLEncoder.encode("trigrep warm-up finds nothing", StandardCharsets.UTF_8);
        for (String path : List.of(
                "/api/v1/status",
                "/api/v1/search?cache=false&match_mode=literal&q=" + none,
                "/search?mode=literal&q=" + none,
                "/")) {
            http.send(
                    HttpRequest.newBuilder(self.resolve(path))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.discarding());
        }
    }
}
