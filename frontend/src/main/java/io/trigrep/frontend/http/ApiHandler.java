package io.trigrep.frontend.http;

import static io.trigrep.frontend.http.Responses.first;
import static io.trigrep.frontend.http.Responses.send;
import static io.trigrep.frontend.http.Responses.write;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.trigrep.frontend.fanout.CorpusStatus;
import io.trigrep.frontend.fanout.FileFetch;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.query.Admission;
import io.trigrep.frontend.query.QueryService;
import io.trigrep.query.QueryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;

/**
 * The JSON API: {@code /api/v1/...}, {@code /healthz}, {@code /readyz} and {@code /metrics}, a
 * view over the {@link QueryService}. Every answer is JSON; every error is JSON with a message and
 * the fitting status (400 for a bad query with the position of the error, 404, 405, 429, 502).
 * Searching never blocks the event loop: the answer is written when the query completes. One for
 * all connections: it keeps no state of its own.
 */
final class ApiHandler {
    /** Ranks a running query answers from the results so far (wait=false): deeper pages wait for the end. */
    static final int MAX_PROVISIONAL_RANKS = 200;

    static final int DEFAULT_PER_PAGE = 10;
    static final int MAX_PER_PAGE = 1000;

    private final QueryService queries;
    private final ExecutorService pages;
    /** A whole file larger than this is not sent in one answer: the client asks for a window or the raw bytes. */
    static final long WHOLE_FILE_MAX_BYTES = 8 << 20;

    static final int MAX_WINDOW_LINES = 10_000;

    ApiHandler(QueryService queries, ExecutorService pages) {
        this.queries = queries;
        this.pages = pages;
    }

    /** Answers the request if it is the API's (a path of its own), and says whether it was. */
    boolean handle(
            ChannelHandlerContext ctx, boolean keepAlive, String client, String path, Map<String, List<String>> params)
            throws IOException {
        switch (path) {
            case "/healthz" -> send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.object("status", "ok"));
            case "/readyz" -> {
                // partial=true: ready while any backend answers (partial results beat none), for
                // load balancers that would otherwise take every frontend out when one shard restarts.
                boolean partial;
                try {
                    partial = new Parameters(params).bool("partial", false);
                } catch (Parameters.Bad e) {
                    send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error(e.getMessage(), 0));
                    return true;
                }
                pages.execute(() -> {
                    QueryService.Ready now = queries.readiness(partial);
                    try {
                        send(
                                ctx,
                                keepAlive,
                                now.ready() ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE,
                                now.disk() != null
                                        ? PageRenderer.object("status", "not ready", "disk", now.disk())
                                        : now.warming()
                                                ? PageRenderer.object("status", "not ready", "reason", "warming up")
                                                : now.unreachable().isEmpty()
                                                        ? PageRenderer.object("status", "ready")
                                                        : PageRenderer.object(
                                                                "status",
                                                                now.ready() ? "ready, partial" : "not ready",
                                                                "unreachable",
                                                                String.join(", ", now.unreachable())));
                    } catch (IOException e) {
                        send(ctx, false, HttpResponseStatus.INTERNAL_SERVER_ERROR, errorBytes(e));
                    }
                });
            }
            case "/api/v1/search" -> search(ctx, keepAlive, client, params, View.RESULTS);
            case "/api/v1/search/packages" -> search(ctx, keepAlive, client, params, View.GROUPED);
            case "/api/v1/search/events" -> search(ctx, keepAlive, client, params, View.EVENTS);
            case "/api/v1/packages" -> search(ctx, keepAlive, client, params, View.PACKAGES);
            case "/api/v1/file" -> file(ctx, keepAlive, params);
            case "/api/v1/file/raw" -> raw(ctx, keepAlive, params);
            case "/api/v1/status" -> {
                CorpusStatus.Snapshot now = queries.corpus();
                if (now != null) {
                    send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.status(now));
                } else {
                    // Before the first refresh ended (just after start): ask the backends now, off the event loop.
                    pages.execute(() -> {
                        try {
                            send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.status(queries.refreshCorpus()));
                        } catch (IOException | RuntimeException e) {
                            send(ctx, false, HttpResponseStatus.INTERNAL_SERVER_ERROR, errorBytes(e));
                        }
                    });
                }
            }
            case "/api/v1/queries" -> send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.queries(queries));
            case "/api/v1/queries/cancel" -> cancel(ctx, keepAlive, params);
            case "/metrics" -> {
                byte[] text = queries.metrics().getBytes(StandardCharsets.UTF_8);
                FullHttpResponse response = Responses.response(HttpResponseStatus.OK, text, Responses.JSON);
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
                write(ctx, keepAlive, response);
            }
            default -> {
                return false;
            }
        }
        return true;
    }

    private void file(ChannelHandlerContext ctx, boolean keepAlive, Map<String, List<String>> params)
            throws IOException {
        String pkg = first(params, "package", null);
        String path = first(params, "path", null);
        String branch = first(params, "branch", "");
        String problem = QueryService.fileProblem(pkg, path);
        if (problem != null) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error(problem, 0));
            return;
        }
        String from = first(params, "from", null);
        String lines = first(params, "lines", null);
        FileFetch.Ask window = null;
        if (from != null || lines != null) {
            try {
                int first = from == null ? 1 : Integer.parseInt(from);
                int count = lines == null ? 1000 : Integer.parseInt(lines);
                int cut = Integer.parseInt(first(params, "max_line_bytes", "0"));
                if (first < 1 || count < 1 || count > MAX_WINDOW_LINES || cut < 0) {
                    throw new NumberFormatException();
                }
                window = FileFetch.Ask.lines(first, count, cut);
            } catch (NumberFormatException e) {
                send(
                        ctx,
                        keepAlive,
                        HttpResponseStatus.BAD_REQUEST,
                        PageRenderer.error(
                                "from must be >= 1, lines in [1, " + MAX_WINDOW_LINES + "] and max_line_bytes >= 0",
                                0));
                return;
            }
        }
        FileFetch.Ask asked = window == null ? null : window.onBranch(branch);
        pages.execute(() -> {
            try {
                FileFetch.Outcome outcome;
                if (asked != null) {
                    outcome = queries.fetch(-1, pkg, path, asked);
                } else {
                    // The whole file, when it is small enough for one answer: its size first, from a one-line window.
                    outcome = queries.fetch(
                            -1, pkg, path, FileFetch.Ask.lines(1, 1, 1).onBranch(branch));
                    if (outcome.content() != null && outcome.totalBytes() > WHOLE_FILE_MAX_BYTES) {
                        send(
                                ctx,
                                keepAlive,
                                HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                                PageRenderer.error(
                                        pkg + "/" + path + " has "
                                                + outcome.totalBytes() + " bytes, more than " + WHOLE_FILE_MAX_BYTES
                                                + " in one answer: ask for a window of"
                                                + " lines (from=1&lines=1000) or stream it from /api/v1/file/raw",
                                        0));
                        return;
                    }
                    if (outcome.content() != null) {
                        outcome = queries.fetch(outcome.backend(), pkg, path, FileFetch.Ask.WHOLE.onBranch(branch));
                    }
                }
                if (outcome.content() != null) {
                    send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.file(pkg, path, new FileView(outcome)));
                } else {
                    send(ctx, keepAlive, Responses.status(outcome.code()), PageRenderer.error(outcome.message(), 0));
                }
            } catch (IOException | RuntimeException e) {
                send(ctx, false, HttpResponseStatus.INTERNAL_SERVER_ERROR, errorBytes(e));
            }
        });
    }

    private void raw(ChannelHandlerContext ctx, boolean keepAlive, Map<String, List<String>> params)
            throws IOException {
        String pkg = first(params, "package", null);
        String path = first(params, "path", null);
        String problem = QueryService.fileProblem(pkg, path);
        if (problem != null) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error(problem, 0));
            return;
        }
        new RawFile(ctx, keepAlive, pages, queries, pkg, path).start();
    }

    /** Cancels the running query {@code q} (in {@code match_mode}): 404 when none runs, 400 for a bad parameter. */
    private void cancel(ChannelHandlerContext ctx, boolean keepAlive, Map<String, List<String>> params)
            throws IOException {
        String query = first(params, "q", first(params, "query", ""));
        String mode;
        try {
            mode = new Parameters(params).choice("match_mode", "regexp", List.of("regexp", "literal"));
            if (query.isBlank()) {
                throw new Parameters.Bad("q must name the running query to cancel");
            }
        } catch (Parameters.Bad e) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error(e.getMessage(), 0));
            return;
        }
        if (queries.cancel(mode, query)) {
            send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.object("status", "cancelled", "query", query));
        } else {
            send(
                    ctx,
                    keepAlive,
                    HttpResponseStatus.NOT_FOUND,
                    PageRenderer.error("no running query '" + query + "'", 0));
        }
    }

    /** What a search answers with: a page of results, a page of packages with their best results, or every package. */
    enum View {
        RESULTS,
        GROUPED,
        PACKAGES,
        EVENTS
    }

    static final int DEFAULT_PER_PACKAGE = 5;
    static final int MAX_PER_PACKAGE = 100;

    @SuppressWarnings(
            "FutureReturnValueIgnored") // a completion callback run for its effect: nothing waits on the stage it
    // returns
    private void search(
            ChannelHandlerContext ctx, boolean keepAlive, String client, Map<String, List<String>> params, View view)
            throws IOException {
        String query = first(params, "q", first(params, "query", null));
        if (query == null || query.isBlank()) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error("missing query: give q=...", 0));
            return;
        }
        Parameters checked = new Parameters(params);
        int page;
        int perPage;
        int perPackage;
        String mode;
        boolean fresh;
        boolean wait;
        try {
            page = checked.integer("page", 0, 0, Integer.MAX_VALUE);
            perPage = checked.integer("per_page", DEFAULT_PER_PAGE, 1, MAX_PER_PAGE);
            perPackage = checked.integer("per_package", DEFAULT_PER_PACKAGE, 1, MAX_PER_PACKAGE);
            // The pages' rank arithmetic is in ints: a page past them overflowed to negative ranks (a 500).
            if (((long) page + 1) * perPage > Integer.MAX_VALUE) {
                throw new Parameters.Bad("(page + 1) * per_page must be at most " + Integer.MAX_VALUE + ", got (" + page
                        + " + 1) * " + perPage);
            }
            mode = checked.choice("match_mode", "regexp", List.of("regexp", "literal"));
            // Identical queries share one run: a running one is joined, a finished one served from
            // disk; only a new one needs to be admitted. cache=false starts one of its own.
            fresh = !checked.bool("cache", true);
            wait = checked.bool("wait", true);
        } catch (Parameters.Bad e) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error(e.getMessage(), 0));
            return;
        }
        QueryCache.Entry entry;
        boolean cached;
        try {
            QueryService.Opened opened = queries.start(client, mode, query, fresh);
            entry = opened.entry();
            cached = opened.cached();
        } catch (QueryException e) {
            if (view == View.EVENTS) {
                EventStream.refuse(
                        ctx, PageRenderer.error(e.getMessage(), e.position())); // as API.md says: an error event
            } else {
                send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error(e.getMessage(), e.position()));
            }
            return;
        } catch (Admission.Rejected e) {
            FullHttpResponse busy = Responses.response(
                    HttpResponseStatus.TOO_MANY_REQUESTS, PageRenderer.error(e.getMessage(), 0), Responses.JSON);
            busy.headers().set(HttpHeaderNames.RETRY_AFTER, Responses.RETRY_AFTER_SECONDS);
            write(ctx, keepAlive, busy);
            return;
        } catch (IOException e) {
            send(
                    ctx,
                    keepAlive,
                    HttpResponseStatus.INTERNAL_SERVER_ERROR,
                    PageRenderer.error("cannot start the query: " + e.getMessage(), 0));
            return;
        }
        int pageNumber = page;
        if (view == View.EVENTS) {
            new EventStream(ctx, queries, entry, perPage).start();
            return;
        }
        RequestSequencer.answersSearch(ctx.channel(), cached);
        if (!wait && !entry.run().completion().isDone()) {
            // Answer at once with what is known: the page among the results so far, provisional.
            // The query runs on and later calls find it. Pages of the grouped views wait for the end.
            int wanted = view == View.RESULTS && pageNumber < MAX_PROVISIONAL_RANKS / perPage
                    ? (pageNumber + 1) * perPage
                    : 0;
            entry.run()
                    .bestSoFar(
                            wanted,
                            best -> pages.execute(() -> {
                                try {
                                    send(
                                            ctx,
                                            keepAlive,
                                            HttpResponseStatus.OK,
                                            PageRenderer.running(
                                                    query,
                                                    entry.run(),
                                                    best.ranks(),
                                                    best.among(),
                                                    pageNumber,
                                                    perPage));
                                } catch (IOException | RuntimeException e) {
                                    send(ctx, false, HttpResponseStatus.INTERNAL_SERVER_ERROR, errorBytes(e));
                                } finally {
                                    queries.release(entry);
                                }
                            }));
            return;
        }
        entry.run()
                .completion()
                .whenCompleteAsync(
                        (done, failure) -> {
                            QueryRun run = entry.run();
                            try {
                                switch (QueryService.outcome(run)) {
                                    case RUNNING ->
                                        throw new IllegalStateException(
                                                "query '" + query + "' ended but reads as running");
                                    case CRASHED ->
                                        send(
                                                ctx,
                                                keepAlive,
                                                HttpResponseStatus.INTERNAL_SERVER_ERROR,
                                                PageRenderer.error(failure.toString(), 0));
                                    case BAD_QUERY ->
                                        send(
                                                ctx,
                                                keepAlive,
                                                HttpResponseStatus.BAD_REQUEST,
                                                PageRenderer.error(run.errorMessage(), run.errorPosition()));
                                    case DISK_FULL ->
                                        send(
                                                ctx,
                                                keepAlive,
                                                HttpResponseStatus.SERVICE_UNAVAILABLE,
                                                PageRenderer.error(run.diskFailure(), 0));
                                    case NO_SHARD ->
                                        send(
                                                ctx,
                                                keepAlive,
                                                HttpResponseStatus.BAD_GATEWAY,
                                                PageRenderer.error(
                                                        "every backend failed: "
                                                                + run.failed()
                                                                        .get(0)
                                                                        .reason(),
                                                        0));
                                    case ANSWERED -> {
                                        byte[] body = switch (view) {
                                            case RESULTS, EVENTS -> PageRenderer.page(query, run, pageNumber, perPage);
                                            case GROUPED ->
                                                PageRenderer.grouped(query, run, pageNumber, perPage, perPackage);
                                            case PACKAGES -> PageRenderer.packages(query, run);
                                        };
                                        send(ctx, keepAlive, HttpResponseStatus.OK, body);
                                    }
                                }
                            } catch (IOException | RuntimeException e) {
                                send(ctx, false, HttpResponseStatus.INTERNAL_SERVER_ERROR, errorBytes(e));
                            } finally {
                                queries.release(entry);
                            }
                        },
                        pages);
    }

    private static byte[] errorBytes(Exception e) {
        try {
            return PageRenderer.error("cannot render the page: " + e.getMessage(), 0);
        } catch (IOException impossible) {
            return "{\"error\":\"internal\"}".getBytes(StandardCharsets.UTF_8);
        }
    }
}
