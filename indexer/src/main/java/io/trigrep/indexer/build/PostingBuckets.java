package io.trigrep.indexer.build;

import io.trigrep.indexer.format.TrigramIndexWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Turns every doc's distinct trigrams into posting lists without sorting pairs. One pass counts
 * each trigram's docs; the trigram space is then cut into ranges whose lists fit a worker's
 * buffer, and for each range a worker walks the docs in id order and drops each doc into its
 * trigrams' slots, so every list comes out already in doc order and is encoded straight from
 * the buffer.
 *
 * <p>Memory is the count table (4 bytes per possible trigram, 64 MiB) plus the workers'
 * buffers ({@code bufferInts} doc ids in all) and a cursor per doc, whatever the corpus size.
 * Each range reads only the first-byte groups of each doc's trigrams it covers (the spools
 * group them), so each worker reads the (memory-mapped) spools about once in all, however many
 * ranges a small buffer makes. Counting then filling writes each pair once, where sorting
 * (trigram, doc) pairs in runs on disk wrote and read each back (BENCHMARKS.md, "Tried and dropped").
 *
 * <p>A small build (at most {@link #SORTED_PAIRS} pairs: an update's segment of a few files)
 * sorts its pairs in memory instead: the count table's fixed cost, allocating and sweeping 16 M
 * slots, would be most of its time. Both give the same lists in the same order, so the same file.
 */
final class PostingBuckets {
    /** At most this many (trigram, doc) pairs are sorted in memory (8 bytes each) rather than counted. */
    static final int SORTED_PAIRS = 1 << 20;

    /** Each doc's distinct trigrams: {@code count[d]} little-endian ints at byte {@code at[d]} of {@code spool[d]}. */
    @SuppressWarnings("ArrayRecordComponent") // parallel arrays by design: a carrier, never compared
    record DocTrigrams(ByteBuffer[] spool, int[] at, int[] count) {
        int docs() {
            return count.length;
        }
    }

    /** What a build did: the ranges (passes over the spools) it took. */
    record Outcome(int ranges) {}

    private PostingBuckets() {}

    static Outcome build(
            DocTrigrams docs, int bufferInts, int threads, ExecutorService pool, TrigramIndexWriter index, Path folder)
            throws IOException {
        return build(docs, bufferInts, threads, pool, index, folder, SORTED_PAIRS);
    }

    /** {@link #build} with pairs sorted in memory up to {@code sortedPairs} of them. */
    static Outcome build(
            DocTrigrams docs,
            int bufferInts,
            int threads,
            ExecutorService pool,
            TrigramIndexWriter index,
            Path folder,
            int sortedPairs)
            throws IOException {
        long pairs = 0;
        for (int n : docs.count()) {
            pairs += n;
        }
        if (pairs <= sortedPairs) {
            return sorted(docs, (int) pairs, index, folder);
        }
        int[] slots = new int[1 << 24];
        int maxList = 0;
        for (int d = 0; d < docs.docs(); d++) {
            ByteBuffer spool = docs.spool()[d];
            int at = docs.at()[d];
            for (int i = 0, n = docs.count()[d]; i < n; i++) {
                slots[spool.getInt(at + 4 * i)]++;
            }
        }
        // A range holds whole lists: a list longer than a share of the buffer gets a range of its own.
        for (int count : slots) {
            maxList = Math.max(maxList, count);
        }
        int budget = Math.max(maxList, Math.max(1, bufferInts / threads));
        // Counts become each list's start within its range; the fill advances them to its end.
        List<int[]> ranges = new ArrayList<>();
        int from = 0;
        int used = 0;
        for (int t = 0; t < slots.length; t++) {
            int count = slots[t];
            if (used + count > budget) {
                ranges.add(new int[] {from, t, used});
                from = t;
                used = 0;
            }
            slots[t] = used;
            used += count;
        }
        ranges.add(new int[] {from, slots.length, used});

        List<TrigramIndexWriter.Part> parts = new ArrayList<>();
        try {
            for (int r = 0; r < ranges.size(); r++) {
                parts.add(index.newPart(folder.resolve("part-" + r)));
            }
            AtomicInteger next = new AtomicInteger();
            Callable<Void> worker = () -> {
                int[] buffer = null;
                int[] cursors = new int[docs.docs()];
                for (int r = next.getAndIncrement(); r < ranges.size(); r = next.getAndIncrement()) {
                    int[] range = ranges.get(r);
                    if (buffer == null || buffer.length < range[2]) {
                        buffer = new int[range[2]];
                    }
                    fill(docs, slots, range[0], range[1], buffer, cursors);
                    encode(slots, range[0], range[1], buffer, parts.get(r));
                }
                return null;
            };
            // The calling thread is a worker too: the build progresses however busy the pool is.
            List<Future<?>> helpers = new ArrayList<>();
            for (int w = 1; w < Math.min(threads, ranges.size()); w++) {
                helpers.add(pool.submit(worker));
            }
            try {
                worker.call();
            } catch (IOException | RuntimeException e) {
                next.set(ranges.size());
                throw e;
            } catch (Exception e) {
                throw new IOException(e);
            } finally {
                for (Future<?> f : helpers) {
                    ShardBuilder.await(f);
                }
            }
            for (TrigramIndexWriter.Part part : parts) {
                index.append(part);
            }
        } finally {
            for (TrigramIndexWriter.Part part : parts) {
                part.close();
            }
        }
        return new Outcome(ranges.size());
    }

    /** Every pair as {@code trigram << 32 | doc}, sorted: trigram order, then doc order; one part. */
    private static Outcome sorted(DocTrigrams docs, int pairs, TrigramIndexWriter index, Path folder)
            throws IOException {
        long[] all = new long[pairs];
        int k = 0;
        for (int d = 0; d < docs.docs(); d++) {
            ByteBuffer spool = docs.spool()[d];
            int at = docs.at()[d];
            for (int i = 0, n = docs.count()[d]; i < n; i++) {
                all[k++] = (long) spool.getInt(at + 4 * i) << 32 | d;
            }
        }
        Arrays.sort(all);
        try (TrigramIndexWriter.Part part = index.newPart(folder.resolve("part-0"))) {
            for (long pair : all) {
                part.add((int) (pair >>> 32), (int) pair);
            }
            index.append(part);
        }
        return new Outcome(1);
    }

    /**
     * Drops every doc into the slots of its trigrams in {@code [from, to)}, in doc order. A doc's
     * trigrams are grouped by first byte, so it reads only the groups the range covers, starting
     * at {@code cursors[d]}: the worker's ranges increase, and groups wholly below a range are
     * never needed by this worker again, so the cursor moves past them for good.
     */
    private static void fill(DocTrigrams docs, int[] slots, int from, int to, int[] buffer, int[] cursors) {
        int width = to - from;
        int firstGroup = from >>> 16;
        int lastGroup = (to - 1) >>> 16;
        ByteBuffer[] spools = docs.spool();
        int[] ats = docs.at();
        int[] counts = docs.count();
        for (int d = 0; d < counts.length; d++) {
            ByteBuffer spool = spools[d];
            int at = ats[d];
            int n = counts[d];
            int i = cursors[d];
            while (i < n && spool.getInt(at + 4 * i) >>> 16 < firstGroup) {
                i++;
            }
            cursors[d] = i;
            for (; i < n; i++) {
                int t = spool.getInt(at + 4 * i);
                if (t >>> 16 > lastGroup) {
                    break;
                }
                if (t - from >= 0 && t - from < width) {
                    buffer[slots[t]++] = d;
                }
            }
        }
    }

    /** After {@link #fill}, each slot holds its list's end; the list starts where the previous one ended. */
    private static void encode(int[] slots, int from, int to, int[] buffer, TrigramIndexWriter.Part part)
            throws IOException {
        int start = 0;
        for (int t = from; t < to; t++) {
            int end = slots[t];
            for (int j = start; j < end; j++) {
                part.add(t, buffer[j]);
            }
            start = end;
        }
    }
}
