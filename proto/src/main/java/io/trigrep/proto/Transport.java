package io.trigrep.proto;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.util.Locale;

/**
 * The Netty transport of every server and client in trigrep: Linux's epoll through Netty's native
 * library where it loads, else the JDK's NIO. Results stream from backends to the frontend at
 * hundreds of MB per second, and the sockets' two ends are a large part of a result-heavy query's
 * CPU: on the Linux tree, a backend's event loop spent 0.21 CPU-s writing one {@code return} query's
 * answer (1,072,489 lines) through NIO and 0.13 through epoll. Both transports give the same
 * semantics to the handlers (half-closure, auto-read, water marks); only the system calls differ.
 *
 * <p>The native library is unpacked into a temporary folder when first used; where it cannot be
 * (a read-only file system, another platform), {@link #DEFAULT} is NIO. The system property
 * {@code trigrep.transport} ({@code nio} or {@code epoll}) chooses one explicitly; {@code epoll}
 * where it is not available fails at start with the reason.
 */
public enum Transport {
    NIO(NioServerSocketChannel.class, NioSocketChannel.class),
    EPOLL(EpollServerSocketChannel.class, EpollSocketChannel.class);

    /** The transport of this process: {@code trigrep.transport} when set, else epoll where available, else NIO. */
    public static final Transport DEFAULT = choose(System.getProperty("trigrep.transport", ""));

    private final Class<? extends ServerChannel> serverChannel;
    private final Class<? extends SocketChannel> socketChannel;

    Transport(Class<? extends ServerChannel> serverChannel, Class<? extends SocketChannel> socketChannel) {
        this.serverChannel = serverChannel;
        this.socketChannel = socketChannel;
    }

    static Transport choose(String name) {
        switch (name.toLowerCase(Locale.ROOT)) {
            case "" -> {
                return Epoll.isAvailable() ? EPOLL : NIO;
            }
            case "nio" -> {
                return NIO;
            }
            case "epoll" -> {
                Epoll.ensureAvailability();
                return EPOLL;
            }
            default -> throw new IllegalArgumentException("trigrep.transport is nio or epoll, not " + name);
        }
    }

    /** An event loop group of {@code threads} threads on this transport. */
    public EventLoopGroup group(int threads) {
        IoHandlerFactory handlers = this == EPOLL ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, handlers);
    }

    /** The channel class a server bootstrap on a group of this transport takes. */
    public Class<? extends ServerChannel> serverChannel() {
        return serverChannel;
    }

    /** The channel class a client bootstrap on a group of this transport takes. */
    public Class<? extends SocketChannel> socketChannel() {
        return socketChannel;
    }
}
