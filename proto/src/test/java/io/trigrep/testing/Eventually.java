package io.trigrep.testing;

import java.time.Duration;

/**
 * Waits for a condition, never for a time: a check is retried with a short backoff until it holds
 * or the timeout passes, and then the failure names what was awaited, how long it waited and what
 * it last saw. Timeouts are generous because a test must pass on a loaded machine; a condition that
 * holds returns at once, so the limit only costs time when the test fails. Shipped in proto's test
 * jar for every module.
 */
public final class Eventually {
    /** How long a test waits for anything that should happen, on a busy 2-core CI runner. */
    public static final Duration PATIENCE = Duration.ofSeconds(60);

    private static final long FIRST_PAUSE_MILLIS = 1;
    private static final long LONGEST_PAUSE_MILLIS = 50;

    /** A condition that holds when it returns and does not yet hold when it throws. */
    @FunctionalInterface
    public interface Check {
        void check() throws Exception;
    }

    /** A value that is ready once it is not null; throwing means not ready yet. */
    @FunctionalInterface
    public interface Probe<T> {
        T get() throws Exception;
    }

    private Eventually() {}

    /**
     * Runs {@code check} until it returns normally. An exception or assertion error from it means
     * "not yet"; once {@code timeout} has passed, the last one is rethrown as the cause of an
     * {@link AssertionError} that names {@code what} and the time waited.
     */
    public static void eventually(String what, Duration timeout, Check check) throws InterruptedException {
        eventuallyGet(what, timeout, () -> {
            check.check();
            return Boolean.TRUE;
        });
    }

    /**
     * Asks {@code probe} until it returns a value that is not null, and returns that value; fails
     * as {@link #eventually} does, with the last exception or "still null" if it never threw.
     */
    public static <T> T eventuallyGet(String what, Duration timeout, Probe<T> probe) throws InterruptedException {
        long start = System.nanoTime();
        long pause = FIRST_PAUSE_MILLIS;
        int tries = 0;
        while (true) {
            Throwable last;
            tries++;
            try {
                T value = probe.get();
                if (value != null) {
                    return value;
                }
                last = null;
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception | AssertionError e) {
                last = e;
            }
            long waited = System.nanoTime() - start;
            if (waited >= timeout.toNanos()) {
                throw new AssertionError(
                        String.format(
                                "%s: not within %s (waited %.1f s, %d tries); last: %s",
                                what, timeout, waited / 1e9, tries, last == null ? "still null" : last),
                        last);
            }
            long left = (timeout.toNanos() - waited + 999_999) / 1_000_000;
            Thread.sleep(Math.min(pause, left));
            pause = Math.min(pause * 2, LONGEST_PAUSE_MILLIS);
        }
    }
}
