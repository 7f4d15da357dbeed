package io.trigrep.testing;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Turns Netty's leak reports into test failures. The session listener installs a leak detector
 * factory before any buffer class loads; after every Jupiter test the extension collects garbage,
 * gives Netty a chance to notice unreleased buffers, and fails the test that leaked. Both are
 * registered through META-INF/services and shipped in proto's test jar for every module.
 */
public final class NettyLeaks implements LauncherSessionListener, AfterEachCallback {
    private static final ConcurrentLinkedQueue<String> LEAKS = new ConcurrentLinkedQueue<>();

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
        for (int round = 0; round < 3; round++) {
            System.gc();
            // Leaks are reported when the next buffer is tracked: track a few.
            for (int i = 0; i < 4; i++) {
                ByteBufAllocator.DEFAULT.buffer(1).release();
                Unpooled.buffer(1).release();
            }
        }
        List<String> leaks = new ArrayList<>();
        for (String leak; (leak = LEAKS.poll()) != null; ) {
            leaks.add(leak);
        }
        if (!leaks.isEmpty()) {
            throw new AssertionError(leaks.size() + " Netty buffer(s) leaked by " + context.getDisplayName()
                    + " or a test before it:\n" + String.join("\n", leaks));
        }
    }

    private static final class Recording<T> extends ResourceLeakDetector<T> {
        @SuppressWarnings("deprecation")
        Recording(Class<T> resource, int samplingInterval) {
            super(resource, samplingInterval, Long.MAX_VALUE);
        }

        @Override
        protected void reportTracedLeak(String resourceType, String records) {
            LEAKS.add("LEAK " + resourceType + records);
            super.reportTracedLeak(resourceType, records);
        }

        @Override
        protected void reportUntracedLeak(String resourceType) {
            LEAKS.add("LEAK " + resourceType);
            super.reportUntracedLeak(resourceType);
        }
    }
}
