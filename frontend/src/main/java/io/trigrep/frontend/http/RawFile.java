package io.trigrep.frontend.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.trigrep.frontend.fanout.FileFetch;
import io.trigrep.frontend.query.QueryService;
import java.io.IOException;
import java.util.concurrent.ExecutorService;

/**
 * Streams a file's bytes as they are ({@code text/plain}, no decoding), of any size, with bounded
 * memory: byte ranges of {@link #CHUNK} fetched one at a time on the pages pool, the next only
 * once the previous one has been written to the client (so a slow client holds one chunk).
 */
final class RawFile {
    static final int CHUNK = 1 << 20;

    private final ChannelHandlerContext ctx;
    private final boolean keepAlive;
    private final ExecutorService pages;
    private final QueryService queries;
    private final String pkg;
    private final String path;
    private long total;
    private long sent;
    private int backend = -1;

    RawFile(
            ChannelHandlerContext ctx,
            boolean keepAlive,
            ExecutorService pages,
            QueryService queries,
            String pkg,
            String path) {
        this.ctx = ctx;
        this.keepAlive = keepAlive;
        this.pages = pages;
        this.queries = queries;
        this.pkg = pkg;
        this.path = path;
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    void start() {
        pages.execute(() -> {
            FileFetch.Outcome first = queries.fetch(-1, pkg, path, FileFetch.Ask.bytes(0, CHUNK));
            if (first.content() == null) {
                try {
                    Responses.send(
                            ctx, keepAlive, Responses.status(first.code()), PageRenderer.error(first.message(), 0));
                } catch (IOException impossible) {
                    ctx.close();
                }
                return;
            }
            backend = first.backend();
            total = first.totalBytes();
            HttpResponse head = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
            head.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
            head.headers().set("X-Content-Type-Options", "nosniff");
            head.headers().set(HttpHeaderNames.VARY, HttpHeaderNames.ACCEPT_ENCODING);
            head.headers().set(HttpHeaderNames.CONTENT_LENGTH, total);
            if (keepAlive) {
                head.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            }
            ctx.write(head);
            write(first.content());
        });
    }

    /** Writes one chunk; when the client has taken it, fetches the next (or ends the response). */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    private void write(byte[] chunk) {
        sent += chunk.length;
        boolean last = chunk.length == 0 || sent >= total;
        ctx.writeAndFlush(new DefaultHttpContent(Unpooled.wrappedBuffer(chunk))).addListener(written -> {
            if (!written.isSuccess()) {
                ctx.close();
            } else if (last) {
                var end = ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
                if (!keepAlive || sent != total) {
                    // A file that shrank or a backend that stopped: the length promised was not sent, so the connection
                    // ends.
                    end.addListener(ChannelFutureListener.CLOSE);
                }
            } else {
                pages.execute(this::next);
            }
        });
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    private void next() {
        FileFetch.Outcome piece = queries.fetch(backend, pkg, path, FileFetch.Ask.bytes(sent, CHUNK));
        if (piece.content() == null) {
            ctx.close(); // the status line is sent: all that is left is to cut the response short
            return;
        }
        write(piece.content());
    }
}
