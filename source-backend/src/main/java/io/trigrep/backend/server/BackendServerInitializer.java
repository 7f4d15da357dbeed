package io.trigrep.backend.server;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.timeout.IdleStateHandler;
import io.trigrep.proto.FrameDecoder;
import io.trigrep.proto.FrameLimits;

/** The pipeline of one connection: framed requests of at most 1 MiB; an idle connection is closed after 30 s. */
final class BackendServerInitializer extends ChannelInitializer<SocketChannel> {
    static final FrameLimits REQUEST_LIMITS = new FrameLimits(16, 1 << 20);
    static final int REQUEST_TIMEOUT_SECONDS = 30;

    private final Backend backend;

    BackendServerInitializer(Backend backend) {
        this.backend = backend;
    }

    @Override
    protected void initChannel(SocketChannel ch) {
        ch.pipeline()
                .addLast("idle", new IdleStateHandler(REQUEST_TIMEOUT_SECONDS, 0, 0))
                .addLast("frames", new FrameDecoder(REQUEST_LIMITS))
                .addLast("requests", new RequestHandler(backend));
    }
}
