package io.trigrep.indexer.build;

import io.trigrep.indexer.corpus.FileVisitor;
import io.trigrep.indexer.filter.ContentFilter;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.filter.SkipReason;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts the files a read would leave out, by reason, with the rules a build applies (the
 * reader's, then the workers' content check), indexing nothing: what the paths an update re-reads
 * counted in a package's skipped files before, so that they can be taken out of its counts.
 */
final class SkipTally implements FileVisitor {
    private final FilterLimits limits;
    private final ContentFilter filter;
    /** By reason key: {files, bytes}. */
    private final Map<String, long[]> counts = new TreeMap<>();

    SkipTally(FilterLimits limits) {
        this.limits = limits;
        this.filter = new ContentFilter(limits);
    }

    Map<String, long[]> counts() {
        return counts;
    }

    @Override
    public long maxFileBytes() {
        return limits.maxFileBytes();
    }

    @Override
    public void file(String path, ByteBuffer content) {
        int length = content.remaining();
        SkipReason reason = PackageReader.reasonBeforeContent(path, length, limits);
        if (reason == null) {
            reason = filter.checkContent(content);
        }
        if (reason != null) {
            skipped(path, reason, length);
        }
    }

    @Override
    public void skipped(String path, SkipReason reason, long bytes) {
        long[] c = counts.computeIfAbsent(reason.key(), x -> new long[2]);
        c[0]++;
        c[1] += bytes;
    }
}
