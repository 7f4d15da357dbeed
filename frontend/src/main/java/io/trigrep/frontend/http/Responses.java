package io.trigrep.frontend.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.trigrep.proto.Failure;
import java.util.List;
import java.util.Map;

/** Writing whole responses, shared by the JSON API and the web UI. */
final class Responses {
    static final String JSON = "application/json; charset=utf-8";
    static final String HTML = "text/html; charset=utf-8";

    /** Searches end within the 30 s deadline, most within a second: a refused client may try again after one. */
    static final String RETRY_AFTER_SECONDS = "1";

    private Responses() {}

    /** The HTTP status for a fetch that found no file. */
    static HttpResponseStatus status(Failure.Code code) {
        return code == Failure.Code.NOT_FOUND
                ? HttpResponseStatus.NOT_FOUND
                : code == Failure.Code.BAD_REQUEST ? HttpResponseStatus.BAD_REQUEST : HttpResponseStatus.BAD_GATEWAY;
    }

    static FullHttpResponse response(HttpResponseStatus status, byte[] body, String contentType) {
        FullHttpResponse response =
                new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.wrappedBuffer(body));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
        response.headers().set("X-Content-Type-Options", "nosniff");
        // The server's compressor picks gzip or not by the request's Accept-Encoding.
        response.headers().set(HttpHeaderNames.VARY, HttpHeaderNames.ACCEPT_ENCODING);
        return response;
    }

    static void send(ChannelHandlerContext ctx, boolean keepAlive, HttpResponseStatus status, byte[] json) {
        write(ctx, keepAlive, response(status, json, JSON));
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    static void write(ChannelHandlerContext ctx, boolean keepAlive, FullHttpResponse response) {
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    static String first(Map<String, List<String>> params, String name, String fallback) {
        List<String> values = params.get(name);
        return values == null || values.isEmpty() ? fallback : values.get(0);
    }
}
