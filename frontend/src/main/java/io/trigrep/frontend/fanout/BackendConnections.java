package io.trigrep.frontend.fanout;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.FrameRunDecoder;
import io.trigrep.proto.Tls;
import io.trigrep.proto.Transport;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The open connections to one backend, kept across queries: a query takes an idle one (the most
 * recently used, whose buffers and TLS session are warm) or opens a new one, and gives it back
 * when the backend's answer has ended cleanly. Connecting (and a TLS handshake) per query cost
 * more than a selective search itself. A connection that failed, was cut (deadline, cancel, cap)
 * or answered out of turn is closed, never kept.
 *
 * <p>The backend closes a connection idle for 30 s; idle connections are closed here after
 * {@link #IDLE_MILLIS}, before it would, so a query is never sent on one the backend is closing.
 * A connection can still die while idle (a backend restarted): {@link StreamHandler} then asks
 * again on a new one, since the backend has not answered a byte.
 */
final class BackendConnections implements AutoCloseable {
    static final long IDLE_MILLIS = 15_000;
    /** Idle connections kept at most; more are closed when given back (a burst of queries leaves no crowd). */
    static final int MAX_IDLE = 64;

    private final InetSocketAddress backend;
    private final Bootstrap bootstrap;
    private final ArrayDeque<StreamHandler> idle = new ArrayDeque<>();
    private final AtomicLong opened = new AtomicLong();
    private final ScheduledFuture<?> sweeper;
    private boolean closed;

    BackendConnections(InetSocketAddress backend, EventLoopGroup group, Tls tls, int connectMillis) {
        this.backend = backend;
        this.bootstrap = new Bootstrap()
                .group(group)
                .channel(Transport.DEFAULT.socketChannel())
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(
                        ChannelOption.RECVBUF_ALLOCATOR,
                        new AdaptiveRecvByteBufAllocator(4096, 65536, FanOut.MAX_READ_BYTES))
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectMillis)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls.enabled()) {
                            // With auto-read off, SslHandler reads what the handshake needs itself; after it, reads
                            // stay on demand and each decrypted run goes on to the decoder, so backpressure holds.
                            ch.pipeline()
                                    .addLast("tls", tls.clientHandler(ch.alloc(), backend))
                                    .addLast("batch", new ReadBatcher());
                        }
                        ch.pipeline()
                                .addLast(
                                        new FrameRunDecoder(FrameLimits.DEFAULT),
                                        new StreamHandler(BackendConnections.this));
                    }
                });
        this.sweeper =
                group.scheduleWithFixedDelay(this::closeStale, IDLE_MILLIS / 3, IDLE_MILLIS / 3, TimeUnit.MILLISECONDS);
    }

    /** Asks {@code shard}'s part of {@code run} on an idle connection, or on a new one. */
    void ask(QueryRun run, int shard, org.capnproto.MessageBuilder request) {
        StreamHandler reused = takeIdle();
        if (reused != null) {
            reused.channel().eventLoop().execute(() -> reused.begin(run, shard, request, true));
        } else {
            askOnNew(run, shard, request);
        }
    }

    /** Asks on a connection of its own; a connection that cannot be made fails the shard. */
    void askOnNew(QueryRun run, int shard, org.capnproto.MessageBuilder request) {
        opened.incrementAndGet();
        bootstrap.connect(backend).addListener((Future<Void> connected) -> {
            if (!connected.isSuccess()) {
                run.fail(
                        shard,
                        ShardStatus.Outcome.CONNECT,
                        "cannot connect: " + connected.cause().getMessage());
                return;
            }
            Channel ch = ((io.netty.channel.ChannelFuture) connected).channel();
            ch.pipeline().get(StreamHandler.class).begin(run, shard, request, false);
        });
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    private synchronized StreamHandler takeIdle() {
        for (StreamHandler h; (h = idle.pollFirst()) != null; ) {
            if (h.channel().isActive()) {
                return h;
            }
            h.channel().close();
        }
        return null;
    }

    /** The answer on {@code handler}'s connection ended cleanly: keep it for the next query. */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    void giveBack(StreamHandler handler) {
        boolean keep;
        synchronized (this) {
            keep = !closed && handler.channel().isActive() && idle.size() < MAX_IDLE;
            if (keep) {
                handler.idleSince(System.nanoTime());
                idle.addFirst(handler);
            }
        }
        if (!keep) {
            handler.channel().close();
        }
    }

    /** An idle connection closed (by the backend, or the network): no longer offered. */
    synchronized void forget(StreamHandler handler) {
        idle.remove(handler);
    }

    /** Connections opened so far; with reuse, about the most queries this backend had at once. */
    long opened() {
        return opened.get();
    }

    /** Idle connections now. */
    synchronized int idle() {
        return idle.size();
    }

    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    private void closeStale() {
        long limit = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(IDLE_MILLIS);
        java.util.List<StreamHandler> stale = new java.util.ArrayList<>();
        synchronized (this) {
            // Newest first: the stale ones are at the end.
            for (Iterator<StreamHandler> it = idle.descendingIterator(); it.hasNext(); ) {
                StreamHandler h = it.next();
                if (h.idleSince() - limit > 0) {
                    break;
                }
                it.remove();
                stale.add(h);
            }
        }
        for (StreamHandler h : stale) {
            h.channel().close();
        }
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void close() {
        java.util.List<StreamHandler> all;
        synchronized (this) {
            closed = true;
            all = java.util.List.copyOf(idle);
            idle.clear();
        }
        sweeper.cancel(false);
        for (StreamHandler h : all) {
            h.channel().close();
        }
    }
}
