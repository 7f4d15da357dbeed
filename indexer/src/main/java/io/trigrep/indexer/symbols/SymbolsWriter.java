package io.trigrep.indexer.symbols;

import io.trigrep.indexer.format.Envelope;
import io.trigrep.indexer.format.FormatOutput;
import io.trigrep.indexer.format.MappedFile;
import io.trigrep.indexer.format.PostingEncoder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

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
        int[] nameOf = new int[symbols];
        int s = 0;
        for (Tag[] tags : byDoc) {
            if (tags != null) {
                for (Tag t : tags) {
                    nameOf[s++] = names.id(t.name());
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
            for (Tag[] tags : byDoc) {
                if (tags != null) {
                    for (Tag t : tags) {
                        out.writeInt(t.line());
                        out.writeInt(names.id(t.name()));
                        out.writeInt(scopes.id(t.scope()));
                        out.writeShort(kinds.id(t.kind()));
                        out.writeShort(kinds.id(t.language()));
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
            java.util.SortedMap<Integer, int[]> lists = trigramLists(names);
            List<long[]> entries = new ArrayList<>(lists.size());
            PostingEncoder encoder = new PostingEncoder();
            for (Map.Entry<Integer, int[]> e : lists.entrySet()) {
                int[] list = e.getValue();
                int count = list[0];
                for (int i = 1; i <= count; i++) {
                    encoder.add(list[i]);
                }
                long offset = out.position();
                int bytes = encoder.finish(out);
                if (bytes > MappedFile.DEFAULT_MAX_SPAN) {
                    throw new IllegalStateException(
                            "name posting list of " + bytes + " bytes exceeds the one-span limit");
                }
                entries.add(new long[] {e.getKey(), count, offset});
            }
            long trigramsAt = out.position();
            for (long[] e : entries) {
                out.writeInt((int) e[0]);
                out.writeInt((int) e[1]);
                out.writeLong(e[2]);
            }
            out.writeInt(byDoc.length);
            out.writeInt(symbols);
            out.writeInt(names.size());
            out.writeInt(scopes.size());
            out.writeInt(kinds.size());
            out.writeInt(entries.size());
            for (long section : new long[] {
                symbolsAt, docStartAt, byNameAt, nameStartAt, namesAt, scopesAt, kindsAt, postingsAt, trigramsAt
            }) {
                out.writeLong(section);
            }
            out.finish();
        }
        return symbols;
    }

    /**
     * Per trigram of any name (3 bytes packed big-endian, as in trigrams.tgi), the ids of the names
     * holding it, increasing: {@code list[0]} is the count, the ids follow.
     */
    private static java.util.SortedMap<Integer, int[]> trigramLists(StringIds names) {
        HashMap<Integer, int[]> lists = new HashMap<>();
        int[] seen = new int[64];
        for (int id = 0; id < names.size(); id++) {
            byte[] name = names.bytes(id);
            int distinct = 0;
            for (int i = 0; i + 2 < name.length; i++) {
                int trigram = (name[i] & 0xff) << 16 | (name[i + 1] & 0xff) << 8 | (name[i + 2] & 0xff);
                if (contains(seen, distinct, trigram)) {
                    continue;
                }
                if (distinct == seen.length) {
                    seen = Arrays.copyOf(seen, 2 * distinct);
                }
                seen[distinct++] = trigram;
                int[] list = lists.get(trigram);
                if (list == null) {
                    list = new int[4];
                } else if (list[0] + 1 == list.length) {
                    list = Arrays.copyOf(list, 2 * list.length);
                }
                list[++list[0]] = id;
                lists.put(trigram, list);
            }
        }
        return new TreeMap<>(lists);
    }

    private static boolean contains(int[] values, int n, int value) {
        for (int i = 0; i < n; i++) {
            if (values[i] == value) {
                return true;
            }
        }
        return false;
    }

    /** Distinct strings, numbered in the order of their UTF-8 bytes once sealed. */
    private static final class StringIds {
        private final HashMap<String, Integer> ids = new HashMap<>();
        private byte[][] sorted;

        void add(String s) {
            ids.putIfAbsent(s, -1);
        }

        void seal() {
            String[] strings = ids.keySet().toArray(new String[0]);
            byte[][] bytes = new byte[strings.length][];
            Integer[] order = new Integer[strings.length];
            for (int i = 0; i < strings.length; i++) {
                bytes[i] = strings[i].getBytes(StandardCharsets.UTF_8);
                order[i] = i;
            }
            // By bytes, not by String: two strings with the same bytes (lone surrogates both
            // written as '?') still get ids in a fixed order.
            Arrays.sort(order, (x, y) -> {
                int c = Arrays.compareUnsigned(bytes[x], bytes[y]);
                return c != 0 ? c : strings[x].compareTo(strings[y]);
            });
            sorted = new byte[strings.length][];
            for (int id = 0; id < order.length; id++) {
                sorted[id] = bytes[order[id]];
                ids.put(strings[order[id]], id);
            }
        }

        int size() {
            return sorted.length;
        }

        int id(String s) {
            return ids.get(s);
        }

        byte[] bytes(int id) {
            return sorted[id];
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
