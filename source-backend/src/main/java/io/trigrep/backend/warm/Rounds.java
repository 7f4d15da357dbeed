package io.trigrep.backend.warm;

/** How a warm-up log says its rounds went, for the backend's and the frontend's alike. */
public final class Rounds {
    private Rounds() {}

    /**
     * {@code first round F ms, last L ms}, or {@code no whole round} when the budget ran out
     * within the first (both -1): a big shard's round holds full scans of several seconds.
     */
    public static String describe(long firstRoundNanos, long lastRoundNanos) {
        if (firstRoundNanos < 0) {
            return "no whole round";
        }
        return String.format("first round %.0f ms, last %.0f ms", firstRoundNanos / 1e6, lastRoundNanos / 1e6);
    }
}
