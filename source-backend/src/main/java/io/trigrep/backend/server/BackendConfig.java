package io.trigrep.backend.server;

import java.time.Duration;

/**
 * How a backend serves its shard.
 *
 * @param threads          search threads, shared by all queries (default: one per core)
 * @param maxConcurrent    queries running at once; more are refused as overloaded
 * @param maxResults       cap on results per query, whatever the request asks
 * @param defaultDeadline  deadline of a query whose request names none
 * @param maxDeadline      longest deadline a request may ask for
 * @param maxContextLines  context lines per side a request may ask for
 */
public record BackendConfig(
        int threads,
        int maxConcurrent,
        int maxResults,
        Duration defaultDeadline,
        Duration maxDeadline,
        int maxContextLines) {
    public BackendConfig {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be >= 1, got " + threads);
        }
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("maxConcurrent must be >= 1, got " + maxConcurrent);
        }
        if (maxResults < 1) {
            throw new IllegalArgumentException("maxResults must be >= 1, got " + maxResults);
        }
        if (defaultDeadline.isNegative() || defaultDeadline.isZero() || maxDeadline.compareTo(defaultDeadline) < 0) {
            throw new IllegalArgumentException(
                    "deadlines must be positive with max >= default, got " + defaultDeadline + " and " + maxDeadline);
        }
    }

    public static BackendConfig defaults() {
        return new BackendConfig(
                Runtime.getRuntime().availableProcessors(),
                64,
                5_000_000,
                Duration.ofSeconds(30),
                Duration.ofMinutes(5),
                10);
    }
}
