package io.trigrep.frontend.http;

import io.trigrep.frontend.fanout.OpenFiles;
import java.time.Duration;

/**
 * What one HTTP connection may hold, and for how long.
 *
 * @param maxConnections open connections at most; at the cap the longest-waiting connection
 *                       without a request being answered is closed to admit a new one, or the new
 *                       one is closed at once when every connection has a request in progress
 * @param requestTimeout from a request's first byte to its last (headers and body): slow senders
 *                       (slowloris) are cut here
 * @param idleTimeout    a keep-alive connection with nothing in progress is closed after this
 * @param answerTimeout  from a whole request to the end of its answer, an event stream's included:
 *                       a reader that stops reading does not hold its connection for ever
 * @param maxPipelined   requests read ahead of the one being answered; more close the connection
 */
public record ConnectionLimits(
        int maxConnections, Duration requestTimeout, Duration idleTimeout, Duration answerTimeout, int maxPipelined) {
    public ConnectionLimits {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be >= 1, got " + maxConnections);
        }
        for (Duration d : new Duration[] {requestTimeout, idleTimeout, answerTimeout}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("timeouts must be > 0, got " + d);
            }
        }
        if (maxPipelined < 0) {
            throw new IllegalArgumentException("maxPipelined must be >= 0, got " + maxPipelined);
        }
    }

    /**
     * 10 s to send a request, 60 s idle, 120 s to answer (four times the search deadline), 16
     * pipelined requests, and a connection cap from {@link #connectionsFor the descriptor limit}.
     */
    public static ConnectionLimits defaults() {
        return new ConnectionLimits(
                connectionsFor(descriptorLimit()),
                Duration.ofSeconds(10),
                Duration.ofSeconds(60),
                Duration.ofSeconds(120),
                16);
    }

    /**
     * The cap for a process allowed {@code descriptors} open files: three quarters of them, less
     * 256 for shard connections, query files, jars and the JVM's own, and never over 50,000. The
     * cached answers' files have the last quarter ({@code QueryCache.entriesFor}).
     */
    public static int connectionsFor(long descriptors) {
        return (int) Math.max(16, Math.min(50_000, descriptors * 3 / 4 - 256));
    }

    /** The process's open-file limit, or 4096 where the JVM cannot tell. */
    static long descriptorLimit() {
        return OpenFiles.limit();
    }
}
