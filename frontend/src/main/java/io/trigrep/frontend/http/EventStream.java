package io.trigrep.frontend.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.query.QueryService;
import io.trigrep.frontend.query.StoredResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Server-Sent Events for one query: a {@code progress} event at once (a late client gets the
 * current state) and every 250 ms while the query runs (backends done, files searched, results so
 * far, the best results so far), then one {@code done} event with the page count, or an
 * {@code error} event; then the stream ends.
 */
final class EventStream {
    static final long PERIOD_MILLIS = 250;
    static final int BEST = 10;
    private static final JsonFactory JSON = new JsonFactory();

    private final ChannelHandlerContext ctx;
    private final QueryService queries;
    private final QueryCache.Entry entry;
    private final int perPage;
    private ScheduledFuture<?> ticks;
    private boolean ended;

    EventStream(ChannelHandlerContext ctx, QueryService queries, QueryCache.Entry entry, int perPage) {
        this.ctx = ctx;
        this.queries = queries;
        this.entry = entry;
        this.perPage = perPage;
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    void start() {
        ctx.writeAndFlush(head());
        tick();
        ticks = ctx.executor().scheduleAtFixedRate(this::tick, PERIOD_MILLIS, PERIOD_MILLIS, TimeUnit.MILLISECONDS);
        ctx.channel().closeFuture().addListener(f -> end());
    }

    private static HttpResponse head() {
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8");
        response.headers().set(HttpHeaderNames.CACHE_CONTROL, "no-cache");
        response.headers().set(HttpHeaderNames.TRANSFER_ENCODING, "chunked");
        // Compressing would hold events back in the deflater: this stream goes out as it is.
        response.headers().set(HttpHeaderNames.CONTENT_ENCODING, "identity");
        return response;
    }

    /** A stream of one {@code error} event ({@code json}: error and position), for a query refused before it ran. */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    static void refuse(ChannelHandlerContext ctx, byte[] json) {
        ctx.write(head());
        ctx.write(new DefaultHttpContent(
                Unpooled.wrappedBuffer(event("error", new String(json, StandardCharsets.UTF_8)))));
        ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
    }

    private void tick() {
        if (ended) {
            return;
        }
        QueryRun run = entry.run();
        if (run.completion().isDone()) {
            end(done(run));
            return;
        }
        run.bestSoFar(BEST, best -> {
            try {
                send("progress", progress(run, best.ranks(), best.among()));
            } catch (IOException | RuntimeException e) {
                // A frame that cannot be read back: report it and end the stream.
                ctx.executor().execute(() -> end(event("error", "{\"error\":\"cannot read results\"}")));
            }
        });
    }

    private byte[] progress(QueryRun run, int[] best, int among) throws IOException {
        QueryService.Progress now = QueryService.progress(run);
        ByteArrayOutputStream out = new ByteArrayOutputStream(1024);
        try (JsonGenerator json = JSON.createGenerator(out)) {
            json.writeStartObject();
            json.writeStringField("status", "running");
            json.writeNumberField("shards_total", now.shardsTotal());
            json.writeNumberField("shards_done", now.shardsDone());
            json.writeNumberField("shards_failed", now.shardsFailed());
            json.writeNumberField("files_searched", now.filesSearched());
            json.writeNumberField("files_total", now.filesTotal());
            json.writeNumberField("results_so_far", among);
            json.writeArrayFieldStart("best");
            for (StoredResult r : QueryService.read(run, best)) {
                PageRenderer.result(json, r);
            }
            json.writeEndArray();
            json.writeEndObject();
        }
        return out.toByteArray();
    }

    /** {@code ,"capped":{"reason":"results","limit":N}} when the answer stopped at a cap, else nothing. */
    static String capped(QueryRun.Capped capped) {
        return capped == null
                ? ""
                : ",\"capped\":{\"reason\":\"" + capped.reason() + "\",\"limit\":" + capped.limit() + "}";
    }

    private byte[] done(QueryRun run) {
        int total = run.index().size();
        String body = "{\"status\":\"done\",\"total_results\":" + total + ",\"pages\":"
                + (total + perPage - 1) / perPage + ",\"per_page\":" + perPage + ",\"partial\":"
                + !run.failed().isEmpty() + capped(run.capped()) + "}";
        if (run.errorMessage() != null) {
            return event("error", new String(errorJson(run), StandardCharsets.UTF_8));
        }
        return event("done", body);
    }

    private static byte[] errorJson(QueryRun run) {
        try {
            return PageRenderer.error(run.errorMessage(), run.errorPosition());
        } catch (IOException impossible) {
            return "{\"error\":\"bad query\"}".getBytes(StandardCharsets.UTF_8);
        }
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    private void send(String name, byte[] json) {
        byte[] event = event(name, new String(json, StandardCharsets.UTF_8));
        ctx.executor().execute(() -> {
            if (!ended) {
                ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(event)));
            }
        });
    }

    private static byte[] event(String name, String json) {
        return ("event: " + name + "\ndata: " + json + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    /** Writes the last event, ends the chunked stream and closes. Event loop only. */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    private void end(byte[] last) {
        if (ended) {
            return;
        }
        // The query slot is freed first: a client that sees the stream end may ask again at once.
        end();
        ctx.write(new DefaultHttpContent(Unpooled.wrappedBuffer(last)));
        ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT).addListener(ChannelFutureListener.CLOSE);
    }

    private void end() {
        if (ended) {
            return;
        }
        ended = true;
        if (ticks != null) {
            ticks.cancel(false);
        }
        queries.release(entry);
    }
}
