package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each transport carries a request and its answer over real loopback TCP, as the backends and the frontend use it. */
@Tag("integration")
class TransportTest {
    /**
     * A client sends its bytes and shuts its output down; the server, allowing half-closure as the
     * backend does, answers with what it read once the input ends, and the client reads it all.
     */
    @ParameterizedTest
    @EnumSource(Transport.class)
    void aHalfClosedRequestIsStillAnswered(Transport transport) throws Exception {
        assumeTrue(transport == Transport.NIO || Epoll.isAvailable(), "epoll is not available here");
        EventLoopGroup group = transport.group(1);
        try {
            Channel server = new ServerBootstrap()
                    .group(group)
                    .channel(transport.serverChannel())
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new Echo());
                        }
                    })
                    .bind("127.0.0.1", 0)
                    .sync()
                    .channel();
            CompletableFuture<String> answer = new CompletableFuture<>();
            Channel client = new Bootstrap()
                    .group(group)
                    .channel(transport.socketChannel())
                    .handler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new Collect(answer));
                        }
                    })
                    .connect((InetSocketAddress) server.localAddress())
                    .sync()
                    .channel();
            byte[] request = "x".repeat(300_000).getBytes(StandardCharsets.US_ASCII);
            client.writeAndFlush(Unpooled.wrappedBuffer(request)).sync();
            ((io.netty.channel.socket.SocketChannel) client).shutdownOutput().sync();
            assertThat(answer.get(30, TimeUnit.SECONDS))
                    .hasSize(request.length + 5)
                    .endsWith("done.");
            client.close().sync();
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).sync();
        }
    }

    @Test
    void thePropertyNamesATransportAndNothingElse() {
        assertThat(Transport.choose("nio")).isEqualTo(Transport.NIO);
        assertThat(Transport.choose("NIO")).isEqualTo(Transport.NIO);
        assertThat(Transport.choose("")).isEqualTo(Epoll.isAvailable() ? Transport.EPOLL : Transport.NIO);
        assertThat(Transport.DEFAULT).isEqualTo(Transport.choose(System.getProperty("trigrep.transport", "")));
        assertThatThrownBy(() -> Transport.choose("kqueue"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nio or epoll");
    }

    /** Reads everything, then, once the peer's output is shut, writes it back with "done." and closes. */
    private static final class Echo extends ChannelInboundHandlerAdapter {
        private final ByteArrayOutputStream read = new ByteArrayOutputStream();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf bytes = (ByteBuf) msg;
            try {
                byte[] copy = new byte[bytes.readableBytes()];
                bytes.readBytes(copy);
                read.writeBytes(copy);
            } finally {
                bytes.release();
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownEvent) {
                read.writeBytes("done.".getBytes(StandardCharsets.US_ASCII));
                ctx.writeAndFlush(Unpooled.wrappedBuffer(read.toByteArray())).addListener(f -> ctx.close());
            }
        }
    }

    /** Collects what the server sends until it closes. */
    private static final class Collect extends ChannelInboundHandlerAdapter {
        private final CompletableFuture<String> answer;
        private final StringBuilder text = new StringBuilder();

        Collect(CompletableFuture<String> answer) {
            this.answer = answer;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf bytes = (ByteBuf) msg;
            try {
                text.append(bytes.toString(StandardCharsets.US_ASCII));
            } finally {
                bytes.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            answer.complete(text.toString());
        }
    }
}
