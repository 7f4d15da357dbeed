package io.trigrep.frontend.http;

import io.trigrep.frontend.fanout.QueryCaps;

/**
 * How many searches the frontend runs and what each may keep.
 *
 * @param maxQueries     searches running at once ({@code --max-queries})
 * @param maxExpensive   of which full scans, that read every file ({@code --max-expensive-queries})
 * @param maxPerClient   of which started by one client address ({@code --max-queries-per-client})
 * @param trustedProxies addresses and CIDR blocks whose {@code X-Forwarded-For} names the client
 *                       ({@code --trusted-proxies}); empty: none
 * @param caps           results and bytes one query keeps ({@code --max-query-results}, {@code --max-query-bytes})
 */
public record SearchLimits(int maxQueries, int maxExpensive, int maxPerClient, String trustedProxies, QueryCaps caps) {
    public SearchLimits {
        if (maxQueries < 1 || maxExpensive < 1 || maxPerClient < 1) {
            throw new IllegalArgumentException("query limits must be >= 1, got " + maxQueries + " queries, "
                    + maxExpensive + " expensive and " + maxPerClient + " per client");
        }
        ClientAddress.parse(trustedProxies); // refuses a bad address at start-up, not at the first request
    }

    /** Only the total bound, as before admission by cost and client: what tests that predate it assume. */
    public static SearchLimits total(int maxQueries, long cacheBytes) {
        return new SearchLimits(maxQueries, maxQueries, maxQueries, "", QueryCaps.forCache(cacheBytes));
    }
}
