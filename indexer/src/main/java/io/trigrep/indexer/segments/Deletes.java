package io.trigrep.indexer.segments;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.Envelope;
import io.trigrep.indexer.format.FormatOutput;
import io.trigrep.indexer.format.MappedFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The docs of one segment that no longer count: files of a package replaced or removed after the
 * segment was written. Immutable; a generation that deletes more writes a new file (see
 * FORMAT.md, "Deletes"). Small enough to live on the heap: one bit per doc.
 */
public final class Deletes {
    private static final int BODY_HEAD = 8;

    private final int docCount;
    private final int count;
    private final long[] words;

    private Deletes(int docCount, long[] words) {
        this.docCount = docCount;
        this.words = words;
        int n = 0;
        for (long w : words) {
            n += Long.bitCount(w);
        }
        this.count = n;
    }

    /** No doc deleted. */
    public static Deletes none(int docCount) {
        if (docCount < 0) {
            throw new IllegalArgumentException("docCount must be >= 0, got " + docCount);
        }
        return new Deletes(docCount, new long[(docCount + 63) >>> 6]);
    }

    /** Reads and checks (envelope, checksum, doc count, no bit past the last doc) a deletes file of a segment of {@code docCount} docs. */
    public static Deletes read(Path path, int docCount) throws IOException {
        try (MappedFile file = MappedFile.open(path)) {
            Envelope.check(file, Envelope.KIND_DELETES);
            Envelope.verifyChecksum(file);
            long body = Envelope.HEADER;
            int docs = file.getInt(body);
            if (docs != docCount) {
                throw new CorruptIndexException(
                        path, body, "deletes cover " + docs + " docs, the segment has " + docCount);
            }
            int wordCount = (docCount + 63) >>> 6;
            long expected = Envelope.HEADER + BODY_HEAD + 8L * wordCount + Envelope.FOOTER;
            if (file.size() != expected) {
                throw new CorruptIndexException(
                        path,
                        0,
                        "file of " + file.size() + " bytes, " + expected + " expected for " + docCount + " docs");
            }
            long[] words = new long[wordCount];
            for (int i = 0; i < wordCount; i++) {
                words[i] = file.getLong(body + BODY_HEAD + 8L * i);
            }
            if ((docCount & 63) != 0 && wordCount > 0 && words[wordCount - 1] >>> (docCount & 63) != 0) {
                throw new CorruptIndexException(path, body + BODY_HEAD, "a doc past the segment's last is deleted");
            }
            Deletes deletes = new Deletes(docCount, words);
            if (deletes.count != file.getInt(body + 4)) {
                throw new CorruptIndexException(
                        path,
                        body + 4,
                        "header counts " + file.getInt(body + 4) + " deleted docs, bits " + deletes.count);
            }
            return deletes;
        }
    }

    /** Writes these deletes to {@code path}, which must not exist, and fsyncs it. */
    public void write(Path path) throws IOException {
        try (FormatOutput out = new FormatOutput(path, Envelope.KIND_DELETES)) {
            out.writeInt(docCount);
            out.writeInt(count);
            for (long w : words) {
                out.writeLong(w);
            }
            out.finish();
        }
    }

    public int docCount() {
        return docCount;
    }

    /** Deleted docs. */
    public int count() {
        return count;
    }

    public boolean isDeleted(int doc) {
        return (words[doc >>> 6] >>> (doc & 63) & 1) != 0;
    }

    /** These deletes and {@code docs} as well: one new bitmap, however many docs. */
    public Deletes with(int[] docs) {
        long[] more = Arrays.copyOf(words, words.length);
        for (int doc : docs) {
            if (doc < 0 || doc >= docCount) {
                throw new IllegalArgumentException("doc " + doc + " outside [0, " + docCount + ")");
            }
            more[doc >>> 6] |= 1L << (doc & 63);
        }
        return new Deletes(docCount, more);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Deletes d && d.docCount == docCount && Arrays.equals(d.words, words);
    }

    @Override
    public int hashCode() {
        return 31 * docCount + Arrays.hashCode(words);
    }
}
