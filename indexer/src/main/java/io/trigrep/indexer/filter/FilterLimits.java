package io.trigrep.indexer.filter;

/**
 * Which files are worth indexing.
 *
 * @param maxFileBytes      files above this are skipped (default 1 MiB)
 * @param maxLineBytes      a file with a longer line is skipped: minified or generated (default 2000)
 * @param maxTrigrams       a file with more distinct trigrams is skipped: it is data (default 20000)
 * @param maxInvalidUtf8    a file whose share of invalid UTF-8 sequences exceeds this is binary (default 0.1)
 */
public record FilterLimits(long maxFileBytes, int maxLineBytes, int maxTrigrams, double maxInvalidUtf8) {
    public static final FilterLimits DEFAULT = new FilterLimits(1 << 20, 2000, 20_000, 0.1);

    public FilterLimits {
        if (maxFileBytes < 1 || maxFileBytes > 64 << 20) {
            throw new IllegalArgumentException("maxFileBytes must be in [1, 64 MiB], got " + maxFileBytes);
        }
        if (maxLineBytes < 1) {
            throw new IllegalArgumentException("maxLineBytes must be > 0, got " + maxLineBytes);
        }
        if (maxTrigrams < 1) {
            throw new IllegalArgumentException("maxTrigrams must be > 0, got " + maxTrigrams);
        }
        if (!(maxInvalidUtf8 >= 0 && maxInvalidUtf8 <= 1)) {
            throw new IllegalArgumentException("maxInvalidUtf8 must be in [0, 1], got " + maxInvalidUtf8);
        }
    }
}
