package io.trigrep.backend.search;

import io.trigrep.indexer.segments.LiveShard;

/** Messages as a client may see them: the server's paths to a shard's files replaced by the shard's name. */
public final class ShardPaths {
    private ShardPaths() {}

    /** {@code message} with the paths of {@code live}'s segments and folder named by the shard instead. */
    public static String without(LiveShard live, String message) {
        String named = message;
        // Newest first: a segment's folder lies inside the shard's, so its longer path goes first.
        for (int i = live.segments().size() - 1; i >= 0; i--) {
            named = live.segments().get(i).shard().withoutPaths(named);
        }
        String folder = live.folder().toString();
        return named.replace(folder, live.name());
    }
}
