package io.trigrep.frontend.http;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpContentException;

/**
 * Gathers a request and its body, at most {@code maxBytes} of body. A larger one is not answered
 * here, as Netty's aggregator does (an empty 413 that no handler sees): it goes on as the request
 * without its body, failed with a {@link TooLongHttpContentException}, for the {@link
 * RequestRouter} to refuse in JSON like every other request, and counted like every other answer.
 * {@code Expect: 100-continue} is answered 100 only for a body that fits; any other expectation
 * goes on to the router as well (a 417).
 */
final class RequestAggregator extends HttpObjectAggregator {
    RequestAggregator(int maxBytes) {
        super(maxBytes);
    }

    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        if (HttpUtil.is100ContinueExpected(start) && !isContentLengthInvalid(start, maxContentLength)) {
            start.headers().remove(HttpHeaderNames.EXPECT);
            return new DefaultFullHttpResponse(
                    HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER);
        }
        // A body too large is found by its Content-Length next; an unknown expectation is the router's.
        return null;
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        // The caller releases the oversized message and drops the rest of its body.
        HttpRequest request = (HttpRequest) oversized;
        FullHttpRequest refused = new DefaultFullHttpRequest(
                request.protocolVersion(), request.method(), request.uri(), Unpooled.EMPTY_BUFFER);
        refused.headers().set(request.headers());
        refused.setDecoderResult(DecoderResult.failure(
                new TooLongHttpContentException("request body longer than " + maxContentLength() + " bytes")));
        ctx.fireChannelRead(refused);
    }
}
