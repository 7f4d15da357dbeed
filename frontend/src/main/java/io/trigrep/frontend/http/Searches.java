package io.trigrep.frontend.http;

import io.trigrep.backend.query.QueryException;
import io.trigrep.backend.query.QueryParser;
import io.trigrep.backend.query.SearchSpec;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.fanout.QueryCaps;
import io.trigrep.frontend.fanout.QueryRun;
import java.io.IOException;
import java.time.Duration;

/**
 * Starts searches for the API and the web UI alike: checks the query with the backends' own code
 * (a bad one is refused here, before any backend is asked; a full scan is known as one), then
 * joins a running identical query or serves a finished one, or admits a new one
 * ({@link Admission}) under the per-query {@link QueryCaps}.
 */
final class Searches {
    static final Duration DEADLINE = Duration.ofSeconds(30);
    /** Context lines asked of the backends per result. */
    static final int CONTEXT_LINES = 2;

    private final FanOut fanOut;
    private final QueryCache cache;
    private final Admission admission;
    private final ClientAddress clients;
    private final QueryCaps caps;

    Searches(FanOut fanOut, QueryCache cache, Admission admission, ClientAddress clients, QueryCaps caps) {
        this.fanOut = fanOut;
        this.cache = cache;
        this.admission = admission;
        this.clients = clients;
        this.caps = caps;
    }

    ClientAddress clients() {
        return clients;
    }

    /**
     * The entry for the query, to {@link QueryCache#release} once read. Throws the query's error,
     * or why a new search was not admitted; a running or finished identical query is never refused.
     */
    QueryCache.Entry start(String client, String mode, String query, boolean fresh) throws IOException, QueryException, Admission.Rejected {
        String text = query.strip();
        boolean literal = mode.equals("literal");
        // The backends would refuse it in the same words; refused here, it costs them nothing.
        // Parsing and planning are bounded by the query's length (4,096) and program size (20,000).
        SearchSpec spec = SearchSpec.of(QueryParser.parse(text, literal), 1, DEADLINE.toNanos(), CONTEXT_LINES);
        return cache.acquire(ApiHandler.queryKey(mode, query), fresh, () -> {
            Admission.Ticket ticket = admission.admit(client, spec.fullScan());
            QueryRun run;
            try {
                run = fanOut.search(text, literal, CONTEXT_LINES, DEADLINE, caps);
            } catch (IOException | RuntimeException e) {
                ticket.release();
                throw e;
            }
            run.completion().whenComplete((done, failure) -> ticket.release());
            return run;
        });
    }
}
