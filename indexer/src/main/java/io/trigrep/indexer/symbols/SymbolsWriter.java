package io.trigrep.indexer.symbols;

import io.trigrep.indexer.files.FileTrees;
import io.trigrep.indexer.format.Envelope;
import io.trigrep.indexer.format.FormatOutput;
import io.trigrep.indexer.format.MappedFile;
import io.trigrep.indexer.format.PostingEncoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Writes {@code symbols.tgs} (layout in FORMAT.md) from the tags of every doc, in memory bounded
 * by {@code memoryBytes} whatever the shard's size: one pass over the docs numbers the symbols and
 * spills their records; names and scopes are sorted in {@link NameRuns} (so the by-name order and
 * the string tables come out of the merge in file order), each symbol's name and scope ids in
 * {@link LongRuns}, and the names' trigram lists in {@link NameTrigrams}. The sections are then copied into the file in
 * order, so the bytes depend only on the tags.
 */
final class SymbolsWriter {
    static final int RECORD_BYTES = 16;
    static final int TRIGRAM_ENTRY_BYTES = 16;
    static final int DIRECTORY_BYTES = 96;
    /** Kind and language ids are uint16. */
    static final int MAX_KINDS = 1 << 16;
    /** A string table's offsets are uint32. */
    static final long MAX_TABLE_BYTES = 0xffffffffL;

    /** One doc's tags, lines ascending, as {@link TagSource#tags} hands them over. */
    interface TagSink {
        /** The name is {@code name[0, nameLength)}, the scope {@code scope[0, scopeLength)} (UTF-8); kind and language are {@link Labels} ids. */
        void tag(int line, byte[] name, int nameLength, byte[] scope, int scopeLength, int kind, int language)
                throws IOException;
    }

    /** The tags of a shard, doc by doc. */
    interface TagSource {
        int docs();

        void tags(int doc, TagSink sink) throws IOException;
    }

    /** What a write did: the symbols it wrote and the sorted runs it spilled to disk (0 when all fit its memory). */
    record Written(int symbols, int runs) {}

    private SymbolsWriter() {}

    /** Writes {@code byDoc} (one entry per doc; null or empty for a doc without tags) to {@code path}; returns the symbol count. */
    static int write(Path path, Tag[][] byDoc) throws IOException {
        return write(path, byDoc, SymbolExtractor.Config.DEFAULT_BUDGET_BYTES).symbols();
    }

    /** {@link #write(Path, Tag[][])} within {@code memoryBytes}. */
    static Written write(Path path, Tag[][] byDoc, long memoryBytes) throws IOException {
        Labels labels = new Labels();
        Path scratch = Files.createTempDirectory(path.toAbsolutePath().getParent(), ".symbols-");
        try {
            return write(
                    path,
                    new TagSource() {
                        @Override
                        public int docs() {
                            return byDoc.length;
                        }

                        @Override
                        public void tags(int doc, TagSink sink) throws IOException {
                            if (byDoc[doc] == null) {
                                return;
                            }
                            for (Tag t : byDoc[doc]) {
                                byte[] name = t.name().getBytes(StandardCharsets.UTF_8);
                                byte[] scope = t.scope().getBytes(StandardCharsets.UTF_8);
                                sink.tag(
                                        t.line(),
                                        name,
                                        name.length,
                                        scope,
                                        scope.length,
                                        labels.id(t.kind()),
                                        labels.id(t.language()));
                            }
                        }
                    },
                    labels,
                    scratch,
                    memoryBytes);
        } finally {
            FileTrees.delete(scratch);
        }
    }

    /**
     * Writes {@code source}'s tags to {@code path}, spilling to {@code scratch} (an existing
     * folder; what is written there is deleted before this returns).
     */
    static Written write(Path path, TagSource source, Labels labels, Path scratch, long memoryBytes)
            throws IOException {
        if (memoryBytes < 1) {
            throw new IllegalArgumentException("memoryBytes must be >= 1, got " + memoryBytes);
        }
        List<AutoCloseableFile> temps = new ArrayList<>();
        // Shares of the memory such that those alive at once never sum past it.
        try (NameRuns names = new NameRuns(scratch, "names", memoryBytes / 4);
                NameRuns scopes = new NameRuns(scratch, "scopes", memoryBytes / 4);
                LongRuns nameOf = new LongRuns(scratch, "name-of", memoryBytes / 8);
                LongRuns scopeOf = new LongRuns(scratch, "scope-of", memoryBytes / 8);
                NameTrigrams trigrams = new NameTrigrams(scratch, "trigrams", memoryBytes / 4)) {
            Spill.Writer records = temp(scratch, "records", temps);
            Spill.Writer docStarts = temp(scratch, "doc-starts", temps);
            boolean[][] used = {new boolean[Math.max(16, labels.size())]};
            int[] symbols = {0};
            TagSink sink = (line, name, nameLength, scope, scopeLength, kind, language) -> {
                if (line < 1) {
                    throw new IllegalArgumentException("a tag's line must be >= 1, got " + line);
                }
                if (symbols[0] == Integer.MAX_VALUE) {
                    throw new IllegalStateException("a shard holds at most " + Integer.MAX_VALUE + " symbols");
                }
                int s = symbols[0]++;
                records.writeInt(line);
                records.writeInt(kind);
                records.writeInt(language);
                names.add(name, 0, nameLength, s);
                scopes.add(scope, 0, scopeLength, s);
                int top = Math.max(kind, language);
                if (top >= used[0].length) {
                    used[0] = Arrays.copyOf(used[0], Math.max(top + 1, 2 * used[0].length));
                }
                used[0][kind] = true;
                used[0][language] = true;
            };
            int docs = source.docs();
            for (int doc = 0; doc < docs; doc++) {
                docStarts.writeInt(symbols[0]);
                source.tags(doc, sink);
            }
            docStarts.writeInt(symbols[0]);
            int[] kindIds = new int[used[0].length];
            List<byte[]> kindTable = kindTable(labels, used[0], kindIds);

            Table nameTable = table(scratch, "name", names, nameOf, trigrams, temps);
            Table scopeTable = table(scratch, "scope", scopes, scopeOf, null, temps);

            try (FormatOutput out = new FormatOutput(path, Envelope.KIND_SYMBOLS)) {
                long symbolsAt = out.position();
                writeRecords(records, nameOf, scopeOf, kindIds, symbols[0], out);
                long docStartAt = out.position();
                copyInts(docStarts, out);
                long byNameAt = out.position();
                copyInts(nameTable.byName(), out);
                long nameStartAt = out.position();
                copyInts(nameTable.starts(), out);
                long namesAt = out.position();
                nameTable.write(out);
                long scopesAt = out.position();
                scopeTable.write(out);
                long kindsAt = out.position();
                long total = 0;
                for (byte[] b : kindTable) {
                    out.writeInt((int) total);
                    total += b.length;
                }
                out.writeInt((int) total);
                for (byte[] b : kindTable) {
                    out.write(b, 0, b.length);
                }
                long postingsAt = out.position();
                Spill.Writer entries = temp(scratch, "trigram-entries", temps);
                int trigramCount = writePostings(trigrams, out, entries);
                long trigramsAt = out.position();
                Spill.Reader in = new Spill.Reader(entries.channel(), 0, entries.position());
                for (int k = 0; k < trigramCount; k++) {
                    out.writeInt(in.readInt());
                    out.writeInt(in.readInt());
                    out.writeLong(in.readLong());
                }
                out.writeInt(docs);
                out.writeInt(symbols[0]);
                out.writeInt(nameTable.count());
                out.writeInt(scopeTable.count());
                out.writeInt(kindTable.size());
                out.writeInt(trigramCount);
                for (long section : new long[] {
                    symbolsAt, docStartAt, byNameAt, nameStartAt, namesAt, scopesAt, kindsAt, postingsAt, trigramsAt
                }) {
                    out.writeLong(section);
                }
                out.finish();
            }
            return new Written(
                    symbols[0], names.runs() + scopes.runs() + nameOf.runs() + scopeOf.runs() + trigrams.runs());
        } finally {
            for (AutoCloseableFile t : temps) {
                t.close();
            }
        }
    }

    /** The kinds and languages the shard uses, sorted by bytes; {@code ids} maps a label id to its place. */
    private static List<byte[]> kindTable(Labels labels, boolean[] used, int[] ids) {
        List<byte[]> bytes = new ArrayList<>();
        List<Integer> of = new ArrayList<>();
        for (int label = 0; label < used.length; label++) {
            if (used[label]) {
                bytes.add(labels.label(label).getBytes(StandardCharsets.UTF_8));
                of.add(label);
            }
        }
        Integer[] order = new Integer[bytes.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Arrays.compareUnsigned(bytes.get(x), bytes.get(y)));
        List<byte[]> sorted = new ArrayList<>();
        for (Integer i : order) {
            byte[] b = bytes.get(i);
            if (!sorted.isEmpty() && Arrays.equals(sorted.get(sorted.size() - 1), b)) {
                ids[of.get(i)] = sorted.size() - 1;
                continue;
            }
            ids[of.get(i)] = sorted.size();
            sorted.add(b);
        }
        if (sorted.size() > MAX_KINDS) {
            throw new IllegalArgumentException(
                    "at most " + MAX_KINDS + " distinct kinds and languages per shard, got " + sorted.size());
        }
        return sorted;
    }

    /**
     * A string table as the merge of {@code pairs} gives it: distinct strings in byte order, the
     * offsets and bytes spilled; each symbol's id into {@code idOf} ({@code symbol << 32 | id}),
     * and, for names, the symbols by name and where each name's run starts, and each name's
     * trigrams into {@code trigrams}.
     */
    private static Table table(
            Path scratch,
            String kind,
            NameRuns pairs,
            LongRuns idOf,
            NameTrigrams trigrams,
            List<AutoCloseableFile> temps)
            throws IOException {
        Spill.Writer offsets = temp(scratch, kind + "-offsets", temps);
        Spill.Writer bytes = temp(scratch, kind + "-bytes", temps);
        Spill.Writer byName = trigrams == null ? null : temp(scratch, kind + "-by-name", temps);
        Spill.Writer starts = trigrams == null ? null : temp(scratch, kind + "-starts", temps);
        byte[] previous = new byte[64];
        int previousLength = -1;
        int id = -1;
        long total = 0;
        int position = 0;
        try (NameRuns.Cursor c = pairs.sorted()) {
            while (c.next()) {
                int length = c.length();
                if (previousLength != length
                        || !Arrays.equals(previous, 0, length, c.array(), c.offset(), c.offset() + length)) {
                    id++;
                    offsets.writeInt((int) total);
                    total += length;
                    if (total > MAX_TABLE_BYTES) {
                        throw new IllegalStateException(
                                "the " + kind + " table of a shard holds at most " + MAX_TABLE_BYTES + " bytes");
                    }
                    bytes.write(c.array(), c.offset(), length);
                    if (previous.length < length) {
                        previous = new byte[Math.max(length, 2 * previous.length)];
                    }
                    System.arraycopy(c.array(), c.offset(), previous, 0, length);
                    previousLength = length;
                    if (trigrams != null) {
                        starts.writeInt(position);
                        byte[] a = c.array();
                        int o = c.offset();
                        for (int i = 0; i + 2 < length; i++) {
                            trigrams.add(
                                    (a[o + i] & 0xff) << 16 | (a[o + i + 1] & 0xff) << 8 | (a[o + i + 2] & 0xff), id);
                        }
                    }
                }
                idOf.add((long) c.value() << 32 | id);
                if (byName != null) {
                    byName.writeInt(c.value());
                }
                position++;
            }
        }
        if (starts != null) {
            starts.writeInt(position);
        }
        offsets.writeInt((int) total);
        pairs.close();
        return new Table(id + 1, offsets, bytes, byName, starts);
    }

    /** One string table spilled: its offsets (the last one its length) and bytes; for names, the by-name order and its starts. */
    private record Table(
            int count, Spill.Writer offsets, Spill.Writer bytes, Spill.Writer byName, Spill.Writer starts) {
        void write(FormatOutput out) throws IOException {
            copyInts(offsets, out);
            copyBytes(bytes, out);
        }
    }

    /** Each record's line, then its name and scope ids (merged in symbol order), then its kind and language. */
    private static void writeRecords(
            Spill.Writer records, LongRuns nameOf, LongRuns scopeOf, int[] kindIds, int symbols, FormatOutput out)
            throws IOException {
        try (LongRuns.Cursor names = nameOf.sorted();
                LongRuns.Cursor scopes = scopeOf.sorted()) {
            Spill.Reader in = new Spill.Reader(records.channel(), 0, records.position());
            for (int s = 0; s < symbols; s++) {
                if (!names.next() || !scopes.next() || names.value() >>> 32 != s || scopes.value() >>> 32 != s) {
                    throw new IllegalStateException("symbol " + s + " has no name or scope id");
                }
                out.writeInt(in.readInt());
                out.writeInt((int) names.value());
                out.writeInt((int) scopes.value());
                out.writeShort(kindIds[in.readInt()]);
                out.writeShort(kindIds[in.readInt()]);
            }
        }
    }

    /** The name lists, trigram by trigram, into {@code out}; each list's entry into {@code entries}. */
    private static int writePostings(NameTrigrams trigrams, FormatOutput out, Spill.Writer entries) throws IOException {
        PostingEncoder encoder = new PostingEncoder();
        IntConsumer list = encoder::add;
        int count = 0;
        try (NameTrigrams.Cursor c = trigrams.sorted()) {
            for (int trigram = c.next(list); trigram >= 0; trigram = c.next(list)) {
                entries.writeInt(trigram);
                entries.writeInt(c.count());
                entries.writeLong(out.position());
                int bytes = encoder.finish(out);
                if (bytes > MappedFile.DEFAULT_MAX_SPAN) {
                    throw new IllegalStateException(
                            "name posting list of " + bytes + " bytes exceeds the one-span limit");
                }
                count++;
            }
        }
        return count;
    }

    private static void copyInts(Spill.Writer from, FormatOutput out) throws IOException {
        Spill.Reader in = new Spill.Reader(from.channel(), 0, from.position());
        for (long left = from.position() / 4; left > 0; left--) {
            out.writeInt(in.readInt());
        }
    }

    private static void copyBytes(Spill.Writer from, FormatOutput out) throws IOException {
        Spill.Reader in = new Spill.Reader(from.channel(), 0, from.position());
        byte[] chunk = new byte[Spill.BUFFER_BYTES];
        for (long left = from.position(); left > 0; ) {
            int n = (int) Math.min(chunk.length, left);
            in.read(chunk, 0, n);
            out.write(chunk, 0, n);
            left -= n;
        }
    }

    /** A scratch file, deleted once the symbols file is written. */
    private record AutoCloseableFile(Spill.Writer writer) {
        void close() throws IOException {
            writer.close();
            Files.deleteIfExists(writer.path());
        }
    }

    private static Spill.Writer temp(Path scratch, String name, List<AutoCloseableFile> temps) throws IOException {
        Spill.Writer w = new Spill.Writer(scratch.resolve(name));
        temps.add(new AutoCloseableFile(w));
        return w;
    }
}
