package io.trigrep.indexer.symbols;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.Envelope;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.MappedFile;
import io.trigrep.indexer.format.PostingIterator;
import io.trigrep.indexer.format.ShardFiles;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Predicate;

/**
 * A shard's definitions ({@code symbols.tgs}, layout in FORMAT.md), or why it has none. Symbols
 * are numbered in doc order (then line), so {@link #firstOfDoc}..{@link #endOfDoc} is a doc's
 * definitions, lines ascending; each distinct name has an id (names sorted by bytes) and
 * {@link #firstOfName}..{@link #endOfName} indexes the symbols of that name, in doc order, through
 * {@link #symbolOfNameAt}. Names are found by trigram ({@link #namesWithTrigram},
 * {@link #namesWithAll}) or by a scan of every name ({@link #scanNames}). Every read is
 * bounds-checked; bad bytes are a {@link CorruptIndexException} naming the file and offset.
 */
public final class Symbols implements Closeable {
    private static final int[] NO_INTS = new int[0];

    private final String absentReason;
    private final MappedFile file;
    private final int docs;
    private final int symbols;
    private final int names;
    private final int trigrams;
    private final long docStartAt;
    private final long byNameAt;
    private final long nameStartAt;
    private final StringTable nameTable;
    private final StringTable scopeTable;
    private final StringTable kindTable;
    private final NameLookup nameLookup;

    private Symbols(String absentReason) {
        this.absentReason = absentReason;
        this.file = null;
        this.docs = this.symbols = this.names = this.trigrams = 0;
        this.docStartAt = this.byNameAt = this.nameStartAt = 0;
        this.nameTable = this.scopeTable = this.kindTable = null;
        this.nameLookup = null;
    }

    private Symbols(MappedFile file, SymbolsLayout layout) throws CorruptIndexException {
        this.absentReason = null;
        this.file = file;
        this.docs = layout.docs();
        this.symbols = layout.symbols();
        this.names = layout.names();
        this.trigrams = layout.trigrams();
        this.docStartAt = layout.docStartAt();
        this.byNameAt = layout.byNameAt();
        this.nameStartAt = layout.nameStartAt();
        this.nameTable = new StringTable(file, layout.nameTableAt(), layout.names());
        this.scopeTable = new StringTable(file, layout.scopeTableAt(), layout.scopes());
        this.kindTable = new StringTable(file, layout.kindTableAt(), layout.kinds());
        this.nameLookup = new NameLookup(file, layout, nameTable);
    }

    /**
     * The symbols of the shard in {@code shardFolder}: its {@code symbols.tgs} checked (header,
     * footer, directory) against the manifest's doc count, or, when the file is missing, an
     * absent instance whose {@link #absentReason} says why (from the manifest).
     */
    public static Symbols open(Path shardFolder) throws IOException {
        Path manifestFile = shardFolder.resolve(ShardFiles.MANIFEST);
        Manifest manifest = Files.isRegularFile(manifestFile) ? Manifest.read(manifestFile) : null;
        Path path = shardFolder.resolve(ShardFiles.SYMBOLS);
        if (!Files.isRegularFile(path)) {
            if (manifest != null && manifest.symbolsAbsent() != null) {
                return new Symbols(manifest.symbolsAbsent());
            }
            return new Symbols(
                    "the shard has no " + ShardFiles.SYMBOLS + " (built before symbol search existed, or incomplete)");
        }
        Symbols opened = openFile(path);
        if (manifest != null && opened.docs != manifest.docs()) {
            long directory = SymbolsLayout.directoryAt(opened.file);
            opened.close();
            throw new CorruptIndexException(
                    path, directory, "symbols cover " + opened.docs + " docs, the manifest " + manifest.docs());
        }
        return opened;
    }

    /** Maps and checks the file; a file that fails its checks is unmapped before the error. */
    static Symbols openFile(Path path) throws IOException {
        MappedFile file = MappedFile.open(path);
        try {
            return new Symbols(file, SymbolsLayout.read(file));
        } catch (IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    /** A shard without symbols, for {@code reason}. */
    public static Symbols absent(String reason) {
        return new Symbols(reason);
    }

    public boolean present() {
        return absentReason == null;
    }

    /** Why there are no symbols (ctags missing, turned off, an old shard); null when {@link #present}. */
    public String absentReason() {
        return absentReason;
    }

    public Path path() {
        return file == null ? null : file.path();
    }

    /** Reads the whole file and checks its CRC32C. */
    public void verify() throws CorruptIndexException {
        if (file != null) {
            Envelope.verifyChecksum(file);
        }
    }

    /** The file's size; 0 without symbols. */
    public long bytes() {
        return file == null ? 0 : file.size();
    }

    public int docCount() {
        return docs;
    }

    public int symbolCount() {
        return symbols;
    }

    public int nameCount() {
        return names;
    }

    public int trigramCount() {
        return trigrams;
    }

    // --- by doc ---

    /** The first symbol of {@code doc}; {@code endOfDoc(doc)} is one past its last. */
    public int firstOfDoc(int doc) throws CorruptIndexException {
        return docStart(doc);
    }

    public int endOfDoc(int doc) throws CorruptIndexException {
        return docStart(doc + 1);
    }

    /** The distinct lines {@code doc} defines something on, ascending. */
    public int[] definitionLines(int doc) throws CorruptIndexException {
        int from = firstOfDoc(doc);
        int to = endOfDoc(doc);
        if (from == to) {
            return NO_INTS;
        }
        int[] lines = new int[to - from];
        int n = 0;
        for (int s = from; s < to; s++) {
            int line = line(s);
            if (n == 0 || lines[n - 1] != line) {
                lines[n++] = line;
            }
        }
        return n == lines.length ? lines : Arrays.copyOf(lines, n);
    }

    private int docStart(int doc) throws CorruptIndexException {
        requirePresent();
        if (doc < 0 || doc > docs) {
            throw new IllegalArgumentException("doc must be in [0, " + docs + "], got " + doc);
        }
        int start = file.getInt(docStartAt + 4L * doc);
        if (start < 0 || start > symbols) {
            throw new CorruptIndexException(
                    file.path(),
                    docStartAt + 4L * doc,
                    "doc " + doc + " starts at symbol " + start + ", outside [0, " + symbols + "]");
        }
        return start;
    }

    // --- by name ---

    /** The position in the by-name order of the first symbol named {@code name}; see {@link #symbolOfNameAt}. */
    public int firstOfName(int name) throws CorruptIndexException {
        return nameStart(name);
    }

    public int endOfName(int name) throws CorruptIndexException {
        return nameStart(name + 1);
    }

    /** The symbol at {@code position} of the by-name order (symbols grouped by name id, each group in doc order). */
    public int symbolOfNameAt(int position) throws CorruptIndexException {
        requirePresent();
        checkSymbol(position);
        return checkedSymbol(file.getInt(byNameAt + 4L * position), byNameAt + 4L * position);
    }

    private int nameStart(int name) throws CorruptIndexException {
        requirePresent();
        if (name < 0 || name > names) {
            throw new IllegalArgumentException("name must be in [0, " + names + "], got " + name);
        }
        int start = file.getInt(nameStartAt + 4L * name);
        if (start < 0 || start > symbols) {
            throw new CorruptIndexException(
                    file.path(),
                    nameStartAt + 4L * name,
                    "name " + name + " starts at " + start + ", outside [0, " + symbols + "]");
        }
        return start;
    }

    /** A name's UTF-8 bytes, as a view of the mapping. */
    public ByteBuffer nameBytes(int name) throws CorruptIndexException {
        requirePresent();
        return nameTable.bytes(name);
    }

    public String name(int name) throws CorruptIndexException {
        requirePresent();
        return nameTable.string(name);
    }

    /**
     * The ids of the names holding {@code trigram} (3 bytes packed big-endian, {@code "abc"} =
     * 0x616263), increasing, in {@code reuse} (pass a new {@link PostingIterator} the first time);
     * an empty list when no name has it.
     */
    public PostingIterator namesWithTrigram(int trigram, PostingIterator reuse) throws CorruptIndexException {
        requirePresent();
        return nameLookup.namesWithTrigram(trigram, reuse);
    }

    /**
     * The ids of the names that hold every trigram of {@code trigrams} (at least one) and pass
     * {@code test}, increasing: the posting lists intersected, then each survivor tested.
     */
    public int[] namesWithAll(int[] trigrams, Predicate<String> test) throws CorruptIndexException {
        if (trigrams.length == 0) {
            throw new IllegalArgumentException("namesWithAll needs at least one trigram; use scanNames");
        }
        requirePresent();
        return nameLookup.namesWithAll(trigrams, test);
    }

    /** The ids of every name {@code test} accepts, increasing: a scan of the whole name table. */
    public int[] scanNames(Predicate<String> test) throws CorruptIndexException {
        requirePresent();
        return nameLookup.scanNames(test);
    }

    // --- one symbol ---

    /** The doc holding {@code symbol}: a binary search of the doc starts. */
    public int doc(int symbol) throws CorruptIndexException {
        requirePresent();
        checkSymbol(symbol);
        int lo = 0;
        int hi = docs - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (docStart(mid) <= symbol) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /** 1-based line of the definition. */
    public int line(int symbol) throws CorruptIndexException {
        long at = record(symbol);
        int line = file.getInt(at);
        if (line < 1) {
            throw new CorruptIndexException(file.path(), at, "symbol " + symbol + " on line " + line);
        }
        return line;
    }

    public int nameId(int symbol) throws CorruptIndexException {
        long at = record(symbol) + 4;
        int name = file.getInt(at);
        if (name < 0 || name >= names) {
            throw new CorruptIndexException(file.path(), at, "name id " + name + " outside [0, " + names + ")");
        }
        return name;
    }

    /** The enclosing scope as ctags gives it ({@code "S"} for a member of struct S), "" for none. */
    public String scope(int symbol) throws CorruptIndexException {
        long at = record(symbol) + 8;
        return scopeTable.string(scopeTable.checkId(file.getInt(at), at));
    }

    /** ctags' kind name: "function", "struct", "macro", … */
    public String kind(int symbol) throws CorruptIndexException {
        long at = record(symbol) + 12;
        return kindTable.string(kindTable.checkId(file.getInt(at) & 0xffff, at));
    }

    /** ctags' language name: "C", "C++", "Python", … */
    public String language(int symbol) throws CorruptIndexException {
        long at = record(symbol) + 14;
        return kindTable.string(kindTable.checkId(file.getInt(at - 2) >>> 16, at));
    }

    private long record(int symbol) throws CorruptIndexException {
        requirePresent();
        checkSymbol(symbol);
        return Envelope.HEADER + (long) SymbolsWriter.RECORD_BYTES * symbol;
    }

    private void checkSymbol(int symbol) {
        if (symbol < 0 || symbol >= symbols) {
            throw new IllegalArgumentException("symbol must be in [0, " + symbols + "), got " + symbol);
        }
    }

    private int checkedSymbol(int symbol, long at) throws CorruptIndexException {
        if (symbol < 0 || symbol >= symbols) {
            throw new CorruptIndexException(file.path(), at, "symbol " + symbol + " outside [0, " + symbols + ")");
        }
        return symbol;
    }

    private void requirePresent() {
        if (absentReason != null) {
            throw new IllegalStateException("no symbols: " + absentReason);
        }
    }

    /** Unmaps {@code symbols.tgs} (nothing for absent symbols): only once no thread reads it. */
    @Override
    public void close() {
        if (file != null) {
            file.close();
        }
    }
}
