package io.trigrep.indexer.symbols;

import io.trigrep.indexer.format.Envelope;
import io.trigrep.indexer.format.FormatOutput;
import io.trigrep.indexer.format.MappedFile;
import io.trigrep.indexer.format.PostingEncoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;

/**
 * Writes {@code symbols.tgs} (layout in FORMAT.md) from the tags of every doc: records in doc
 * order, the by-name permutation, the three string tables and the trigram lists over names. Every
 * section is computed in memory first (a shard's symbols are tens of MiB at most), then written in
 * one pass, so the bytes depend only on the tags.
 */
final class SymbolsWriter {
    static final int RECORD_BYTES = 16;
    static final int TRIGRAM_ENTRY_BYTES = 16;
    static final int DIRECTORY_BYTES = 96;
    /** Kind and language ids are uint16. */
    static final int MAX_KINDS = 1 << 16;

    private SymbolsWriter() {}

    /** Writes {@code byDoc} (one entry per doc; null or empty for a doc without tags) to {@code path}; returns the symbol count. */
    static int write(Path path, Tag[][] byDoc) throws IOException {
        StringIds names = new StringIds();
        StringIds scopes = new StringIds();
        StringIds kinds = new StringIds();
        int symbols = 0;
        for (Tag[] tags : byDoc) {
            if (tags == null) {
                continue;
            }
            for (Tag t : tags) {
                names.add(t.name());
                scopes.add(t.scope());
                kinds.add(t.kind());
                kinds.add(t.language());
                symbols++;
            }
        }
        names.seal();
        scopes.seal();
        kinds.seal();
        if (kinds.size() > MAX_KINDS) {
            throw new IllegalArgumentException(
                    "at most " + MAX_KINDS + " distinct kinds and languages per shard, got " + kinds.size());
        }
        // Each tag's ids, looked up once: the records below and the by-name order both need them.
        int[] nameOf = new int[symbols];
        int[] scopeOf = new int[symbols];
        int[] kindOf = new int[symbols];
        int[] languageOf = new int[symbols];
        int s = 0;
        for (Tag[] tags : byDoc) {
            if (tags != null) {
                for (Tag t : tags) {
                    nameOf[s] = names.id(t.name());
                    scopeOf[s] = scopes.id(t.scope());
                    kindOf[s] = kinds.id(t.kind());
                    languageOf[s] = kinds.id(t.language());
                    s++;
                }
            }
        }
        int[] nameStart = new int[names.size() + 1];
        for (int n : nameOf) {
            nameStart[n + 1]++;
        }
        for (int n = 0; n < names.size(); n++) {
            nameStart[n + 1] += nameStart[n];
        }
        int[] byName = new int[symbols];
        int[] fill = Arrays.copyOf(nameStart, names.size());
        for (int i = 0; i < symbols; i++) {
            byName[fill[nameOf[i]]++] = i;
        }

        try (FormatOutput out = new FormatOutput(path, Envelope.KIND_SYMBOLS)) {
            long symbolsAt = out.position();
            s = 0;
            for (Tag[] tags : byDoc) {
                if (tags != null) {
                    for (Tag t : tags) {
                        out.writeInt(t.line());
                        out.writeInt(nameOf[s]);
                        out.writeInt(scopeOf[s]);
                        out.writeShort(kindOf[s]);
                        out.writeShort(languageOf[s]);
                        s++;
                    }
                }
            }
            long docStartAt = out.position();
            int at = 0;
            for (Tag[] tags : byDoc) {
                out.writeInt(at);
                at += tags == null ? 0 : tags.length;
            }
            out.writeInt(at);
            long byNameAt = out.position();
            for (int i : byName) {
                out.writeInt(i);
            }
            long nameStartAt = out.position();
            for (int i : nameStart) {
                out.writeInt(i);
            }
            long namesAt = out.position();
            names.writeTable(out);
            long scopesAt = out.position();
            scopes.writeTable(out);
            long kindsAt = out.position();
            kinds.writeTable(out);
            long postingsAt = out.position();
            NameTrigrams lists = NameTrigrams.of(names.sorted());
            int[] trigrams = lists.trigrams();
            long[] offsets = new long[trigrams.length];
            PostingEncoder encoder = new PostingEncoder();
            for (int k = 0; k < trigrams.length; k++) {
                int[] list = lists.list(trigrams[k]);
                for (int i = 1; i <= list[0]; i++) {
                    encoder.add(list[i]);
                }
                offsets[k] = out.position();
                int bytes = encoder.finish(out);
                if (bytes > MappedFile.DEFAULT_MAX_SPAN) {
                    throw new IllegalStateException(
                            "name posting list of " + bytes + " bytes exceeds the one-span limit");
                }
            }
            long trigramsAt = out.position();
            for (int k = 0; k < trigrams.length; k++) {
                out.writeInt(trigrams[k]);
                out.writeInt(lists.list(trigrams[k])[0]);
                out.writeLong(offsets[k]);
            }
            out.writeInt(byDoc.length);
            out.writeInt(symbols);
            out.writeInt(names.size());
            out.writeInt(scopes.size());
            out.writeInt(kinds.size());
            out.writeInt(trigrams.length);
            for (long section : new long[] {
                symbolsAt, docStartAt, byNameAt, nameStartAt, namesAt, scopesAt, kindsAt, postingsAt, trigramsAt
            }) {
                out.writeLong(section);
            }
            out.finish();
        }
        return symbols;
    }

    /** Distinct strings, numbered in the order of their UTF-8 bytes once sealed. */
    private static final class StringIds {
        private final HashMap<String, Integer> ids = new HashMap<>();
        private byte[][] sorted;

        void add(String s) {
            ids.putIfAbsent(s, -1);
        }

        void seal() {
            /* A string and its UTF-8 bytes, sorted together. */
            @SuppressWarnings("ArrayRecordComponent") // a carrier for one sort, never compared or hashed
            record Keyed(byte[] bytes, String string) {}
            Keyed[] keyed = new Keyed[ids.size()];
            int i = 0;
            for (String string : ids.keySet()) {
                keyed[i++] = new Keyed(string.getBytes(StandardCharsets.UTF_8), string);
            }
            // By bytes, not by String: two strings with the same bytes (lone surrogates both
            // written as '?') still get ids in a fixed order.
            Arrays.sort(keyed, (x, y) -> {
                int c = Arrays.compareUnsigned(x.bytes(), y.bytes());
                return c != 0 ? c : x.string().compareTo(y.string());
            });
            sorted = new byte[keyed.length][];
            for (int id = 0; id < keyed.length; id++) {
                sorted[id] = keyed[id].bytes();
                ids.put(keyed[id].string(), id);
            }
        }

        int size() {
            return sorted.length;
        }

        int id(String s) {
            return ids.get(s);
        }

        /** The strings' UTF-8 bytes, by id. */
        byte[][] sorted() {
            return sorted;
        }

        /** Offsets uint32^(K+1), relative to the bytes that follow them, then the bytes. */
        void writeTable(FormatOutput out) throws IOException {
            long total = 0;
            for (byte[] b : sorted) {
                out.writeInt((int) total);
                total += b.length;
                if (total > MappedFile.DEFAULT_MAX_SPAN) {
                    throw new IllegalStateException("string table of over " + MappedFile.DEFAULT_MAX_SPAN + " bytes");
                }
            }
            out.writeInt((int) total);
            for (byte[] b : sorted) {
                out.write(b, 0, b.length);
            }
        }
    }
}
