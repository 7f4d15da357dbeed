package io.trigrep.frontend.http;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.FileFetch;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.fanout.Readiness;
import io.trigrep.proto.Failure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import io.trigrep.backend.query.QueryException;

import static io.trigrep.frontend.http.Responses.first;
import static io.trigrep.frontend.http.Responses.send;
import static io.trigrep.frontend.http.Responses.write;

/**
 * Routes HTTP requests: {@code /api/v1/...}, {@code /healthz}, {@code /readyz}, {@code /metrics},
 * and hands the rest to the {@link WebUi}. Every API answer is JSON; every error is JSON with a
 * message and the fitting status (400 for a bad query with the position of the error, 404, 405,
 * 429, 502). Searching never blocks the event loop: the
 * answer is written when the query completes.
 */
final class ApiHandler extends SimpleChannelInboundHandler<FullHttpRequest> {
    static final int DEFAULT_PER_PAGE = 10;
    static final int MAX_PER_PAGE = 1000;

    private final FanOut fanOut;
    private final QueryCache cache;
    private final ExecutorService pages;
    private final Searches searches;
    private final WebUi ui;
    private final io.trigrep.frontend.fanout.CorpusStatus corpus;
    /** A whole file larger than this is not sent in one answer: the client asks for a window or the raw bytes. */
    static final long WHOLE_FILE_MAX_BYTES = 8 << 20;
    static final int MAX_WINDOW_LINES = 10_000;

    ApiHandler(FanOut fanOut, QueryCache cache, ExecutorService pages, Searches searches, WebUi ui,
               io.trigrep.frontend.fanout.CorpusStatus corpus) {
        this.corpus = corpus;
        this.fanOut = fanOut;
        this.cache = cache;
        this.pages = pages;
        this.searches = searches;
        this.ui = ui;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) throws IOException {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (!request.decoderResult().isSuccess()) {
            Throwable cause = request.decoderResult().cause();
            if (cause instanceof TooLongHttpLineException) {
                send(ctx, false, HttpResponseStatus.REQUEST_URI_TOO_LONG,
                        PageRenderer.error("request line longer than " + FrontendServer.MAX_INITIAL_LINE + " bytes", 0));
            } else if (cause instanceof TooLongHttpHeaderException) {
                send(ctx, false, HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                        PageRenderer.error("headers longer than " + FrontendServer.MAX_HEADER_BYTES + " bytes", 0));
            } else {
                send(ctx, false, HttpResponseStatus.BAD_REQUEST, PageRenderer.error("malformed HTTP request", 0));
            }
            return;
        }
        boolean cancel = request.uri().startsWith("/api/v1/queries/cancel");
        if (cancel ? request.method() != HttpMethod.POST : request.method() != HttpMethod.GET && request.method() != HttpMethod.HEAD) {
            send(ctx, keepAlive, HttpResponseStatus.METHOD_NOT_ALLOWED,
                    PageRenderer.error(cancel ? "cancel with POST" : "only GET is supported here", 0));
            return;
        }
        QueryStringDecoder uri;
        try {
            uri = new QueryStringDecoder(request.uri(), StandardCharsets.UTF_8);
            uri.parameters();
            if (!percentDecodesToUtf8(request.uri())) {
                // The decoder would make each bad byte U+FFFD and search for that: say so instead.
                send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error("invalid URL: not UTF-8 once percent-decoded", 0));
                return;
            }
        } catch (IllegalArgumentException e) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error("invalid URL: " + e.getMessage(), 0));
            return;
        }
        switch (uri.path()) {
            case "/healthz" -> send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.object("status", "ok"));
            case "/readyz" -> pages.execute(() -> {
                List<String> down = Readiness.unreachable(fanOut.backends(), fanOut.tls(), 1000);
                // partial=true: ready while any backend answers (partial results beat none), for
                // load balancers that would otherwise take every frontend out when one shard restarts.
                boolean partialOk = "true".equals(first(uri.parameters(), "partial", "false"));
                String disk = cache.diskShortage();
                boolean ready = disk == null && (down.isEmpty() || partialOk && down.size() < fanOut.backends().size());
                try {
                    send(ctx, keepAlive, ready ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE,
                            disk != null ? PageRenderer.object("status", "not ready", "disk", disk)
                                    : down.isEmpty() ? PageRenderer.object("status", "ready")
                                    : PageRenderer.object("status", ready ? "ready, partial" : "not ready", "unreachable", String.join(", ", down)));
                } catch (IOException e) {
                    send(ctx, false, HttpResponseStatus.INTERNAL_SERVER_ERROR, errorBytes(e));
                }
            });
            case "/api/v1/search" -> search(ctx, keepAlive, client(ctx, request), uri.parameters(), View.RESULTS);
            case "/api/v1/search/packages" -> search(ctx, keepAlive, client(ctx, request), uri.parameters(), View.GROUPED);
            case "/api/v1/search/events" -> search(ctx, keepAlive, client(ctx, request), uri.parameters(), View.EVENTS);
            case "/api/v1/packages" -> search(ctx, keepAlive, client(ctx, request), uri.parameters(), View.PACKAGES);
            case "/api/v1/file" -> file(ctx, keepAlive, uri.parameters());
            case "/api/v1/file/raw" -> raw(ctx, keepAlive, uri.parameters());
            case "/api/v1/status" -> {
                io.trigrep.frontend.fanout.CorpusStatus.Snapshot now = corpus.latest();
                if (now != null) {
                    send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.status(now));
                } else {
                    // Before the first refresh ended (just after start): ask the backends now, off the event loop.
                    pages.execute(() -> {
                        try {
                            send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.status(corpus.refresh()));
                        } catch (IOException | RuntimeException e) {
                            send(ctx, false, HttpResponseStatus.INTERNAL_SERVER_ERROR, errorBytes(e));
                        }
                    });
                }
            }
            case "/api/v1/queries" -> send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.queries(cache));
            case "/api/v1/queries/cancel" -> {
                String query = first(uri.parameters(), "q", first(uri.parameters(), "query", ""));
                QueryRun running = cache.runningQuery(queryKey(first(uri.parameters(), "match_mode", "regexp"), query));
                if (running == null) {
                    send(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, PageRenderer.error("no running query '" + query + "'", 0));
                } else {
                    running.cancel();
                    send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.object("status", "cancelled", "query", query));
                }
            }
            case "/metrics" -> {
                byte[] text = fanOut.metrics().scrape().getBytes(StandardCharsets.UTF_8);
                FullHttpResponse response = Responses.response(HttpResponseStatus.OK, text, Responses.JSON);
                response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8");
                write(ctx, keepAlive, response);
            }
            default -> {
                if (!ui.handle(ctx, keepAlive, request, client(ctx, request), uri.path(), uri.parameters())) {
                    send(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, PageRenderer.error("no such endpoint: " + uri.path(), 0));
                }
            }
        }
    }

    private void file(ChannelHandlerContext ctx, boolean keepAlive, Map<String, List<String>> params) throws IOException {
        String pkg = first(params, "package", null);
        String path = first(params, "path", null);
        String problem = fileProblem(pkg, path);
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
                send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error("from must be >= 1, lines in [1, " + MAX_WINDOW_LINES
                        + "] and max_line_bytes >= 0", 0));
                return;
            }
        }
        FileFetch.Ask asked = window;
        pages.execute(() -> {
            try {
                FileFetch.Outcome outcome;
                if (asked != null) {
                    outcome = FileFetch.fetch(fanOut.backends(), fanOut.tls(), -1, pkg, path, asked, 1000);
                } else {
                    // The whole file, when it is small enough for one answer: its size first, from a one-line window.
                    outcome = FileFetch.fetch(fanOut.backends(), fanOut.tls(), -1, pkg, path, FileFetch.Ask.lines(1, 1, 1), 1000);
                    if (outcome.content() != null && outcome.totalBytes() > WHOLE_FILE_MAX_BYTES) {
                        send(ctx, keepAlive, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, PageRenderer.error(pkg + "/" + path + " has "
                                + outcome.totalBytes() + " bytes, more than " + WHOLE_FILE_MAX_BYTES + " in one answer: ask for a window of"
                                + " lines (from=1&lines=1000) or stream it from /api/v1/file/raw", 0));
                        return;
                    }
                    if (outcome.content() != null) {
                        outcome = FileFetch.fetch(fanOut.backends(), fanOut.tls(), outcome.backend(), pkg, path, FileFetch.Ask.WHOLE, 1000);
                    }
                }
                if (outcome.content() != null) {
                    send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.file(pkg, path, new FileView(outcome)));
                } else {
                    send(ctx, keepAlive, status(outcome.code()), PageRenderer.error(outcome.message(), 0));
                }
            } catch (IOException | RuntimeException e) {
                send(ctx, false, HttpResponseStatus.INTERNAL_SERVER_ERROR, errorBytes(e));
            }
        });
    }

    /** The HTTP status for a fetch that found no file. */
    static HttpResponseStatus status(Failure.Code code) {
        return code == Failure.Code.NOT_FOUND ? HttpResponseStatus.NOT_FOUND
                : code == Failure.Code.BAD_REQUEST ? HttpResponseStatus.BAD_REQUEST : HttpResponseStatus.BAD_GATEWAY;
    }

    private void raw(ChannelHandlerContext ctx, boolean keepAlive, Map<String, List<String>> params) throws IOException {
        String pkg = first(params, "package", null);
        String path = first(params, "path", null);
        String problem = fileProblem(pkg, path);
        if (problem != null) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error(problem, 0));
            return;
        }
        new RawFile(ctx, keepAlive, pages, fanOut.backends(), fanOut.tls(), pkg, path).start();
    }

    /** Why a file request cannot be sent to a backend, or null when it can. */
    static String fileProblem(String pkg, String path) {
        if (pkg == null || path == null || pkg.isEmpty() || path.isEmpty() || path.startsWith("/") || pkg.contains("/")
                || List.of(path.split("/", -1)).contains("..") || pkg.equals("..") || path.length() > 4096) {
            return "give package=NAME and a relative path=P without ..";
        }
        return null;
    }

    /** What a search answers with: a page of results, a page of packages with their best results, or every package. */
    enum View { RESULTS, GROUPED, PACKAGES, EVENTS }

    static final int DEFAULT_PER_PACKAGE = 5;
    static final int MAX_PER_PACKAGE = 100;

    /** Whose request this is, for the per-client share: see {@link ClientAddress}. */
    private String client(ChannelHandlerContext ctx, FullHttpRequest request) {
        return searches.clients().of(ctx.channel().remoteAddress(), request.headers().get("X-Forwarded-For"));
    }

    private void search(ChannelHandlerContext ctx, boolean keepAlive, String client, Map<String, List<String>> params, View view)
            throws IOException {
        String query = first(params, "q", first(params, "query", null));
        if (query == null || query.isBlank()) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error("missing query: give q=...", 0));
            return;
        }
        int page;
        int perPage;
        int perPackage;
        try {
            page = Integer.parseInt(first(params, "page", "0"));
            perPage = Integer.parseInt(first(params, "per_page", Integer.toString(DEFAULT_PER_PAGE)));
            perPackage = Integer.parseInt(first(params, "per_package", Integer.toString(DEFAULT_PER_PACKAGE)));
        } catch (NumberFormatException e) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error("page, per_page and per_package must be integers", 0));
            return;
        }
        if (perPackage < 1 || perPackage > MAX_PER_PACKAGE) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error("per_package must be in [1, " + MAX_PER_PACKAGE + "]", 0));
            return;
        }
        if (page < 0 || perPage < 1 || perPage > MAX_PER_PAGE) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST,
                    PageRenderer.error("page must be >= 0 and per_page in [1, " + MAX_PER_PAGE + "]", 0));
            return;
        }
        String mode = first(params, "match_mode", "regexp");
        if (!mode.equals("regexp") && !mode.equals("literal")) {
            send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error("match_mode must be literal or regexp", 0));
            return;
        }
        // Identical queries share one run: a running one is joined, a finished one served from disk;
        // only a new one needs to be admitted.
        boolean fresh = "false".equals(first(params, "cache", "true"));
        QueryCache.Entry entry;
        try {
            entry = searches.start(client, mode, query, fresh);
        } catch (QueryException e) {
            if (view == View.EVENTS) {
                EventStream.refuse(ctx, PageRenderer.error(e.getMessage(), e.position())); // as API.md says: an error event
            } else {
                send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error(e.getMessage(), e.position()));
            }
            return;
        } catch (Admission.Rejected e) {
            FullHttpResponse busy = Responses.response(HttpResponseStatus.TOO_MANY_REQUESTS, PageRenderer.error(e.getMessage(), 0),
                    Responses.JSON);
            busy.headers().set(HttpHeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
            write(ctx, keepAlive, busy);
            return;
        } catch (IOException e) {
            send(ctx, keepAlive, HttpResponseStatus.INTERNAL_SERVER_ERROR, PageRenderer.error("cannot start the query: " + e.getMessage(), 0));
            return;
        }
        int pageNumber = page;
        if (view == View.EVENTS) {
            new EventStream(ctx, cache, entry, query, perPage).start();
            return;
        }
        boolean wait = !"false".equals(first(params, "wait", "true"));
        if (!wait && !entry.run().completion().isDone()) {
            // Answer at once with what is known; the query runs on and later calls find it.
            pages.execute(() -> {
                try {
                    send(ctx, keepAlive, HttpResponseStatus.OK, PageRenderer.running(query, entry.run()));
                } catch (IOException | RuntimeException e) {
                    send(ctx, false, HttpResponseStatus.INTERNAL_SERVER_ERROR, errorBytes(e));
                } finally {
                    cache.release(entry);
                }
            });
            return;
        }
        entry.run().completion().whenCompleteAsync((done, failure) -> {
            try {
                if (failure != null) {
                    send(ctx, keepAlive, HttpResponseStatus.INTERNAL_SERVER_ERROR, PageRenderer.error(failure.toString(), 0));
                } else if (done.errorCode() == Failure.Code.BAD_QUERY) {
                    send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, PageRenderer.error(done.errorMessage(), done.errorPosition()));
                } else if (done.diskFailure() != null) {
                    send(ctx, keepAlive, HttpResponseStatus.SERVICE_UNAVAILABLE, PageRenderer.error(done.diskFailure(), 0));
                } else if (done.failed().size() == done.statuses().size()) {
                    send(ctx, keepAlive, HttpResponseStatus.BAD_GATEWAY, PageRenderer.error("every backend failed: "
                            + done.failed().get(0).reason(), 0));
                } else {
                    byte[] body = switch (view) {
                        case RESULTS, EVENTS -> PageRenderer.page(query, done, pageNumber, perPage);
                        case GROUPED -> PageRenderer.grouped(query, done, pageNumber, perPage, perPackage);
                        case PACKAGES -> PageRenderer.packages(query, done);
                    };
                    send(ctx, keepAlive, HttpResponseStatus.OK, body);
                }
            } catch (IOException | RuntimeException e) {
                send(ctx, false, HttpResponseStatus.INTERNAL_SERVER_ERROR, errorBytes(e));
            } finally {
                cache.release(entry);
            }
        }, pages);
    }

    /** Identical queries share one run: the key is the mode and the query without outer blanks. */
    static String queryKey(String mode, String query) {
        return mode + "\u0000" + query.strip();
    }

    /** Searches end within the 30 s deadline, most within a second: a refused client may try again after one. */
    static final String RETRY_AFTER_SECONDS = "1";

    private static byte[] errorBytes(Exception e) {
        try {
            return PageRenderer.error("cannot render the page: " + e.getMessage(), 0);
        } catch (IOException impossible) {
            return "{\"error\":\"internal\"}".getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Whether the URL's bytes, percent escapes decoded, are valid UTF-8. */
    static boolean percentDecodesToUtf8(String uri) {
        // ISO-8859-1 maps each decoded byte to one char, so the bytes come back unchanged.
        byte[] bytes = QueryStringDecoder.decodeComponent(uri, StandardCharsets.ISO_8859_1).getBytes(StandardCharsets.ISO_8859_1);
        try {
            StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes));
            return true;
        } catch (java.nio.charset.CharacterCodingException e) {
            return false;
        }
    }
}
