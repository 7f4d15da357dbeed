package io.trigrep.indexer.symbols;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.Envelope;
import io.trigrep.indexer.format.MappedFile;
import java.nio.file.Path;

/**
 * The counts of a {@code symbols.tgs} and where each of its sections starts, from its directory.
 * {@link #read} checks the header, that each section starts where the previous one ends and the
 * ends of the doc and name tables; the values inside a section are checked when read.
 */
record SymbolsLayout(
        int docs,
        int symbols,
        int names,
        int scopes,
        int kinds,
        int trigrams,
        long docStartAt,
        long byNameAt,
        long nameStartAt,
        long nameTableAt,
        long scopeTableAt,
        long kindTableAt,
        long postingsAt,
        long trigramsAt) {

    /** Where the directory of {@code file} starts: right before the footer. */
    static long directoryAt(MappedFile file) {
        return file.size() - Envelope.FOOTER - SymbolsWriter.DIRECTORY_BYTES;
    }

    static SymbolsLayout read(MappedFile file) throws CorruptIndexException {
        Path path = file.path();
        Envelope.check(file, Envelope.KIND_SYMBOLS);
        long directory = directoryAt(file);
        if (directory < Envelope.HEADER) {
            throw new CorruptIndexException(path, Math.max(0, directory), "no room for the directory");
        }
        int[] counts = new int[6];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = file.getInt(directory + 4L * i);
            if (counts[i] < 0) {
                throw new CorruptIndexException(path, directory + 4L * i, "negative count " + counts[i]);
            }
        }
        long[] sections = new long[9];
        for (int i = 0; i < sections.length; i++) {
            sections[i] = file.getLong(directory + 24 + 8L * i);
        }
        long[] expected = new long[9];
        expected[0] = Envelope.HEADER;
        expected[1] = expected[0] + (long) SymbolsWriter.RECORD_BYTES * counts[1];
        expected[2] = expected[1] + 4L * (counts[0] + 1L);
        expected[3] = expected[2] + 4L * counts[1];
        expected[4] = expected[3] + 4L * (counts[2] + 1L);
        for (int i = 0; i < 3; i++) {
            // each string table's end comes from its last offset, read within the file
            long at = expected[4 + i];
            if (sections[4 + i] != at || at + 4L * (counts[2 + i] + 1L) > directory) {
                throw new CorruptIndexException(
                        path,
                        directory + 24 + 8L * (4 + i),
                        "string table " + i + " at " + sections[4 + i] + ", expected " + at);
            }
            long bytes = file.getInt(at + 4L * counts[2 + i]) & 0xffffffffL;
            expected[5 + i] = at + 4L * (counts[2 + i] + 1L) + bytes;
        }
        expected[8] = directory - (long) SymbolsWriter.TRIGRAM_ENTRY_BYTES * counts[5];
        for (int i = 0; i < sections.length; i++) {
            if (sections[i] != expected[i] || (i > 0 && sections[i] < sections[i - 1])) {
                throw new CorruptIndexException(
                        path,
                        directory + 24 + 8L * i,
                        "directory sections do not add up: section " + i + " at " + sections[i] + ", expected "
                                + expected[i]);
            }
        }
        if (file.getInt(sections[2] - 4) != counts[1] || file.getInt(sections[1]) != 0) {
            throw new CorruptIndexException(path, sections[1], "doc table does not run from symbol 0 to " + counts[1]);
        }
        if (file.getInt(sections[4] - 4) != counts[1]) {
            throw new CorruptIndexException(path, sections[4] - 4, "name table does not end at symbol " + counts[1]);
        }
        if (counts[4] > SymbolsWriter.MAX_KINDS) {
            throw new CorruptIndexException(
                    path, directory + 16, counts[4] + " kinds and languages, at most " + SymbolsWriter.MAX_KINDS);
        }
        return new SymbolsLayout(
                counts[0],
                counts[1],
                counts[2],
                counts[3],
                counts[4],
                counts[5],
                sections[1],
                sections[2],
                sections[3],
                sections[4],
                sections[5],
                sections[6],
                sections[7],
                sections[8]);
    }
}
