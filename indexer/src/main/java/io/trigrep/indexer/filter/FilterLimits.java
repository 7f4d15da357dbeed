package io.trigrep.indexer.filter;

/**
 * Which files are indexed. Every regular file without a NUL byte is, up to a size cap; long lines,
 * many distinct trigrams and non-UTF-8 encodings are not reasons to leave a file out.
 *
 * @param maxFileBytes  larger files are skipped ({@link SkipReason#TOO_LARGE}); at most {@link #MAX_FILE_BYTES}, the
 *                      format's one-mapping span (default 64 MiB)
 * @param skipGenerated skip well-known generated or minified names ({@code .min.js}, {@code package-lock.json}, …);
 *                      off by default
 */
public record FilterLimits(long maxFileBytes, boolean skipGenerated) {
    /** A file's contents must be one span of a shard's mapping (see FORMAT.md, limits). */
    public static final long MAX_FILE_BYTES = 64L << 20;

    public static final FilterLimits DEFAULT = new FilterLimits(MAX_FILE_BYTES, false);

    public FilterLimits {
        if (maxFileBytes < 1 || maxFileBytes > MAX_FILE_BYTES) {
            throw new IllegalArgumentException("maxFileBytes must be in [1, " + MAX_FILE_BYTES
                    + "] (64 MiB, the largest file a shard can map as one span), got " + maxFileBytes);
        }
    }
}
