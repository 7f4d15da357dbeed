package io.trigrep.indexer.build;

/** A build's counters and phase for tests outside this package, set as IndexBuilder sets them while it builds shards. */
public final class BuildPhases {
    private BuildPhases() {}

    public static IndexStats stats() {
        return new IndexStats();
    }

    public static void set(IndexStats stats, String phase) {
        stats.phase(phase);
    }
}
