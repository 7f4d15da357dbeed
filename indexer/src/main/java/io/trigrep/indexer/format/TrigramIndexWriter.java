package io.trigrep.indexer.format;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes {@code trigrams.tgi}: posting lists as they are completed, in increasing trigram order,
 * then the trigram table, the prefix table and the directory (FORMAT.md). The table (12 bytes a
 * trigram, up to 2^24 of them: 200 MB) is spooled to a scratch file beside the output rather
 * than held in the heap, so a shard holding every trigram builds in a small heap.
 */
public final class TrigramIndexWriter implements AutoCloseable {
    static final int PREFIXES = 1 << 8;
    static final int ENTRY_BYTES = 12;
    static final int DIRECTORY_BYTES = 48;

    private final FormatOutput out;
    private final int docCount;
    private final Part direct;
    private final FormatOutput table;
    private final int[] firstBytes = new int[PREFIXES];
    private int tableSize;
    private int lastTrigram = -1;
    private int maxListBytes;
    private long postingBytes;
    private long varintBytes;

    public TrigramIndexWriter(Path path, int docCount) throws IOException {
        this.out = new FormatOutput(path, Envelope.KIND_TRIGRAMS);
        try {
            this.table = new FormatOutput(path.resolveSibling(path.getFileName() + ".table"));
        } catch (IOException e) {
            out.close();
            throw e;
        }
        this.docCount = docCount;
        this.direct = new Part(out, docCount, true);
    }

    /** Adds one (trigram, doc) pair straight to the file. Pairs must arrive sorted by trigram, then doc. */
    public void add(int trigram, int doc) throws IOException {
        direct.add(trigram, doc);
    }

    /**
     * A part: the posting lists of one trigram range, encoded by another thread into its own
     * scratch file. Parts are {@link #append appended} in increasing trigram order.
     */
    public Part newPart(Path scratch) throws IOException {
        return new Part(new FormatOutput(scratch), docCount, false);
    }

    /** Copies a finished part's lists into the index and takes over its table entries. */
    public void append(Part part) throws IOException {
        direct.endList();
        part.endList();
        long base = out.position();
        FileChannel channel = part.out.flushedChannel();
        long length = channel.size();
        if (length > 0) {
            try (Arena arena = Arena.ofConfined()) {
                ByteBuffer bytes = channel.map(FileChannel.MapMode.READ_ONLY, 0, length, arena)
                        .asByteBuffer();
                out.transferFrom(channel, 0, length, bytes);
            }
        }
        for (int i = 0; i < part.entries.size; i++) {
            long key = part.entries.keys[i];
            record((int) (key >>> 40), base + (key & ((1L << 40) - 1)), part.entries.counts[i]);
        }
        maxListBytes = Math.max(maxListBytes, part.maxListBytes);
        postingBytes += part.postingBytes;
        varintBytes += part.varintBytes;
        part.close();
    }

    private void record(int trigram, long offset, int count) throws IOException {
        if (trigram <= lastTrigram) {
            throw new IllegalStateException(
                    "parts must be appended in increasing trigram order: " + trigram + " after " + lastTrigram);
        }
        lastTrigram = trigram;
        table.writeLong((long) trigram << 40 | offset);
        table.writeInt(count);
        firstBytes[trigram >>> 16]++;
        tableSize++;
    }

    /** Table entries in the making: {@code trigram << 40 | offset} and the doc count, growing as needed. */
    private static final class Entries {
        long[] keys = new long[1024];
        int[] counts = new int[1024];
        int size;

        void add(int trigram, long offset, int count) {
            if (size == keys.length) {
                keys = Arrays.copyOf(keys, size * 2);
                counts = Arrays.copyOf(counts, size * 2);
            }
            keys[size] = (long) trigram << 40 | offset;
            counts[size] = count;
            size++;
        }
    }

    /** Posting lists of a range of trigrams, encoded into one output. Not thread-safe; one per thread. */
    public final class Part implements AutoCloseable {
        private final FormatOutput out;
        private final int docCount;
        private final boolean direct;
        private final PostingEncoder encoder = new PostingEncoder();
        private final Entries entries = new Entries();
        private int current = -1;
        private int previousDoc = -1;
        private int maxListBytes;
        private long postingBytes;
        private long varintBytes;

        private Part(FormatOutput out, int docCount, boolean direct) {
            this.out = out;
            this.docCount = docCount;
            this.direct = direct;
        }

        /** Adds one (trigram, doc) pair. Pairs must arrive sorted by trigram, then doc. */
        public void add(int trigram, int doc) throws IOException {
            if (trigram != current) {
                if (trigram < current || trigram >>> 24 != 0) {
                    throw new IllegalArgumentException(
                            "trigrams must be 24-bit and increasing: " + trigram + " after " + current);
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
            long offset = out.position();
            int count = encoder.count();
            int bytes = encoder.finish(out);
            maxListBytes = Math.max(maxListBytes, bytes);
            postingBytes += bytes;
            if (direct) {
                TrigramIndexWriter.this.record(current, offset, count);
                TrigramIndexWriter.this.maxListBytes = Math.max(TrigramIndexWriter.this.maxListBytes, bytes);
                TrigramIndexWriter.this.postingBytes += bytes;
                TrigramIndexWriter.this.varintBytes += varintBytes;
                varintBytes = 0;
            } else {
                entries.add(current, offset, count);
            }
            current = -1;
        }

        @Override
        public void close() throws IOException {
            if (!direct) {
                out.close();
                Files.deleteIfExists(out.path());
            }
        }
    }

    /** What the same posting lists would take as codesearch-style varint gaps: the measured alternative in FORMAT.md. */
    public long varintPostingBytes() {
        return varintBytes;
    }

    public long postingBytes() {
        return postingBytes;
    }

    public int trigramCount() {
        return tableSize;
    }

    /** Writes the tables, the directory and the footer; the file is complete and synced on return. */
    public void finish() throws IOException {
        direct.endList();
        long tableStart = out.position();
        out.copyFrom(table.flushedChannel(), 0, (long) tableSize * ENTRY_BYTES);
        long prefixStart = out.position();
        int entry = 0;
        for (int prefix = 0; prefix <= PREFIXES; prefix++) {
            out.writeInt(entry);
            entry += prefix < PREFIXES ? firstBytes[prefix] : 0;
        }
        out.writeLong(Envelope.HEADER);
        out.writeLong(tableStart);
        out.writeInt(tableSize);
        out.writeInt(docCount);
        out.writeLong(prefixStart);
        out.writeInt(maxListBytes);
        out.writeInt(0);
        out.writeLong(0);
        out.finish();
        table.close();
        Files.deleteIfExists(table.path());
    }

    @Override
    public void close() throws IOException {
        try {
            out.close();
        } finally {
            table.close();
            Files.deleteIfExists(table.path());
        }
    }
}
