package io.trigrep.frontend.fanout;

/**
 * What one query may keep: results, and bytes of results teed to disk. Each is split evenly over
 * the shards (the first {@code total % shards} get one more), and each shard's part is its first
 * results in its own search order (doc-id order, then line order): the backend stops at its part
 * of the results (the request's {@code maxResults}), the frontend stops reading a shard whose
 * results reach its part of the bytes. What a capped answer holds so depends on the query and the
 * index only, never on how the backends' streams interleaved: the same pages, byte for byte.
 *
 * @param maxResults results per query at most ({@code --max-query-results}, or the query's own
 *                   {@code count:N} when lower)
 * @param maxBytes   bytes of result frames per query at most ({@code --max-query-bytes})
 * @param counted    whether {@code maxResults} is the query's own {@code count:}, which an answer
 *                   cut there names as its reason
 */
public record QueryCaps(int maxResults, long maxBytes, boolean counted) {
    public static final int DEFAULT_MAX_RESULTS = 1_000_000;
    /**
     * The default byte cap is this fraction of the cache's budget: four capped queries fit in the
     * cache, so one query never evicts every other.
     */
    public static final int CACHE_FRACTION = 4;
    /** No less than this by default, so a small test cache still answers a few thousand results. */
    static final long MIN_DEFAULT_BYTES = 1L << 20;

    public QueryCaps {
        if (maxResults < 1 || maxBytes < 1) {
            throw new IllegalArgumentException(
                    "query caps must be >= 1, got " + maxResults + " results and " + maxBytes + " bytes");
        }
    }

    /** The server's caps. */
    public QueryCaps(int maxResults, long maxBytes) {
        this(maxResults, maxBytes, false);
    }

    /** Why an answer cut at {@link #maxResults} was cut: {@code count} or {@code results}. */
    String resultsReason() {
        return counted ? "count" : "results";
    }

    /** The defaults for a cache of {@code cacheBytes}: 1,000,000 results and a quarter of the cache. */
    public static QueryCaps forCache(long cacheBytes) {
        return new QueryCaps(DEFAULT_MAX_RESULTS, Math.max(MIN_DEFAULT_BYTES, cacheBytes / CACHE_FRACTION));
    }

    /** Shard {@code shard}'s part of the results, of {@code shards}; at least 1 (0 would ask for the backend's own cap). */
    public int resultsOf(int shard, int shards) {
        return (int) Math.max(1, share(maxResults, shard, shards));
    }

    /** Shard {@code shard}'s part of the bytes, of {@code shards}. */
    public long bytesOf(int shard, int shards) {
        return Math.max(1, share(maxBytes, shard, shards));
    }

    private static long share(long total, int shard, int shards) {
        return total / shards + (shard < total % shards ? 1 : 0);
    }
}
