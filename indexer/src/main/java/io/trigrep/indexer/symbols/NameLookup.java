package io.trigrep.indexer.symbols;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.MappedFile;
import io.trigrep.indexer.format.PostingIterator;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * The names of a {@code symbols.tgs} found by trigram, through its trigram entries and name
 * posting lists, or by a scan of its name table; {@link Symbols} answers its name queries here.
 */
final class NameLookup {
    private final MappedFile file;
    private final StringTable nameTable;
    private final int names;
    private final int trigrams;
    private final long postingsAt;
    private final long trigramsAt;

    NameLookup(MappedFile file, SymbolsLayout layout, StringTable nameTable) {
        this.file = file;
        this.nameTable = nameTable;
        this.names = layout.names();
        this.trigrams = layout.trigrams();
        this.postingsAt = layout.postingsAt();
        this.trigramsAt = layout.trigramsAt();
    }

    /** See {@link Symbols#namesWithTrigram}. */
    PostingIterator namesWithTrigram(int trigram, PostingIterator reuse) throws CorruptIndexException {
        int lo = 0;
        int hi = trigrams - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int key = file.getInt(trigramsAt + (long) SymbolsWriter.TRIGRAM_ENTRY_BYTES * mid);
            if (key < trigram) {
                lo = mid + 1;
            } else if (key > trigram) {
                hi = mid - 1;
            } else {
                long entry = trigramsAt + (long) SymbolsWriter.TRIGRAM_ENTRY_BYTES * mid;
                int count = file.getInt(entry + 4);
                long start = file.getLong(entry + 8);
                long end =
                        mid + 1 < trigrams ? file.getLong(entry + 8 + SymbolsWriter.TRIGRAM_ENTRY_BYTES) : trigramsAt;
                if (count < 1
                        || count > names
                        || start < postingsAt
                        || end < start
                        || end > trigramsAt
                        || end - start > MappedFile.DEFAULT_MAX_SPAN) {
                    throw new CorruptIndexException(
                            file.path(),
                            entry,
                            "name list of trigram 0x" + Integer.toHexString(trigram) + ": " + count + " names in ["
                                    + start + ", " + end + ")");
                }
                return reuse.reset(file.slice(start, (int) (end - start)), count, names, file.path(), start);
            }
        }
        return reuse.reset(ByteBuffer.allocate(0), 0, names, file.path(), trigramsAt);
    }

    /** See {@link Symbols#namesWithAll}; {@code trigrams} is not empty. */
    int[] namesWithAll(int[] trigrams, Predicate<String> test) throws CorruptIndexException {
        assert trigrams.length > 0 : "namesWithAll without a trigram";
        PostingIterator[] lists = new PostingIterator[trigrams.length];
        for (int i = 0; i < trigrams.length; i++) {
            lists[i] = namesWithTrigram(trigrams[i], new PostingIterator());
        }
        Arrays.sort(lists, (a, b) -> Integer.compare(a.cost(), b.cost()));
        int[] out = new int[Math.min(16, lists[0].cost())];
        int n = 0;
        int candidate = lists[0].next();
        while (candidate != PostingIterator.NO_MORE_DOCS) {
            int agreed = candidate;
            for (int i = 1; i < lists.length && agreed == candidate; i++) {
                agreed = lists[i].advance(candidate);
            }
            if (agreed == PostingIterator.NO_MORE_DOCS) {
                break;
            }
            if (agreed != candidate) {
                candidate = lists[0].advance(agreed);
                continue;
            }
            if (test.test(nameTable.string(candidate))) {
                if (n == out.length) {
                    out = Arrays.copyOf(out, 2 * n);
                }
                out[n++] = candidate;
            }
            candidate = lists[0].next();
        }
        return Arrays.copyOf(out, n);
    }

    /** See {@link Symbols#scanNames}. */
    int[] scanNames(Predicate<String> test) throws CorruptIndexException {
        int[] out = new int[16];
        int n = 0;
        for (int id = 0; id < names; id++) {
            if (test.test(nameTable.string(id))) {
                if (n == out.length) {
                    out = Arrays.copyOf(out, 2 * n);
                }
                out[n++] = id;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
