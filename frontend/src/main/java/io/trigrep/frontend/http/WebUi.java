package io.trigrep.frontend.http;

import static io.trigrep.frontend.http.Responses.first;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.trigrep.frontend.fanout.FileFetch;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.query.Admission;
import io.trigrep.frontend.query.QueryService;
import io.trigrep.proto.Failure;
import io.trigrep.query.QueryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The web UI's routes: {@code /} (the search page), {@code /search} (results, server-rendered),
 * {@code /show} (a file), {@code /raw} and the two static assets; a view over the
 * {@link QueryService}, as the JSON API is. Pages render on the pages pool, never on the event loop.
 */
final class WebUi {
    /** A query that finishes within this long is answered with its results, without a progress page in between. */
    static final long FAST_MILLIS = 250;

    static final String CSP =
            "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
                    + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    @SuppressWarnings("ArrayRecordComponent") // parallel arrays by design: a carrier, never compared
    private record Asset(byte[] bytes, String type, String etag) {}

    private static final Map<String, Asset> ASSETS = Map.of(
            "/static/app.js", asset("ui/app.js", "text/javascript; charset=utf-8"),
            "/static/style.css", asset("ui/style.css", "text/css; charset=utf-8"));

    private final QueryService queries;
    private final ExecutorService pages;

    private final HtmlPages ui;

    WebUi(QueryService queries, ExecutorService pages) {
        this.ui = new HtmlPages(queries::corpus);
        this.queries = queries;
        this.pages = pages;
    }

    /** Answers the request if it is the UI's, and says whether it was. */
    boolean handle(
            ChannelHandlerContext ctx,
            boolean keepAlive,
            FullHttpRequest request,
            String client,
            String path,
            Map<String, List<String>> params) {
        switch (path) {
            case "/" -> html(ctx, keepAlive, HttpResponseStatus.OK, ui.home());
            case "/search" -> search(ctx, keepAlive, client, params);
            case "/show" -> show(ctx, keepAlive, params);
            case "/raw" -> {
                String problem = QueryService.fileProblem(first(params, "package", null), first(params, "path", null));
                if (problem != null) {
                    html(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, ui.notice(null, "Not a file", problem, null));
                } else {
                    new RawFile(ctx, keepAlive, pages, queries, first(params, "package", ""), first(params, "path", ""))
                            .start();
                }
            }
            default -> {
                Asset asset = ASSETS.get(path);
                if (asset == null) {
                    return false;
                }
                serve(ctx, keepAlive, request, asset);
            }
        }
        return true;
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // a completion callback run for its effect: nothing waits on the stage it
    // returns
    private void search(ChannelHandlerContext ctx, boolean keepAlive, String client, Map<String, List<String>> params) {
        String query = first(params, "q", "");
        if (query.isBlank()) {
            FullHttpResponse redirect = Responses.response(HttpResponseStatus.FOUND, new byte[0], Responses.HTML);
            redirect.headers().set(HttpHeaderNames.LOCATION, "/");
            Responses.write(ctx, keepAlive, redirect);
            return;
        }
        UiQuery q;
        try {
            Parameters checked = new Parameters(params);
            q = new UiQuery(
                    query,
                    literal(checked),
                    checked.choice("view", "rank", UiQuery.VIEWS),
                    checked.integer("page", 1, 1, Integer.MAX_VALUE));
        } catch (Parameters.Bad e) {
            badParameter(ctx, keepAlive, null, e);
            return;
        }
        QueryCache.Entry entry;
        boolean cached;
        try {
            QueryService.Opened opened = queries.start(client, q.literal() ? "literal" : "regexp", query, false);
            entry = opened.entry();
            cached = opened.cached();
        } catch (QueryException e) {
            html(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, ui.queryError(q, e.getMessage(), e.position()));
            return;
        } catch (Admission.Rejected e) {
            FullHttpResponse busy = htmlResponse(
                    HttpResponseStatus.TOO_MANY_REQUESTS,
                    ui.notice(
                            q,
                            "Too busy right now",
                            "trigrep cannot start this search now: " + e.getMessage() + ".",
                            q.href(q.view(), q.page())));
            busy.headers().set(HttpHeaderNames.RETRY_AFTER, Responses.RETRY_AFTER_SECONDS);
            Responses.write(ctx, keepAlive, busy);
            return;
        } catch (IOException e) {
            html(
                    ctx,
                    keepAlive,
                    HttpResponseStatus.INTERNAL_SERVER_ERROR,
                    ui.notice(q, "Cannot start the query", e.getMessage(), q.href(q.view(), q.page())));
            return;
        }
        RequestSequencer.answersSearch(ctx.channel(), cached);
        // Whichever comes first: the query's end (results at once) or FAST_MILLIS (a live progress page).
        AtomicBoolean answered = new AtomicBoolean();
        Runnable answer = () -> {
            if (answered.compareAndSet(false, true)) {
                pages.execute(() -> {
                    try {
                        answer(ctx, keepAlive, q, entry.run());
                    } finally {
                        queries.release(entry);
                    }
                });
            }
        };
        var timer = ctx.executor().schedule(answer, FAST_MILLIS, TimeUnit.MILLISECONDS);
        entry.run().completion().whenComplete((run, failure) -> {
            timer.cancel(false);
            answer.run();
        });
    }

    private void answer(ChannelHandlerContext ctx, boolean keepAlive, UiQuery q, QueryRun run) {
        try {
            switch (QueryService.outcome(run)) {
                case RUNNING -> html(ctx, keepAlive, HttpResponseStatus.OK, ui.running(q, run));
                case CRASHED ->
                    html(
                            ctx,
                            keepAlive,
                            HttpResponseStatus.INTERNAL_SERVER_ERROR,
                            ui.notice(
                                    q,
                                    "The query failed",
                                    "Something went wrong in the frontend; try again.",
                                    q.href(q.view(), q.page())));
                case BAD_QUERY ->
                    html(
                            ctx,
                            keepAlive,
                            HttpResponseStatus.BAD_REQUEST,
                            ui.queryError(q, run.errorMessage(), run.errorPosition()));
                case DISK_FULL ->
                    html(
                            ctx,
                            keepAlive,
                            HttpResponseStatus.SERVICE_UNAVAILABLE,
                            ui.notice(
                                    q,
                                    "The frontend's disk is full",
                                    "This server could not store the results (" + run.diskFailure()
                                            + "); its operators are told. Try again later.",
                                    q.href(q.view(), q.page())));
                case NO_SHARD ->
                    html(
                            ctx,
                            keepAlive,
                            HttpResponseStatus.BAD_GATEWAY,
                            ui.notice(
                                    q,
                                    "No shard answered",
                                    "Every one of the " + run.statuses().size() + " shards failed (first: "
                                            + run.failed().get(0).reason() + "). Try again in a moment.",
                                    q.href(q.view(), q.page())));
                case ANSWERED -> {
                    byte[] page = switch (q.view()) {
                        case "packages" -> ui.grouped(q, run);
                        case "list" -> ui.packageList(q, run);
                        default -> ui.results(q, run);
                    };
                    html(ctx, keepAlive, HttpResponseStatus.OK, page);
                }
            }
        } catch (IOException | RuntimeException e) {
            html(
                    ctx,
                    false,
                    HttpResponseStatus.INTERNAL_SERVER_ERROR,
                    ui.notice(
                            q,
                            "Cannot show this page",
                            "Reading the results back failed.",
                            q.href(q.view(), q.page())));
        }
    }

    /** Lines in one window of the file view, and where each is cut: a page stays small whatever the file. */
    static final int WINDOW_LINES = 1000;

    static final int WINDOW_LINE_BYTES = 10_000;

    private void show(ChannelHandlerContext ctx, boolean keepAlive, Map<String, List<String>> params) {
        String pkg = first(params, "package", "");
        String path = first(params, "path", "");
        String branch = first(params, "branch", "");
        String query = first(params, "q", "");
        UiQuery back;
        int target;
        int from;
        try {
            Parameters checked = new Parameters(params);
            back = query.isBlank() ? null : new UiQuery(query, literal(checked), "rank", 1);
            // The line to show comes as line= (a #L fragment never reaches the server); from= pages through
            // windows. Either is 0 or absent when not given.
            target = checked.integer("line", 0, 0, Integer.MAX_VALUE);
            from = checked.integer("from", 0, 0, Integer.MAX_VALUE);
        } catch (Parameters.Bad e) {
            badParameter(ctx, keepAlive, null, e);
            return;
        }
        String problem = QueryService.fileProblem(pkg, path);
        if (problem != null) {
            html(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, ui.notice(back, "Not a file", problem, null));
            return;
        }
        int firstLine = from > 0 ? from : Math.max(1, target - WINDOW_LINES / 2);
        pages.execute(() -> {
            FileFetch.Outcome outcome = queries.fetch(
                    -1,
                    pkg,
                    path,
                    FileFetch.Ask.lines(firstLine, WINDOW_LINES, WINDOW_LINE_BYTES)
                            .onBranch(branch));
            if (outcome.content() != null) {
                html(
                        ctx,
                        keepAlive,
                        HttpResponseStatus.OK,
                        ui.file(pkg, path, new FileView(outcome), back, target, WINDOW_LINES));
            } else if (outcome.code() == Failure.Code.NOT_FOUND) {
                html(
                        ctx,
                        keepAlive,
                        HttpResponseStatus.NOT_FOUND,
                        ui.notice(back, "No such file", outcome.message(), null));
            } else {
                html(
                        ctx,
                        keepAlive,
                        outcome.code() == Failure.Code.BAD_REQUEST
                                ? HttpResponseStatus.BAD_REQUEST
                                : HttpResponseStatus.BAD_GATEWAY,
                        ui.notice(back, "Cannot show the file", outcome.message(), null));
            }
        });
    }

    /** The query's mode: the search form's checkbox sends {@code mode=literal}, or nothing. */
    private static boolean literal(Parameters checked) throws Parameters.Bad {
        return checked.choice("mode", "regexp", List.of("regexp", "literal")).equals("literal");
    }

    private void badParameter(ChannelHandlerContext ctx, boolean keepAlive, UiQuery q, Parameters.Bad e) {
        html(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, ui.notice(q, "Bad request", e.getMessage(), null));
    }

    private static void serve(ChannelHandlerContext ctx, boolean keepAlive, FullHttpRequest request, Asset asset) {
        FullHttpResponse response;
        if (matches(request.headers().get(HttpHeaderNames.IF_NONE_MATCH), asset.etag())) {
            response = Responses.response(HttpResponseStatus.NOT_MODIFIED, new byte[0], asset.type());
        } else {
            response = Responses.response(HttpResponseStatus.OK, asset.bytes(), asset.type());
        }
        response.headers().set(HttpHeaderNames.ETAG, asset.etag());
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
        Responses.write(ctx, keepAlive, response);
    }

    /**
     * Whether {@code ifNoneMatch} names {@code etag} by RFC 9110's weak comparison: {@code *}, or
     * any tag of the list, {@code W/} or not. The tags are weak: gzip and plain bytes share one.
     */
    static boolean matches(String ifNoneMatch, String etag) {
        if (ifNoneMatch == null) {
            return false;
        }
        String own = etag.startsWith("W/") ? etag.substring(2) : etag;
        for (String tag : ifNoneMatch.split(",", -1)) {
            String t = tag.strip();
            if (t.equals("*") || (t.startsWith("W/") ? t.substring(2) : t).equals(own)) {
                return true;
            }
        }
        return false;
    }

    private static FullHttpResponse htmlResponse(HttpResponseStatus status, byte[] page) {
        FullHttpResponse response = Responses.response(status, page, Responses.HTML);
        response.headers().set("Content-Security-Policy", CSP);
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-store");
        return response;
    }

    private static void html(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, byte[] page) {
        Responses.write(ctx, keepAlive, htmlResponse(status, page));
    }

    private static Asset asset(String name, String type) {
        try (InputStream in = WebUi.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing UI asset " + name + " on the classpath");
            }
            byte[] bytes = in.readAllBytes();
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(bytes);
            // Weak: the compressor may send these bytes gzipped under the same tag.
            return new Asset(bytes, type, "W/\"" + HexFormat.of().formatHex(digest, 0, 12) + "\"");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
