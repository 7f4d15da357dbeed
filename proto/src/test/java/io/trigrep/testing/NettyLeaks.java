package io.trigrep.testing;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import io.netty.util.ResourceLeakTracker;
import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Turns Netty's leak reports into test failures. The session listener installs a leak detector
 * factory before any buffer class loads; after every Jupiter test the extension collects garbage,
 * gives Netty a chance to notice unreleased buffers, and fails the test that leaked; a test after
 * which no buffer was tracked since the last check skips the collection. Both are
 * registered through META-INF/services and shipped in proto's test jar for every module.
 */
public final class NettyLeaks implements LauncherSessionListener, AfterEachCallback {
    private static final ConcurrentLinkedQueue<String> LEAKS = new ConcurrentLinkedQueue<>();
    private static final long SENTINEL_WAIT_MILLIS = 1_000;
    /** Buffers tracked so far, and how many had been when the last check collected. */
    private static final AtomicLong TRACKED = new AtomicLong();

    private static long trackedAtLastCheck = -1;

    @Override
    public void launcherSessionOpened(LauncherSession session) {
        install();
    }

    static synchronized void install() {
        ResourceLeakDetectorFactory.setResourceLeakDetectorFactory(new ResourceLeakDetectorFactory() {
            @Override
            @SuppressWarnings("deprecation")
            public <T> ResourceLeakDetector<T> newResourceLeakDetector(
                    Class<T> resource, int samplingInterval, long maxActive) {
                return new Recording<>(resource, samplingInterval);
            }
        });
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        check(context.getDisplayName());
    }

    /** Fails with every leak Netty reported since the last check, naming {@code what} ran last. */
    static synchronized void check(String what) {
        if (TRACKED.get() != trackedAtLastCheck) {
            collect();
            // Leaks are reported when the next buffer is tracked: track a few.
            for (int i = 0; i < 4; i++) {
                ByteBufAllocator.DEFAULT.buffer(1).release();
                Unpooled.buffer(1).release();
            }
            trackedAtLastCheck = TRACKED.get();
        }
        List<String> leaks = new ArrayList<>();
        for (String leak; (leak = LEAKS.poll()) != null; ) {
            leaks.add(leak);
        }
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty buffer(s) leaked by " + what + " or a test before it:\n"
                    + String.join("\n", leaks));
        }
    }

    /**
     * Collects garbage and waits until the collector's queued references reach their queues: a
     * reference of our own, dropped before the collection, is queued in the same batch as
     * Netty's, and the thread that queues them is left to finish that batch.
     */
    private static void collect() {
        ReferenceQueue<Object> queue = new ReferenceQueue<>();
        WeakReference<Object> sentinel = new WeakReference<>(new Object(), queue);
        System.gc();
        try {
            if (queue.remove(SENTINEL_WAIT_MILLIS) != null) {
                Thread.yield();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Reference.reachabilityFence(sentinel);
    }

    /** Counts what it tracks and queues what it finds; the failing test shows the records, not Netty's log. */
    private static final class Recording<T> extends ResourceLeakDetector<T> {
        @SuppressWarnings("deprecation")
        Recording(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval, Long.MAX_VALUE);
        }

        @Override
        public ResourceLeakTracker<T> track(T obj) {
            TRACKED.incrementAndGet();
            return super.track(obj);
        }

        @Override
        public ResourceLeakTracker<T> trackForcibly(T obj) {
            TRACKED.incrementAndGet();
            return super.trackForcibly(obj);
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            LEAKS.add("LEAK " + resourceType + records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            LEAKS.add("LEAK " + resourceType);
        }
    }
}
