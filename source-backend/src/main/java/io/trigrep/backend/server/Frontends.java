package io.trigrep.backend.server;

import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The frontends that ping this backend with heartbeats, and the generation each says it has
 * learnt of it. A switch to a new generation is told to an update only once every frontend heard
 * from within {@code lease} has learnt it ({@link #awaitLearnt}): until then one of them may still
 * answer from its cache of the generation replaced.
 *
 * <p>Anyone who can reach the port can send heartbeats with made-up ids, so what is kept is
 * bounded: frontends silent past the lease are dropped as new ones come, and past {@link #MOST}
 * at once a new id is not tracked (an update then does not wait for it).
 */
final class Frontends {
    /** The most frontends tracked at once. */
    static final int MOST = 1024;

    private record Heard(long known, long atNanos) {}

    private final long leaseNanos;
    private final LongSupplier nanos;
    private final Map<Long, Heard> heard = new HashMap<>();

    Frontends(Duration lease) {
        this(lease, System::nanoTime);
    }

    Frontends(Duration lease, LongSupplier nanos) {
        this.leaseNanos = lease.toNanos();
        this.nanos = nanos;
    }

    /** Frontend {@code frontend} pinged: it has learnt generation {@code known} of this backend. */
    synchronized void heard(long frontend, long known) {
        long now = nanos.getAsLong();
        if (heard.size() >= MOST && !heard.containsKey(frontend)) {
            heard.values().removeIf(h -> now - h.atNanos() > leaseNanos);
            if (heard.size() >= MOST) {
                return;
            }
        }
        heard.put(frontend, new Heard(known, now));
        notifyAll();
    }

    /**
     * Waits, at most {@code timeout}, until every frontend heard from within the lease has learnt
     * {@code generation}; returns how many have not (0: all have, or none was heard from).
     */
    synchronized int awaitLearnt(long generation, Duration timeout) throws InterruptedException {
        long deadline = nanos.getAsLong() + timeout.toNanos();
        while (true) {
            int behind = behind(generation);
            long left = deadline - nanos.getAsLong();
            if (behind == 0 || left <= 0) {
                return behind;
            }
            // A frontend that stops pinging leaves the lease without a call to wake this: look again soon.
            TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
        }
    }

    private int behind(long generation) {
        long now = nanos.getAsLong();
        int behind = 0;
        for (Iterator<Heard> it = heard.values().iterator(); it.hasNext(); ) {
            Heard h = it.next();
            if (now - h.atNanos() > leaseNanos) {
                it.remove();
            } else if (h.known() != generation) {
                behind++;
            }
        }
        return behind;
    }
}
