package io.trigrep.frontend.metrics;

import java.nio.file.Path;

/** What the metrics read of the query cache: so that they need nothing of the fan-out's package, which uses them. */
public interface CacheCounts {
    /** Queries answered from a running or finished query. */
    long hits();

    /** Queries that had to be started. */
    long misses();

    /** Finished queries removed from the store. */
    long evictions();

    /** Cached queries dropped because a shard's generation moved on since they were searched. */
    long stale();

    /** Disk the store's query files take. */
    long bytes();

    /** The folder of the store's query files. */
    Path folder();
}
