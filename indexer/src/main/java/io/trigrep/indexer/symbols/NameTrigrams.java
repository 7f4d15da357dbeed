package io.trigrep.indexer.symbols;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * The names' trigram lists in bounded memory: for each trigram (3 bytes packed big-endian, as in
 * trigrams.tgi) the ids of the names holding it, ascending, each once.
 *
 * <p>Names are added in id order, which makes two things cheap. A full buffer is sorted by trigram
 * alone with a stable radix sort (its ids stay ascending within a trigram) and written out as a
 * run, each trigram once with its count and its ids as varint gaps (a name's neighbours in byte
 * order share most trigrams, so the gaps are small); and every id of a run is at most every id of
 * the next one, so {@link #sorted} merges the runs by walking them in order for each trigram, with
 * no comparison per pair. Memory is the buffer and its sort's second array, plus one read buffer
 * per run.
 */
final class NameTrigrams implements Closeable {
    /** A run's head once it is read whole: its trigram half is no 24-bit trigram and above them all. */
    private static final long ENDED = Long.MAX_VALUE;

    private static final int DIGIT_BITS = 12;
    private static final int DIGITS = 1 << DIGIT_BITS;

    private final Path folder;
    private final String name;
    private final int capacity;
    /** Pairs {@code trigram << 32 | id} in the order added, until sorted. */
    private long[] pairs = new long[1024];

    private long[] sortSpace = new long[0];
    private int size;
    private int lastId;
    private final List<Path> runs = new ArrayList<>();

    /** Spills under {@code folder}, in files named after {@code name}, each buffer at most {@code memoryBytes}. */
    NameTrigrams(Path folder, String name, long memoryBytes) {
        this.folder = folder;
        this.name = name;
        this.capacity = (int) Math.max(1024, Math.min(memoryBytes / 16, Integer.MAX_VALUE - 8));
    }

    /** Name {@code id} holds {@code trigram}; ids never decrease from one call to the next. */
    void add(int trigram, int id) throws IOException {
        if (id < lastId || (trigram & ~0xffffff) != 0) {
            throw new IllegalArgumentException("add ids in increasing order and 24-bit trigrams, got trigram " + trigram
                    + " of id " + id + " after id " + lastId);
        }
        lastId = id;
        if (size == pairs.length) {
            if (pairs.length < capacity) {
                pairs = Arrays.copyOf(pairs, (int) Math.min(capacity, 2L * pairs.length));
            } else {
                spill();
            }
        }
        pairs[size++] = (long) trigram << 32 | id;
    }

    /** Runs written to disk. */
    int runs() {
        return runs.size();
    }

    private void spill() throws IOException {
        sortByTrigram();
        Path run = folder.resolve(name + "-" + runs.size());
        try (Spill.Writer out = new Spill.Writer(run)) {
            for (int start = 0; start < size; ) {
                int trigram = (int) (pairs[start] >>> 32);
                int end = start + 1;
                while (end < size && (int) (pairs[end] >>> 32) == trigram) {
                    end++;
                }
                out.writeVarint(trigram);
                out.writeVarint(end - start);
                int last = 0;
                for (int i = start; i < end; i++) {
                    int id = (int) pairs[i];
                    out.writeVarint(id - last);
                    last = id;
                }
                start = end;
            }
        }
        runs.add(run);
        size = 0;
    }

    /** Sorts the buffer by trigram, keeping the order of the ids: two passes of a 12-bit counting sort. */
    private void sortByTrigram() {
        if (sortSpace.length < size) {
            sortSpace = new long[pairs.length];
        }
        int[] count = new int[DIGITS];
        pass(pairs, sortSpace, size, 32, count);
        pass(sortSpace, pairs, size, 32 + DIGIT_BITS, count);
    }

    private static void pass(long[] from, long[] to, int n, int shift, int[] count) {
        Arrays.fill(count, 0);
        for (int i = 0; i < n; i++) {
            count[(int) (from[i] >>> shift) & (DIGITS - 1)]++;
        }
        for (int d = 0, at = 0; d < DIGITS; d++) {
            int c = count[d];
            count[d] = at;
            at += c;
        }
        for (int i = 0; i < n; i++) {
            long pair = from[i];
            to[count[(int) (pair >>> shift) & (DIGITS - 1)]++] = pair;
        }
    }

    /** The lists, trigram by trigram. Call once, after the last {@link #add}. */
    Cursor sorted() throws IOException {
        sortByTrigram();
        List<Source> sources = new ArrayList<>();
        try {
            for (Path run : runs) {
                FileChannel channel = FileChannel.open(run);
                sources.add(new Source(channel, new Spill.Reader(channel, 0, channel.size()), null, 0));
            }
        } catch (IOException e) {
            for (Source s : sources) {
                s.close();
            }
            throw e;
        }
        sources.add(new Source(null, null, pairs, size));
        return new Cursor(sources.toArray(new Source[0]));
    }

    @Override
    public void close() throws IOException {
        pairs = new long[0];
        sortSpace = new long[0];
        size = 0;
        for (Path run : runs) {
            Files.deleteIfExists(run);
        }
        runs.clear();
    }

    /** A run of pairs, from its file or (the last one) from the buffer. */
    private static final class Source {
        private final FileChannel channel;
        private final Spill.Reader in;
        private final long[] array;
        private final int end;
        private int at;
        /** A run file's group being read: its trigram, the ids left in it, the last id read. */
        private int trigram;

        private int left;
        private int id;
        /** The pair to take next, or {@link #ENDED}. */
        private long head;

        Source(FileChannel channel, Spill.Reader in, long[] array, int end) throws IOException {
            this.channel = channel;
            this.in = in;
            this.array = array;
            this.end = end;
            advance();
        }

        void advance() throws IOException {
            if (in == null) {
                head = at < end ? array[at++] : ENDED;
                return;
            }
            if (left == 0) {
                if (in.atEnd()) {
                    head = ENDED;
                    return;
                }
                trigram = in.readVarint();
                left = in.readVarint();
                id = 0;
            }
            id += in.readVarint();
            left--;
            head = (long) trigram << 32 | id;
        }

        void close() throws IOException {
            if (channel != null) {
                channel.close();
            }
        }
    }

    /** The lists in trigram order, one per {@link #next} call. */
    static final class Cursor implements Closeable {
        private final Source[] sources;
        private int count;

        private Cursor(Source[] sources) {
            this.sources = sources;
        }

        /**
         * Hands the ids of the next trigram's list to {@code list}, ascending and each once, and
         * answers the trigram; -1 after the last list. The list is the trigram's part of each run
         * in turn: the runs' ids ascend from one to the next.
         */
        int next(IntConsumer list) throws IOException {
            long trigram = ENDED >>> 32;
            for (Source s : sources) {
                trigram = Math.min(trigram, s.head >>> 32);
            }
            if (trigram == ENDED >>> 32) {
                return -1;
            }
            int last = -1;
            count = 0;
            for (Source s : sources) {
                while (s.head >>> 32 == trigram) {
                    int id = (int) s.head;
                    if (id != last) {
                        list.accept(id);
                        last = id;
                        count++;
                    }
                    s.advance();
                }
            }
            return (int) trigram;
        }

        /** How many ids the last {@link #next} handed over. */
        int count() {
            return count;
        }

        @Override
        public void close() throws IOException {
            IOException failed = null;
            for (Source s : sources) {
                try {
                    s.close();
                } catch (IOException e) {
                    failed = failed == null ? e : failed;
                }
            }
            if (failed != null) {
                throw failed;
            }
        }
    }
}
