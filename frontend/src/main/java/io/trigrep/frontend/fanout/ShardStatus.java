package io.trigrep.frontend.fanout;

import java.util.Locale;

/** How one backend's part of a query ended, or that it has not yet. */
public record ShardStatus(
        String shard, State state, Outcome outcome, String reason, long results, long filesSearched, long totalFiles) {
    public enum State {
        RUNNING,
        DONE,
        FAILED
    }

    /** The kind of ending, recorded where it happens (metrics label it; the reason says it in words). */
    public enum Outcome {
        /** Still running, or done. */
        OK,
        /** The backend answered that the user's query is wrong: the user's mistake, not the backend's. */
        BAD_QUERY,
        CONNECT,
        MALFORMED,
        CLOSED,
        DEADLINE,
        /** Nothing came while the backend's pings failed (stopped, hung, not ready): given up before the deadline. */
        STALLED,
        CANCELLED,
        ERROR,
        /** The TLS handshake failed or the session broke: certificates or configuration, not the search. */
        TLS,
        /** The frontend could not write what the backend sent: its own disk, not the backend, failed. */
        FRONTEND_DISK;

        /** The metrics label: ok, bad_query, connect, malformed, closed, deadline, stalled, cancelled, error, tls, frontend_disk. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Whether the backend failed: a user's bad query must not count (nor page operators). */
        public boolean backendFailed() {
            return this != OK && this != BAD_QUERY && this != FRONTEND_DISK;
        }
    }

    static ShardStatus running(String shard) {
        return new ShardStatus(shard, State.RUNNING, Outcome.OK, null, 0, 0, 0);
    }

    static ShardStatus failed(String shard, Outcome outcome, String reason) {
        return new ShardStatus(shard, State.FAILED, outcome, reason, 0, 0, 0);
    }
}
