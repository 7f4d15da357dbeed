package io.trigrep.indexer.format;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes {@code trigrams.tgi}: posting lists as they are completed, in increasing trigram order,
 * then the trigram table, the prefix table and the directory (FORMAT.md).
 */
public final class TrigramIndexWriter implements AutoCloseable {
    static final int PREFIXES = 1 << 8;
    static final int ENTRY_BYTES = 12;
    static final int DIRECTORY_BYTES = 48;

    private final FormatOutput out;
    private final int docCount;
    private final PostingEncoder encoder = new PostingEncoder();
    private long[] entries = new long[1024];
    private int[] counts = new int[1024];
    private int trigrams;
    private int current = -1;
    private int maxListBytes;
    private long postingBytes;
    private long varintBytes;
    private int previousDoc = -1;

    public TrigramIndexWriter(Path path, int docCount) throws IOException {
        this.out = new FormatOutput(path, Envelope.KIND_TRIGRAMS);
        this.docCount = docCount;
    }

    /** Adds one (trigram, doc) pair. Pairs must arrive sorted by trigram, then doc. */
    public void add(int trigram, int doc) throws IOException {
        if (trigram != current) {
            if (trigram < current || trigram >>> 24 != 0) {
                throw new IllegalArgumentException("trigrams must be 24-bit and increasing: " + trigram + " after " + current);
            }
            endList();
            current = trigram;
            previousDoc = -1;
        }
        if (doc < 0 || doc >= docCount) {
            throw new IllegalArgumentException("doc must be in [0, " + docCount + "), got " + doc);
        }
        encoder.add(doc);
        int gap = doc - previousDoc;
        previousDoc = doc;
        varintBytes += gap < 1 << 7 ? 1 : gap < 1 << 14 ? 2 : gap < 1 << 21 ? 3 : gap < 1 << 28 ? 4 : 5;
    }

    private void endList() throws IOException {
        if (current < 0 || encoder.count() == 0) {
            return;
        }
        if (trigrams == entries.length) {
            entries = Arrays.copyOf(entries, trigrams * 2);
            counts = Arrays.copyOf(counts, trigrams * 2);
        }
        long offset = out.position();
        int count = encoder.count();
        int bytes = encoder.finish(out);
        entries[trigrams] = (long) current << 40 | offset;
        counts[trigrams] = count;
        trigrams++;
        maxListBytes = Math.max(maxListBytes, bytes);
        postingBytes += bytes;
    }

    /** What the same posting lists would take as codesearch-style varint gaps: the measured alternative in FORMAT.md. */
    public long varintPostingBytes() {
        return varintBytes;
    }

    public long postingBytes() {
        return postingBytes;
    }

    public int trigramCount() {
        return trigrams;
    }

    /** Writes the tables, the directory and the footer; the file is complete and synced on return. */
    public void finish() throws IOException {
        endList();
        long tableStart = out.position();
        for (int i = 0; i < trigrams; i++) {
            out.writeLong(entries[i]);
            out.writeInt(counts[i]);
        }
        long prefixStart = out.position();
        int entry = 0;
        for (int prefix = 0; prefix <= PREFIXES; prefix++) {
            while (entry < trigrams && (int) (entries[entry] >>> 56) < prefix) {
                entry++;
            }
            out.writeInt(entry);
        }
        out.writeLong(Envelope.HEADER);
        out.writeLong(tableStart);
        out.writeInt(trigrams);
        out.writeInt(docCount);
        out.writeLong(prefixStart);
        out.writeInt(maxListBytes);
        out.writeInt(0);
        out.writeLong(0);
        out.finish();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
