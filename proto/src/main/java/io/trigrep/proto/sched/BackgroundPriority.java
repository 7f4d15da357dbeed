package io.trigrep.proto.sched;

/**
 * Threads for heavy work (a query past its quantum, a sort aside, a tee's disk writes), at a lower
 * OS priority, so that a selective query arriving meanwhile gets a core at once instead of a time
 * slice among them. Queueing alone cannot do that: a selective query's task starts within a chunk,
 * but then shares the cores with every busy thread of every process.
 *
 * <p>The JVM maps Java priorities to nice values only when started with
 * {@code -XX:ThreadPriorityPolicy=1} (the launcher adds it, with
 * {@code -XX:JavaPriority1_To_OSPriority} for the nice value of {@link Thread#MIN_PRIORITY});
 * without it, a priority is a number the OS never sees. Such threads are lowered once, for good,
 * and do nothing but background work: lowering needs no right, while raising a thread back needs
 * {@code CAP_SYS_NICE}, which a container as another user than root does not have (the JVM then
 * ignores the call silently), so a thread that switched between both kinds of work would end up
 * lowered for both.
 *
 * <p>It lives in proto, which every process has on its class path: backends and the frontend
 * lower their heavy threads alike without one depending on the other.
 */
public final class BackgroundPriority {
    private BackgroundPriority() {}

    /** A daemon thread named {@code name} that lowers its own priority, then runs {@code loop}. */
    public static Thread thread(Runnable loop, String name) {
        Thread t = new Thread(
                () -> {
                    lowerForGood();
                    loop.run();
                },
                name);
        t.setDaemon(true);
        return t;
    }

    /** Lowers the calling thread for the rest of its life. */
    @SuppressWarnings("ThreadPriorityCheck") // the point: heavy work yields the cores to selective work
    static void lowerForGood() {
        Thread.currentThread().setPriority(Thread.MIN_PRIORITY);
    }
}
