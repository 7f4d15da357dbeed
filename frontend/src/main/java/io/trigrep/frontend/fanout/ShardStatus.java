package io.trigrep.frontend.fanout;

/** How one backend's part of a query ended, or that it has not yet. */
public record ShardStatus(String shard, State state, String reason, long results, long filesSearched, long totalFiles) {
    public enum State { RUNNING, DONE, FAILED }

    static ShardStatus running(String shard) {
        return new ShardStatus(shard, State.RUNNING, null, 0, 0, 0);
    }
}
