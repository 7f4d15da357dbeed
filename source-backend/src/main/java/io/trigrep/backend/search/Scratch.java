package io.trigrep.backend.search;

import io.trigrep.indexer.filter.FilterLimits;

/**
 * The buffer each search thread copies a file into to search it, kept across searches: a thread
 * holds one copy of the largest file it has met (at most 64 MiB, the index format's largest
 * file), however many searches it runs. A buffer per search instead would leave one such copy
 * per finished search on each thread until its thread-local entry is cleared, and run the heap
 * out once files of many megabytes are indexed. One per server, shared by its searches.
 */
public final class Scratch {
    private final ThreadLocal<byte[][]> buffers = ThreadLocal.withInitial(() -> new byte[][] {new byte[4096]});

    /** This thread's buffer, grown to hold at least {@code length} bytes (doubling, so growth is rare). */
    byte[] atLeast(int length) {
        byte[][] slot = buffers.get();
        if (slot[0].length < length) {
            slot[0] = new byte[(int) Math.max(length, Math.min(2L * slot[0].length, FilterLimits.MAX_FILE_BYTES))];
        }
        return slot[0];
    }
}
