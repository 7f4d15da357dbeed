package io.trigrep.backend.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.timeout.IdleStateEvent;
import io.trigrep.backend.search.FileWindow;
import io.trigrep.backend.search.FrameSink;
import io.trigrep.backend.search.Parallelism;
import io.trigrep.backend.search.SearchExecution;
import io.trigrep.backend.search.SearchSpec;
import io.trigrep.backend.search.ShardPaths;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.segments.LiveShard;
import io.trigrep.indexer.segments.Segment;
import io.trigrep.indexer.symbols.Symbols;
import io.trigrep.proto.Failure;
import io.trigrep.proto.FetchFile;
import io.trigrep.proto.File;
import io.trigrep.proto.Filter;
import io.trigrep.proto.Framing;
import io.trigrep.proto.MalformedFrame;
import io.trigrep.proto.MalformedMessageException;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.SearchRequest;
import io.trigrep.proto.Status;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.ParsedQuery;
import io.trigrep.query.QueryException;
import io.trigrep.query.QueryFields;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.capnproto.MessageBuilder;

/**
 * One connection: answers requests one at a time, in order, for as long as the client keeps the
 * connection (a frontend reuses it; a one-shot client closes after the last message). A search
 * streams until done; ping and fetchFile are answered by one message. A request that arrives
 * while another is being answered, or anything malformed, gets an error message (never an
 * exception up the pipeline) and the connection is closed after it. A connection idle for 30 s
 * between requests is closed. Each request reads the generation of the shard that was current
 * when it arrived, held until its answer ends (or is abandoned), whatever is served meanwhile.
 */
final class RequestHandler extends ChannelInboundHandlerAdapter implements FrameSink {
    private final BackendConfig config;
    private final AtomicInteger inFlight;
    private final Backend backend;
    private ChannelHandlerContext ctx;
    private boolean busy;
    private boolean closing;
    private boolean inputClosed;
    private SearchExecution execution;

    RequestHandler(Backend backend) {
        this.backend = backend;
        this.config = backend.config();
        this.inFlight = backend.inFlight();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closing) {
            release(msg);
            return;
        }
        if (msg instanceof MalformedFrame bad) {
            closing = true;
            error(Failure.Code.BAD_REQUEST, "malformed request frame: " + bad.reason(), 0);
            return;
        }
        if (busy) {
            release(msg);
            closing = true;
            if (execution != null) {
                execution.cancel();
            }
            ctx.close();
            return;
        }
        busy = true;
        ByteBuf frame = (ByteBuf) msg;
        try {
            Request.Reader request = Messages.request(Framing.read(frame, BackendServerInitializer.REQUEST_LIMITS));
            // A ping asks whether the shard is ready, which it is not while warming up; searches are answered
            // meanwhile.
            boolean ping = request.which() == Request.Which.PING || request.which() == Request.Which.HEARTBEAT;
            if (request.which() == Request.Which.HEARTBEAT) {
                backend.frontends()
                        .heard(
                                request.getHeartbeat().getFrontend(),
                                request.getHeartbeat().getKnown());
            }
            String refusal =
                    ping ? backend.check().readiness() : backend.check().refusal();
            if (refusal != null && request.which() != Request.Which._NOT_IN_SCHEMA) {
                backend.metrics()
                        .refused(
                                backend.check().corrupt()
                                        ? "corrupt"
                                        : backend.check().isWarming() ? "warming" : "verifying");
                error(backend.check().corrupt() ? Failure.Code.INTERNAL : Failure.Code.OVERLOADED, refusal, 0);
                return;
            }
            switch (request.which()) {
                case SEARCH -> search(request.getSearch());
                case FETCH_FILE -> fetch(request.getFetchFile());
                case PING, HEARTBEAT -> status();
                case _NOT_IN_SCHEMA -> error(Failure.Code.BAD_REQUEST, "unknown request kind", 0);
            }
        } catch (MalformedMessageException e) {
            closing = true;
            error(Failure.Code.BAD_REQUEST, e.getMessage(), 0);
        } catch (Exception e) {
            error(Failure.Code.INTERNAL, e.getMessage() == null ? e.toString() : e.getMessage(), 0);
        } finally {
            frame.release();
        }
    }

    private void search(SearchRequest.Reader request) {
        Served served = backend.generations().acquire();
        boolean started = false;
        try {
            started = search(request, served);
        } finally {
            if (!started) {
                served.release();
            }
        }
    }

    /** Starts the search on {@code served}, which it releases when it ends; false when refused before. */
    private boolean search(SearchRequest.Reader request, Served served) {
        LiveShard live = served.live();
        CompiledQuery compiled;
        try {
            compiled = CompiledQuery.of(parse(request));
        } catch (QueryException e) {
            backend.metrics().refused("bad_query");
            error(Failure.Code.BAD_QUERY, e.getMessage(), e.position());
            return false;
        }
        SearchSpec spec = new SearchSpec(
                compiled,
                maxResults(request, compiled.query().count()),
                deadlineNanos(request),
                Math.min(request.getContextLines(), config.maxContextLines()),
                request.getFileResults());
        Symbols absent = withoutSymbols(live);
        // A sym: alone or as a boolean query's operand: either reads the symbol index.
        if (compiled.query().symbolOffset() >= 0 && absent != null) {
            backend.metrics().refused("bad_query");
            error(
                    Failure.Code.BAD_QUERY,
                    "sym: needs the shard's symbols, and " + shardName(live) + " has none: " + absent.absentReason(),
                    compiled.query().symbolOffset() + 1);
            return false;
        }
        if (inFlight.incrementAndGet() > config.maxConcurrent()) {
            inFlight.decrementAndGet();
            backend.metrics().refused("overloaded");
            error(
                    Failure.Code.OVERLOADED,
                    "overloaded: " + config.maxConcurrent() + " queries are running, try again shortly",
                    0);
            return false;
        }
        long started = System.nanoTime();
        // A request that names its own cap (the frontend's share of its per-query cap) gets exactly
        // the first results in doc-id (static rank) order, then line order: its tasks' results
        // leave in that order and are cut at the cap as one task's would be, so what falls under
        // the cap never depends on how threads raced, and a capped answer is the same on every
        // run; so does a query's own count:N. Without either (./trigrep search) results leave as
        // they are found.
        Parallelism parallelism =
                request.getMaxResults() != 0 || compiled.query().count() > 0
                        ? Parallelism.inOrder(config.threads())
                        : Parallelism.unordered(config.threads());
        try {
            execution = new SearchExecution(
                    live,
                    spec,
                    this,
                    backend.searchPool(),
                    parallelism,
                    System::nanoTime,
                    () -> {
                        inFlight.decrementAndGet();
                        backend.metrics().searchFinished(System.nanoTime() - started);
                        served.release();
                    },
                    backend.produced(),
                    backend.scratch());
        } catch (RuntimeException e) {
            inFlight.decrementAndGet();
            throw e;
        }
        execution.start();
        return true;
    }

    /** A segment's symbols that are absent (a query with a sym: needs them in every segment); null when all have theirs. */
    private static Symbols withoutSymbols(LiveShard live) {
        for (Segment s : live.segments()) {
            if (!s.symbols().present()) {
                return s.symbols();
            }
        }
        return null;
    }

    private static String shardName(LiveShard live) {
        return live.segments().isEmpty()
                ? live.name()
                : live.segments().get(0).shard().manifest().shard();
    }

    /** The request's query: its own parsed fields when given, else its text ({@link QueryFields}). */
    private static ParsedQuery parse(SearchRequest.Reader request) throws QueryException {
        List<ParsedQuery.Filter> filters = new ArrayList<>();
        for (Filter.Reader f : request.getFilters()) {
            ParsedQuery.Kind kind = switch (f.getKind()) {
                case PACKAGE -> ParsedQuery.Kind.PACKAGE;
                case PATH -> ParsedQuery.Kind.PATH;
                case FILETYPE -> ParsedQuery.Kind.FILETYPE;
                case BRANCH -> ParsedQuery.Kind.BRANCH;
                case _NOT_IN_SCHEMA -> throw new QueryException("unknown filter kind", 0);
            };
            filters.add(
                    new ParsedQuery.Filter(kind, f.getNegated(), f.getValue().toString()));
        }
        return QueryFields.parse(
                request.getQuery().toString(),
                request.getPattern().toString(),
                request.getLiteral(),
                request.getCaseInsensitive(),
                filters);
    }

    /** The results to send at most: the request's cap, the query's {@code count:} and the backend's own, the least. */
    private int maxResults(SearchRequest.Reader request, int count) {
        long asked = Integer.toUnsignedLong(request.getMaxResults());
        long limit = asked == 0 ? config.maxResults() : Math.min(asked, config.maxResults());
        return (int) (count > 0 ? Math.min(limit, count) : limit);
    }

    private long deadlineNanos(SearchRequest.Reader request) {
        long asked = Integer.toUnsignedLong(request.getDeadlineMillis());
        long millis = asked == 0
                ? config.defaultDeadline().toMillis()
                : Math.min(asked, config.maxDeadline().toMillis());
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    private void fetch(FetchFile.Reader request) throws Exception {
        String pkg = request.getPackage().toString();
        String path = request.getPath().toString();
        String branch = request.getBranch().toString();
        if (path.isEmpty()
                || path.startsWith("/")
                || path.contains("\\")
                || path.length() > 4096
                || List.of(path.split("/", -1)).contains("..")
                || pkg.isEmpty()
                || pkg.contains("/")
                || pkg.equals("..")
                || pkg.equals(".")) {
            error(Failure.Code.BAD_REQUEST, "invalid package or path", 0);
            return;
        }
        int firstLine = request.getFirstLine();
        int maxLines = request.getMaxLines();
        int maxLineBytes = request.getMaxLineBytes();
        long byteOffset = request.getByteOffset();
        int byteCount = request.getByteCount();
        // Finding lines scans up to 64 MiB of mapped content: on the search pool, not the event loop.
        Served served = backend.generations().acquire();
        try {
            backend.searchPool().execute(() -> {
                try {
                    fetchOnPool(
                            served.live(), pkg, path, branch, firstLine, maxLines, maxLineBytes, byteOffset, byteCount);
                } catch (Exception e) {
                    error(Failure.Code.INTERNAL, e.getMessage() == null ? e.toString() : e.getMessage(), 0);
                } finally {
                    served.release();
                }
            });
        } catch (RejectedExecutionException e) {
            served.release();
            error(Failure.Code.OVERLOADED, "overloaded: the search pool's queue is full, try again shortly", 0);
        }
    }

    /** Answers with the newest live version of the file in {@code live}; a deleted file is not found. */
    private void fetchOnPool(
            LiveShard live,
            String pkg,
            String path,
            String branch,
            int firstLine,
            int maxLines,
            int maxLineBytes,
            long byteOffset,
            int byteCount)
            throws Exception {
        LiveShard.Located found = live.find(pkg, path, branch);
        if (found == null) {
            error(
                    Failure.Code.NOT_FOUND,
                    "no file " + pkg + "/" + path + (branch.isEmpty() ? "" : " on branch " + branch) + " in this shard",
                    0);
            return;
        }
        ByteBuffer content = found.segment().shard().content(found.doc());
        MessageBuilder message = Messages.newBuilder();
        File.Builder file =
                message.initRoot(Response.factory).initFile().setPackage(pkg).setPath(path);
        try {
            if (byteCount != 0) {
                FileWindow.bytes(content, byteOffset, byteCount, file);
            } else {
                FileWindow.lines(content, firstLine, maxLines, maxLineBytes, file);
            }
        } catch (FileWindow.TooLarge e) {
            error(
                    Failure.Code.BAD_REQUEST,
                    pkg + "/" + path + " (" + content.remaining() + " bytes): " + e.getMessage(),
                    0);
            return;
        }
        reply(message);
    }

    /**
     * The generation served now: its number (for a plain shard folder, which has none, when it was
     * built), segments, live and deleted files, and files left out.
     */
    private void status() {
        Served served = backend.generations().acquire();
        try {
            status(served);
        } finally {
            served.release();
        }
    }

    private void status(Served served) {
        LiveShard live = served.live();
        long generation = Generations.number(live);
        MessageBuilder message = Messages.newBuilder();
        Status.Builder status = message.initRoot(Response.factory)
                .initStatus()
                .setShard(shardName(live))
                .setFiles(live.liveDocs())
                .setBytes(served.liveBytes())
                .setQueriesInFlight(inFlight.get())
                .setFormatVersion(Manifest.FORMAT_VERSION)
                .setGeneration(generation)
                .setSegments(live.segments().size())
                .setDeletedFiles(live.deletedDocs());
        // The counts list every reason; the status only those that left something out.
        var skipped = live.skipped().entrySet().stream()
                .filter(e -> e.getValue().files() > 0)
                .toList();
        var list = status.initSkipped(skipped.size());
        for (int i = 0; i < skipped.size(); i++) {
            var reason = skipped.get(i);
            list.get(i)
                    .setReason(reason.getKey())
                    .setFiles(reason.getValue().files())
                    .setBytes(reason.getValue().bytes());
        }
        reply(message);
    }

    private void error(Failure.Code code, String text, int position) {
        MessageBuilder message = Messages.newBuilder();
        message.initRoot(Response.factory)
                .initError()
                .setCode(code)
                .setMessage(ShardPaths.without(backend.generations().peek(), text))
                .setPosition(position);
        reply(message);
    }

    private void reply(MessageBuilder message) {
        ByteBuf out = ctx.alloc().buffer(Framing.frameBytes(message));
        Framing.write(message, out);
        finish(out);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (execution != null && ctx.channel().isWritable()) {
            execution.resume();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (execution != null) {
            execution.cancel();
        }
        ctx.fireChannelInactive();
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof ChannelInputShutdownEvent) {
            // The peer will send nothing more: answer what is being answered, then close.
            inputClosed = true;
            if (!busy) {
                ctx.close();
            }
            return;
        }
        if (event instanceof IdleStateEvent && !busy) {
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        // Connection resets and the like: the peer is gone; stop any search and close.
        if (execution != null) {
            execution.cancel();
        }
        ctx.close();
    }

    private static void release(Object msg) {
        if (msg instanceof ByteBuf buf) {
            buf.release();
        }
    }

    @Override
    public boolean isWritable() {
        return ctx.channel().isWritable();
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void write(ByteBuf frames) {
        ctx.writeAndFlush(frames, ctx.voidPromise());
    }

    /**
     * Ends the current answer; the connection stays for the next request unless it must close.
     * Runs on the event loop, which also reads requests: the next request, which the client can
     * only send after it has this last message, always finds the handler ready.
     */
    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void finish(ByteBuf frames) {
        if (!ctx.executor().inEventLoop()) {
            ctx.executor().execute(() -> finish(frames));
            return;
        }
        boolean close = closing || inputClosed;
        execution = null;
        busy = close;
        ctx.writeAndFlush(frames).addListener(future -> {
            if (close || !future.isSuccess()) {
                ctx.close();
            }
        });
    }

    @Override
    public ByteBufAllocator allocator() {
        return ctx.alloc();
    }
}
