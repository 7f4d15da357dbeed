package io.trigrep.frontend.http;

import io.netty.channel.Channel;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's open connections: how many, and which have nothing in progress, oldest first, so
 * that at the cap a new connection (a health check, a user) takes the place of an idle or
 * half-sent one rather than being refused. Shared by every connection's {@link ConnectionGuard}.
 */
final class Connections {
    private final int max;
    private final AtomicInteger open = new AtomicInteger();
    private final AtomicLong evicted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    /** Connections with nothing in progress, in the order they became so; guarded by itself. */
    private final LinkedHashSet<ConnectionGuard> waiting = new LinkedHashSet<>();

    Connections(int max) {
        this.max = max;
    }

    /** Counts a new connection in; false when it must be closed at once. */
    boolean admit(Channel channel) {
        if (open.incrementAndGet() <= max) {
            return true;
        }
        ConnectionGuard oldest;
        synchronized (waiting) {
            Iterator<ConnectionGuard> first = waiting.iterator();
            oldest = first.hasNext() ? first.next() : null;
            if (oldest != null) {
                first.remove();
            }
        }
        if (oldest != null) {
            oldest.evict();
            evicted.incrementAndGet();
            return true; // its count is returned when it closes: briefly one over the cap
        }
        open.decrementAndGet();
        refused.incrementAndGet();
        return false;
    }

    void closed() {
        open.decrementAndGet();
    }

    /** {@code guard} has nothing in progress from now on: in line to be evicted after the older ones. */
    void waiting(ConnectionGuard guard) {
        synchronized (waiting) {
            waiting.add(guard);
        }
    }

    /** {@code guard} is answering a request, or closed: not to be evicted. */
    void busy(ConnectionGuard guard) {
        synchronized (waiting) {
            waiting.remove(guard);
        }
    }

    int open() {
        return open.get();
    }

    long evicted() {
        return evicted.get();
    }

    long refused() {
        return refused.get();
    }
}
