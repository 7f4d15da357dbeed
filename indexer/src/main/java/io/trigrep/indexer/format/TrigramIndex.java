package io.trigrep.indexer.format;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** Reads {@code trigrams.tgi}: trigram to posting list through the prefix table and a binary search. */
public final class TrigramIndex implements Closeable {
    private final MappedFile file;
    private final long tableStart;
    private final int trigrams;
    private final int docCount;
    private final long prefixStart;

    private TrigramIndex(MappedFile file, long tableStart, int trigrams, int docCount, long prefixStart) {
        this.file = file;
        this.tableStart = tableStart;
        this.trigrams = trigrams;
        this.docCount = docCount;
        this.prefixStart = prefixStart;
    }

    public static TrigramIndex open(Path path) throws IOException {
        MappedFile file = MappedFile.open(path);
        Envelope.check(file, Envelope.KIND_TRIGRAMS);
        long directory = file.size() - Envelope.FOOTER - TrigramIndexWriter.DIRECTORY_BYTES;
        if (directory < Envelope.HEADER) {
            throw new CorruptIndexException(path, directory, "no room for the directory");
        }
        long postingsStart = file.getLong(directory);
        long tableStart = file.getLong(directory + 8);
        int trigrams = file.getInt(directory + 16);
        int docCount = file.getInt(directory + 20);
        long prefixStart = file.getLong(directory + 24);
        int maxListBytes = file.getInt(directory + 32);
        if (postingsStart != Envelope.HEADER
                || tableStart < postingsStart
                || trigrams < 0
                || trigrams > 1 << 24
                || docCount < 0
                || tableStart + (long) trigrams * TrigramIndexWriter.ENTRY_BYTES != prefixStart
                || prefixStart + 4L * (TrigramIndexWriter.PREFIXES + 1) != directory) {
            throw new CorruptIndexException(
                    path,
                    directory,
                    "directory sections do not add up (tables at " + tableStart + ", " + prefixStart + ", " + trigrams
                            + " trigrams)");
        }
        if (maxListBytes < 0 || maxListBytes > MappedFile.DEFAULT_MAX_SPAN) {
            throw new CorruptIndexException(
                    path, directory + 32, "longest posting list of " + maxListBytes + " bytes is over the limit");
        }
        if (file.getInt(prefixStart + 4L * TrigramIndexWriter.PREFIXES) != trigrams) {
            throw new CorruptIndexException(path, prefixStart, "prefix table does not end at the trigram count");
        }
        return new TrigramIndex(file, tableStart, trigrams, docCount, prefixStart);
    }

    public int trigramCount() {
        return trigrams;
    }

    public int docCount() {
        return docCount;
    }

    public Path path() {
        return file.path();
    }

    /** Index of the trigram's table entry, or -1 when no file contains it. */
    public int find(int trigram) throws CorruptIndexException {
        int prefix = trigram >>> 16;
        int lo = file.getInt(prefixStart + 4L * prefix);
        int hi = file.getInt(prefixStart + 4L * (prefix + 1)) - 1;
        if (lo < 0 || hi >= trigrams) {
            throw new CorruptIndexException(
                    file.path(), prefixStart + 4L * prefix, "prefix table entry outside the trigram table");
        }
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int found = (int) (file.getLong(entryAt(mid)) >>> 40);
            if (found < trigram) {
                lo = mid + 1;
            } else if (found > trigram) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -1;
    }

    private long entryAt(int index) {
        return tableStart + (long) index * TrigramIndexWriter.ENTRY_BYTES;
    }

    /** The trigram of table entry {@code index}; entries are in increasing trigram order. */
    public int trigramAt(int index) throws CorruptIndexException {
        return (int) (file.getLong(entryAt(index)) >>> 40);
    }

    /** How many files contain the trigram of entry {@code index}. */
    public int docCountAt(int index) throws CorruptIndexException {
        return file.getInt(entryAt(index) + 8);
    }

    /** Points {@code into} at the posting list of entry {@code index}. */
    public PostingIterator postings(int index, PostingIterator into) throws CorruptIndexException {
        long start = file.getLong(entryAt(index)) & ((1L << 40) - 1);
        long end = index + 1 < trigrams ? file.getLong(entryAt(index + 1)) & ((1L << 40) - 1) : tableStart;
        int count = docCountAt(index);
        if (start < Envelope.HEADER || end < start || end > tableStart || count <= 0 || count > docCount) {
            throw new CorruptIndexException(
                    file.path(),
                    entryAt(index),
                    "trigram entry " + index + " points at [" + start + ", " + end + ") with " + count + " docs");
        }
        ByteBuffer list = file.slice(start, (int) (end - start));
        return into.reset(list, count, docCount, file.path(), start);
    }

    /** Recomputes the file's CRC32C: reads every byte, so it costs time proportional to the file. */
    public void verifyChecksum() throws CorruptIndexException {
        Envelope.verifyChecksum(file);
    }

    /** Unmaps the file: only once no thread reads it (see {@link MappedFile#close}). */
    @Override
    public void close() {
        file.close();
    }
}
