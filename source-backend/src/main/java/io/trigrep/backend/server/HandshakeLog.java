package io.trigrep.backend.server;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.trigrep.backend.ops.BackendMetrics;
import io.trigrep.proto.Tls;
import java.io.PrintStream;

/**
 * Reports a refused TLS handshake (a certificate from another CA, none, or a client that does not
 * speak TLS) as one log line and a counter: a port scan or a misconfigured frontend must not
 * flood the log with stack traces. The SslHandler before it has already closed the connection.
 */
@ChannelHandler.Sharable
final class HandshakeLog extends ChannelInboundHandlerAdapter {
    private final PrintStream log;
    private final BackendMetrics metrics;

    HandshakeLog(PrintStream log, BackendMetrics metrics) {
        this.log = log;
        this.metrics = metrics;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent done && !done.isSuccess()) {
            metrics.tlsHandshakeFailed();
            log.println("backend: refused a connection from " + ctx.channel().remoteAddress() + ": "
                    + Tls.handshakeFailure(done.cause()));
        }
        ctx.fireUserEventTriggered(event);
    }
}
