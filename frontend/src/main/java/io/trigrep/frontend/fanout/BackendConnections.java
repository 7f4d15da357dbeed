package io.trigrep.frontend.fanout;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
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
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The open connections to one backend, kept across queries: a query takes an idle one (the most
 * recently used, whose buffers and TLS session are warm) or opens a new one, and gives it back
 * when the backend's answer has ended cleanly. Connecting (and a TLS handshake) per query cost
 * more than a selective search itself. A connection that failed, was cut (deadline, cancel, cap)
 * or answered out of turn is closed, never kept.
 *
 * <p>The backend closes a connection idle for 30 s. The newest {@link Idle#keptOpen} idle
 * connections stay open however long nobody asks: each is pinged once idle for {@link
 * Idle#pingAfterMillis}, which the backend answers with its status and counts as activity, and
 * is offered again once answered, so a user coming back after a quiet spell pays no new
 * connection to every backend. The other idle connections, a burst's, are closed after
 * {@link Idle#closeAfterMillis}, before the backend would, so a query is never sent on one the
 * backend is closing. A connection can still die while idle (a backend restarted): {@link
 * StreamHandler} then asks again on a new one, since the backend has not answered a byte.
 */
final class BackendConnections implements AutoCloseable {
    /**
     * How idle connections are kept: the newest {@code keptOpen} pinged after {@code
     * pingAfterMillis} of idle (well inside the backend's 30 s), the others closed after {@code
     * closeAfterMillis}.
     */
    record Idle(long pingAfterMillis, long closeAfterMillis, int keptOpen) {
        static final Idle DEFAULT = new Idle(10_000, 15_000, 2);

        Idle {
            if (pingAfterMillis < 1 || closeAfterMillis < 1 || keptOpen < 0) {
                throw new IllegalArgumentException("idle times must be >= 1 ms and kept connections >= 0, got "
                        + pingAfterMillis + ", " + closeAfterMillis + " and " + keptOpen);
            }
        }

        /** How often idle connections are looked at: a connection is pinged or closed at most this late. */
        long sweepMillis() {
            return Math.max(1, Math.min(pingAfterMillis, closeAfterMillis) / 2);
        }
    }

    /** Idle connections kept at most; more are closed when given back (a burst of queries leaves no crowd). */
    static final int MAX_IDLE = 64;

    /** Where new connections go: changed when the backend's name comes to resolve elsewhere ({@link #readdress}). */
    private volatile InetSocketAddress backend;

    private final Bootstrap bootstrap;
    private final ArrayDeque<StreamHandler> idle = new ArrayDeque<>();
    private final AtomicLong opened = new AtomicLong();
    private final AtomicLong pings = new AtomicLong();
    private final ScheduledFuture<?> sweeper;
    private final Idle keep;
    private boolean closed;

    BackendConnections(InetSocketAddress backend, EventLoopGroup group, Tls tls, int connectMillis, Idle keep) {
        this.backend = backend;
        this.keep = keep;
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
                                    .addLast("tls", tls.clientHandler(ch.alloc(), BackendConnections.this.backend))
                                    .addLast("batch", new ReadBatcher());
                        }
                        ch.pipeline()
                                .addLast(
                                        new FrameRunDecoder(FrameLimits.DEFAULT),
                                        new StreamHandler(BackendConnections.this));
                    }
                });
        this.sweeper = group.scheduleWithFixedDelay(
                this::sweep, keep.sweepMillis(), keep.sweepMillis(), TimeUnit.MILLISECONDS);
    }

    /** Asks {@code attempt}'s part of {@code run} on an idle connection, or on a new one. */
    void ask(QueryRun run, Attempt attempt, org.capnproto.MessageBuilder request) {
        StreamHandler reused = takeIdle();
        if (reused != null) {
            reused.channel().eventLoop().execute(() -> reused.begin(run, attempt, request, true));
        } else {
            askOnNew(run, attempt, request);
        }
    }

    /** Asks on a connection of its own; a connection that cannot be made fails the attempt. */
    void askOnNew(QueryRun run, Attempt attempt, org.capnproto.MessageBuilder request) {
        opened.incrementAndGet();
        bootstrap.connect(backend).addListener((Future<Void> connected) -> {
            if (!connected.isSuccess()) {
                run.fail(
                        attempt,
                        ShardStatus.Outcome.CONNECT,
                        "cannot connect: " + connected.cause().getMessage());
                return;
            }
            Channel ch = ((ChannelFuture) connected).channel();
            ch.pipeline().get(StreamHandler.class).begin(run, attempt, request, false);
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
        boolean kept;
        synchronized (this) {
            kept = !closed && handler.channel().isActive() && idle.size() < MAX_IDLE;
            if (kept) {
                handler.idleSince(System.nanoTime());
                idle.addFirst(handler);
            }
        }
        if (!kept) {
            handler.channel().close();
        }
    }

    /** {@code handler}'s ping was answered: it is offered again, as if given back now. */
    void pinged(StreamHandler handler) {
        giveBack(handler);
        pings.incrementAndGet(); // after: whoever counts the answers finds the connection offered again
    }

    /** Pings answered so far on idle connections. */
    long pings() {
        return pings.get();
    }

    /** An idle connection closed (by the backend, or the network): no longer offered. */
    synchronized void forget(StreamHandler handler) {
        idle.remove(handler);
    }

    /** New connections go to {@code now}; the open ones stay until they fail or idle out. */
    void readdress(InetSocketAddress now) {
        backend = now;
    }

    /** Connections opened so far; with reuse, about the most queries this backend had at once. */
    long opened() {
        return opened.get();
    }

    /** Idle connections now. */
    synchronized int idle() {
        return idle.size();
    }

    /**
     * Pings the newest {@link Idle#keptOpen} idle connections that have been idle for {@link
     * Idle#pingAfterMillis}, taken out of the idle ones until answered ({@link StreamHandler#ping}),
     * and closes the others idle for {@link Idle#closeAfterMillis}.
     */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    private void sweep() {
        long now = System.nanoTime();
        long pingBefore = now - TimeUnit.MILLISECONDS.toNanos(keep.pingAfterMillis());
        long closeBefore = now - TimeUnit.MILLISECONDS.toNanos(keep.closeAfterMillis());
        List<StreamHandler> toPing = new ArrayList<>();
        List<StreamHandler> stale = new ArrayList<>();
        synchronized (this) {
            int rank = 0;
            // Newest first: given back or answered last.
            for (Iterator<StreamHandler> it = idle.iterator(); it.hasNext(); rank++) {
                StreamHandler h = it.next();
                boolean kept = rank < keep.keptOpen();
                if (h.idleSince() - (kept ? pingBefore : closeBefore) > 0) {
                    continue;
                }
                it.remove();
                (kept ? toPing : stale).add(h);
            }
        }
        for (StreamHandler h : stale) {
            h.channel().close();
        }
        ping(toPing);
    }

    /** Pings {@code handlers}, taken out of the idle ones, each on its own event loop. */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    private void ping(List<StreamHandler> handlers) {
        for (StreamHandler h : handlers) {
            try {
                h.channel().eventLoop().execute(() -> h.ping(keep.pingAfterMillis()));
            } catch (RejectedExecutionException e) {
                h.channel().close(); // the event loops are shutting down: nothing to keep open
            }
        }
    }

    @Override
    @SuppressWarnings(
            "FutureReturnValueIgnored") // Netty: a failed write or close closes the channel, which its handlers see
    public void close() {
        List<StreamHandler> all;
        synchronized (this) {
            closed = true;
            all = List.copyOf(idle);
            idle.clear();
        }
        sweeper.cancel(false);
        for (StreamHandler h : all) {
            h.channel().close();
        }
    }
}
