package io.trigrep.frontend.http;

import static io.trigrep.frontend.http.Responses.send;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.TooLongHttpContentException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * The one handler in the pipeline that answers requests: refuses what cannot be served (a
 * malformed or oversized request, an HTTP version other than 1.0 and 1.1, an expectation other
 * than 100-continue, a wrong method, a URL that is not UTF-8) with a JSON error, then gives the
 * request to the {@link ApiHandler} or else the {@link WebUi}, each of which renders what the
 * query service answers. Neither view calls the other. A request refused before it was read
 * whole closes its connection, lingering ({@link ConnectionGuard#refusing}).
 */
final class RequestRouter extends SimpleChannelInboundHandler<FullHttpRequest> {
    private final ApiHandler api;
    private final WebUi ui;
    private final ClientAddress clients;
    private final ConnectionGuard guard;

    RequestRouter(ApiHandler api, WebUi ui, ClientAddress clients, ConnectionGuard guard) {
        this.api = api;
        this.ui = ui;
        this.clients = clients;
        this.guard = guard;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) throws IOException {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (!request.decoderResult().isSuccess()) {
            Throwable cause = request.decoderResult().cause();
            if (cause instanceof TooLongHttpLineException) {
                refuse(
                        ctx,
                        HttpResponseStatus.REQUEST_URI_TOO_LONG,
                        "request line longer than " + FrontendServer.MAX_INITIAL_LINE + " bytes");
            } else if (cause instanceof TooLongHttpHeaderException) {
                refuse(
                        ctx,
                        HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                        "headers longer than " + FrontendServer.MAX_HEADER_BYTES + " bytes");
            } else if (cause instanceof TooLongHttpContentException) {
                refuse(ctx, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, cause.getMessage());
            } else {
                refuse(ctx, HttpResponseStatus.BAD_REQUEST, "malformed HTTP request");
            }
            return;
        }
        HttpVersion version = request.protocolVersion();
        if (!version.equals(HttpVersion.HTTP_1_1) && !version.equals(HttpVersion.HTTP_1_0)) {
            refuse(
                    ctx,
                    HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED,
                    "HTTP version " + version.text() + " is not supported: use HTTP/1.1 or HTTP/1.0");
            return;
        }
        String expect = request.headers().get(HttpHeaderNames.EXPECT);
        if (expect != null && !expect.equalsIgnoreCase("100-continue")) {
            refuse(
                    ctx,
                    HttpResponseStatus.EXPECTATION_FAILED,
                    "Expect: " + expect + " is not supported, only 100-continue");
            return;
        }
        QueryStringDecoder uri;
        try {
            uri = new QueryStringDecoder(request.uri(), StandardCharsets.UTF_8);
            uri.parameters();
            if (!percentDecodesToUtf8(request.uri())) {
                // The decoder would make each bad byte U+FFFD and search for that: say so instead.
                send(
                        ctx,
                        keepAlive,
                        HttpResponseStatus.BAD_REQUEST,
                        PageRenderer.error("invalid URL: not UTF-8 once percent-decoded", 0));
                return;
            }
        } catch (IllegalArgumentException e) {
            send(
                    ctx,
                    keepAlive,
                    HttpResponseStatus.BAD_REQUEST,
                    PageRenderer.error("invalid URL: " + e.getMessage(), 0));
            return;
        }
        // The path as routing reads it, decoded: /api/v1/queries/%63ancel is the cancel route too.
        boolean cancel = uri.path().equals("/api/v1/queries/cancel");
        if (cancel
                ? !HttpMethod.POST.equals(request.method())
                : !HttpMethod.GET.equals(request.method()) && !HttpMethod.HEAD.equals(request.method())) {
            FullHttpResponse refused = Responses.response(
                    HttpResponseStatus.METHOD_NOT_ALLOWED,
                    PageRenderer.error(cancel ? "cancel with POST" : "only GET and HEAD are supported here", 0),
                    Responses.JSON);
            refused.headers().set(HttpHeaderNames.ALLOW, cancel ? "POST" : "GET, HEAD");
            Responses.write(ctx, keepAlive, refused);
            return;
        }
        // Whose request this is, for the per-client share of new searches: see ClientAddress.
        String client =
                clients.of(ctx.channel().remoteAddress(), request.headers().get("X-Forwarded-For"));
        if (!api.handle(ctx, keepAlive, client, uri.path(), uri.parameters())
                && !ui.handle(ctx, keepAlive, request, client, uri.path(), uri.parameters())) {
            send(
                    ctx,
                    keepAlive,
                    HttpResponseStatus.NOT_FOUND,
                    PageRenderer.error("no such endpoint: " + uri.path(), 0));
        }
    }

    /** Refuses the request in JSON and closes the connection, lingering: its rest may still be on its way. */
    private void refuse(ChannelHandlerContext ctx, HttpResponseStatus status, String message) throws IOException {
        guard.refusing();
        send(ctx, false, status, PageRenderer.error(message, 0));
    }

    /** Whether the URL's bytes, percent escapes decoded, are valid UTF-8. */
    static boolean percentDecodesToUtf8(String uri) {
        // ISO-8859-1 maps each decoded byte to one char, so the bytes come back unchanged.
        byte[] bytes = QueryStringDecoder.decodeComponent(uri, StandardCharsets.ISO_8859_1)
                .getBytes(StandardCharsets.ISO_8859_1);
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
