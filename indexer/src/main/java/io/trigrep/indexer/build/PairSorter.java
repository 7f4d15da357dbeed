package io.trigrep.indexer.build;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Sorts (trigram, doc) pairs packed as {@code trigram << 32 | doc} in bounded memory. Pairs
 * arrive in increasing doc order, so a stable radix sort on the 24 trigram bits sorts a buffer
 * completely, and each spilled run covers a doc range above the previous run's. Merging is
 * then a walk in trigram order that, for each trigram, concatenates the runs' docs in run order:
 * no comparison sort and no heap. Heap use is the buffer (twice, for the radix scratch).
 */
final class PairSorter implements AutoCloseable {
    interface Sink {
        void accept(int trigram, int doc) throws IOException;
    }

    private static final int IO_BUFFER = 1 << 20;

    private final long[] buffer;
    private final long[] scratch;
    private final int[] counts = new int[(1 << 12) + 1];
    private final Path folder;
    private final String name;
    private final List<Path> runs = new ArrayList<>();
    private int size;
    private int lastDoc = -1;
    private boolean sorted;

    PairSorter(int capacity, Path folder, String name) {
        this.buffer = new long[capacity];
        this.scratch = new long[capacity];
        this.folder = folder;
        this.name = name;
    }

    void add(int trigram, int doc) throws IOException {
        if (doc < lastDoc) {
            throw new IllegalArgumentException("docs must arrive in increasing order: " + doc + " after " + lastDoc);
        }
        lastDoc = doc;
        if (size == buffer.length) {
            spill();
        }
        buffer[size++] = (long) trigram << 32 | doc;
    }

    int runs() {
        return runs.size();
    }

    /** Sorts what is buffered, so that {@link #drain} finds it ready; called by the thread that filled it. */
    void finishFilling() {
        sortBuffer();
        sorted = true;
    }

    /** Stable LSD radix sort on bits 32..55, in two 12-bit passes; doc order within a trigram is kept. */
    private void sortBuffer() {
        radixPass(buffer, scratch, 32);
        radixPass(scratch, buffer, 44);
    }

    private void radixPass(long[] from, long[] to, int shift) {
        java.util.Arrays.fill(counts, 0);
        for (int i = 0; i < size; i++) {
            counts[(int) (from[i] >>> shift & 0xfff) + 1]++;
        }
        for (int i = 1; i < counts.length; i++) {
            counts[i] += counts[i - 1];
        }
        for (int i = 0; i < size; i++) {
            long v = from[i];
            to[counts[(int) (v >>> shift & 0xfff)]++] = v;
        }
    }

    private void spill() throws IOException {
        sortBuffer();
        Path run = folder.resolve("run-" + name + "-" + runs.size());
        ByteBuffer io = ByteBuffer.allocateDirect(IO_BUFFER).order(ByteOrder.LITTLE_ENDIAN);
        try (FileChannel out = FileChannel.open(run, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (int i = 0; i < size; ) {
                int n = Math.min(size - i, io.capacity() / 8);
                io.clear();
                io.asLongBuffer().put(buffer, i, n);
                io.limit(n * 8);
                while (io.hasRemaining()) {
                    out.write(io);
                }
                i += n;
            }
        }
        runs.add(run);
        size = 0;
    }

    /** Emits every pair in increasing (trigram, doc) order. */
    void drain(Sink sink) throws IOException {
        drain(List.of(this), sink);
    }

    /**
     * Emits the pairs of several sorters in increasing (trigram, doc) order. The sorters must
     * cover increasing doc ranges, in list order (one per slice of the shard's docs).
     */
    static void drain(List<PairSorter> sorters, Sink sink) throws IOException {
        drain(sorters, 0, 1 << 24, sink);
    }

    /** Same, for the trigrams in {@code [from, to)} only: ranges can be drained by different threads. */
    static void drain(List<PairSorter> sorters, int from, int to, Sink sink) throws IOException {
        long low = (long) from << 32;
        long high = (long) to << 32;
        List<Cursor> cursors = new ArrayList<>();
        try {
            for (PairSorter sorter : sorters) {
                if (!sorter.sorted) {
                    sorter.sortBuffer();
                    sorter.sorted = true;
                }
                for (Path run : sorter.runs) {
                    cursors.add(new FileCursor(run, low, high));
                }
                cursors.add(new MemoryCursor(sorter.buffer, sorter.size, low, high));
            }
            while (true) {
                long next = Long.MAX_VALUE;
                for (Cursor c : cursors) {
                    if (c.current() < next) {
                        next = c.current();
                    }
                }
                if (next == Long.MAX_VALUE) {
                    return;
                }
                int trigram = (int) (next >>> 32);
                // Runs hold increasing doc ranges: run order is doc order for this trigram.
                for (Cursor c : cursors) {
                    while (c.current() != Long.MAX_VALUE && (int) (c.current() >>> 32) == trigram) {
                        sink.accept(trigram, (int) c.current());
                        c.advance();
                    }
                }
            }
        } finally {
            for (Cursor c : cursors) {
                c.close();
            }
        }
    }

    /**
     * Trigram boundaries that split the pairs into {@code parts} ranges of similar size, estimated
     * from what the sorters hold in memory (sorted), which samples every trigram's frequency.
     */
    static int[] split(List<PairSorter> sorters, int parts) {
        long[] sample = new long[0];
        for (PairSorter s : sorters) {
            if (!s.sorted) {
                s.sortBuffer();
                s.sorted = true;
            }
            if (s.size > sample.length) {
                sample = java.util.Arrays.copyOf(s.buffer, s.size);
            }
        }
        int[] bounds = new int[parts + 1];
        bounds[parts] = 1 << 24;
        for (int i = 1; i < parts; i++) {
            bounds[i] = sample.length == 0 ? (int) ((long) i * (1 << 24) / parts) : (int) (sample[(int) ((long) sample.length * i / parts)] >>> 32);
            bounds[i] = Math.max(bounds[i], bounds[i - 1]);
        }
        return bounds;
    }

    private interface Cursor extends AutoCloseable {
        /** The current pair, or Long.MAX_VALUE when exhausted (no real pair is: trigrams are 24 bits). */
        long current();

        void advance() throws IOException;

        @Override
        void close() throws IOException;
    }

    private static final class MemoryCursor implements Cursor {
        private final long[] pairs;
        private final int size;
        private final long high;
        private int at;

        MemoryCursor(long[] pairs, int size, long low, long high) {
            this.pairs = pairs;
            this.size = size;
            this.high = high;
            int lo = 0;
            int hi = size;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (pairs[mid] < low) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            this.at = lo;
        }

        @Override
        public long current() {
            return at < size && pairs[at] < high ? pairs[at] : Long.MAX_VALUE;
        }

        @Override
        public void advance() {
            at++;
        }

        @Override
        public void close() {}
    }

    private static final class FileCursor implements Cursor {
        private final FileChannel in;
        private final ByteBuffer io = ByteBuffer.allocateDirect(IO_BUFFER).order(ByteOrder.LITTLE_ENDIAN);
        private final long high;
        private long current;

        FileCursor(Path run, long low, long high) throws IOException {
            in = FileChannel.open(run, StandardOpenOption.READ);
            this.high = high;
            long lo = 0;
            long hi = in.size() / 8;
            ByteBuffer one = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
            while (lo < hi) {
                long mid = (lo + hi) >>> 1;
                one.clear();
                while (one.hasRemaining() && in.read(one, mid * 8 + one.position()) > 0) {
                    // fill the 8 bytes
                }
                if (one.getLong(0) < low) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            in.position(lo * 8);
            io.limit(0);
            advance();
        }

        @Override
        public long current() {
            return current;
        }

        @Override
        public void advance() throws IOException {
            if (io.remaining() < 8) {
                io.compact();
                while (io.position() < 8) {
                    if (in.read(io) < 0) {
                        break;
                    }
                }
                io.flip();
                if (io.remaining() < 8) {
                    current = Long.MAX_VALUE;
                    return;
                }
            }
            current = io.getLong();
            if (current >= high) {
                current = Long.MAX_VALUE;
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    @Override
    public void close() throws IOException {
        for (Path run : runs) {
            Files.deleteIfExists(run);
        }
    }
}
