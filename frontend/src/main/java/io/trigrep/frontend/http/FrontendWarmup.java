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
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * A frontend's warm-up: a fixed list of requests, one of each kind a user sends (the query classes
 * of {@link #QUERIES}, a second page, the grouped view, the HTML page), replayed {@link #ROUNDS}
 * times through the frontend's own HTTP port, or until the budget is spent; and in each round one
 * result-heavy search through the fan-out ({@link #HEAVY_CAPS}: as many results as a heavy user
 * query has, within the budget). Every query keeps {@link #COUNT} results ({@code count:}), so a
 * round costs about the same on any corpus, and is fresh ({@code cache=false}) and admitted as a
 * user's is.
 */
final class FrontendWarmup {
    static final int COUNT = 50;
    static final List<String> QUERIES = Stream.of(
                    "main", // selective literal
                    "[a-z]+_init\\s*\\(", // regex
                    "(?i)copyright", // case-insensitive
                    "malloc\\( AND NOT free\\(", // boolean
                    "sym:^main$", // definitions
                    "path:\\.h$") // file names
            .map(q -> q + " count:" + COUNT)
            .toList();

    static final String HEAVY = "re";
    static final QueryCaps HEAVY_CAPS = new QueryCaps(200_000, 64L << 20);
    static final int ROUNDS = 10;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    /** What warming did: requests answered 200, requests answered otherwise, rounds completed, time taken. */
    record Outcome(int ok, int failed, int rounds, long nanos) {}

    private final FanOut fanOut;
    private final URI self;
    private final LongSupplier clock;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private int ok;
    private int failed;

    FrontendWarmup(FanOut fanOut, URI self, LongSupplier clock) {
        this.fanOut = fanOut;
        this.self = self;
        this.clock = clock;
    }

    /**
     * Warms up within {@code budgetNanos}: each request may take only what is left of it, and the
     * first that runs out ends the warm-up. Call once every backend is ready. Blocks.
     */
    Outcome run(long budgetNanos) throws IOException, InterruptedException {
        long start = clock.getAsLong();
        int rounds = 0;
        try {
            for (; rounds < ROUNDS; rounds++) {
                for (String query : QUERIES) {
                    String q = URLEncoder.encode(query, StandardCharsets.UTF_8);
                    for (String path : List.of(
                            "/api/v1/search?cache=false&q=" + q,
                            "/api/v1/search?page=1&q=" + q,
                            "/api/v1/search/packages?q=" + q,
                            "/search?q=" + q)) {
                        get(path, left(start, budgetNanos));
                    }
                }
                heavy(left(start, budgetNanos));
            }
        } catch (HttpTimeoutException | TimeoutException e) {
            // the budget is spent
        }
        return new Outcome(ok, failed, rounds, clock.getAsLong() - start);
    }

    /** What is left of the budget, at most {@link #REQUEST_TIMEOUT}; none left is a timeout. */
    private Duration left(long start, long budgetNanos) throws TimeoutException {
        long left = budgetNanos - (clock.getAsLong() - start);
        if (left <= 0) {
            throw new TimeoutException("warm-up budget spent");
        }
        return Duration.ofNanos(Math.min(left, REQUEST_TIMEOUT.toNanos()));
    }

    private void get(String path, Duration timeout) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(self.resolve(path))
                .timeout(timeout)
                .header("Accept-Encoding", "gzip")
                .build();
        int status = http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        if (status == 200) {
            ok++;
        } else {
            failed++;
        }
    }

    /** One capped result-heavy search through the fan-out, its first page read from the tee. */
    private void heavy(Duration timeout) throws IOException, InterruptedException, TimeoutException {
        try (QueryRun run = fanOut.search(HEAVY, true, QueryService.CONTEXT_LINES, timeout, HEAVY_CAPS)) {
            run.completion().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (run.index().size() > 0) {
                QueryService.read(run, 0);
            }
            ok++;
        } catch (ExecutionException e) {
            failed++;
        }
    }
}
