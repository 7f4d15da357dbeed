package io.trigrep.backend.server;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.trigrep.proto.FrameDecoder;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Tls;

/**
 * The pipeline of one connection: TLS first when enabled (a refused handshake logged once),
 * framed requests of at most 1 MiB; an idle connection is closed after 30 s.
 */
final class BackendServerInitializer extends ChannelInitializer<SocketChannel> {
    static final FrameLimits REQUEST_LIMITS = new FrameLimits(16, 1 << 20);
    static final int REQUEST_TIMEOUT_SECONDS = 30;

    private final Backend backend;
    private final Tls tls;
    private final HandshakeLog handshakeLog;

    BackendServerInitializer(Backend backend, Tls tls, HandshakeLog handshakeLog) {
        this.backend = backend;
        this.tls = tls;
        this.handshakeLog = handshakeLog;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        if (tls.enabled()) {
            ch.pipeline().addLast("tls", tls.serverHandler(ch.alloc())).addLast("handshake-log", handshakeLog);
        }
        ch.pipeline()
                .addLast("idle", new IdleStateHandler(REQUEST_TIMEOUT_SECONDS, 0, 0))
                .addLast("frames", new FrameDecoder(REQUEST_LIMITS))
                .addLast("requests", new RequestHandler(backend));
    }
}
