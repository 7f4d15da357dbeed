package io.trigrep.indexer.symbols;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Longs sorted in bounded memory: they gather in a buffer of at most {@code memoryBytes}; a full
 * buffer is sorted and written out as a run; {@link #sorted} merges the runs with what is left in
 * the buffer. Memory is the buffer plus one read buffer per run, whatever the count.
 */
final class LongRuns implements Closeable {
    private final Path folder;
    private final String name;
    private final int capacity;
    private long[] buffer = new long[1024];
    private int size;
    private final List<Path> runs = new ArrayList<>();
    private int spilled;

    LongRuns(Path folder, String name, long memoryBytes) {
        this.folder = folder;
        this.name = name;
        this.capacity = (int) Math.max(1024, Math.min(memoryBytes / 8, Integer.MAX_VALUE - 8));
    }

    void add(long value) throws IOException {
        if (size == buffer.length) {
            if (buffer.length < capacity) {
                buffer = Arrays.copyOf(buffer, (int) Math.min(capacity, 2L * buffer.length));
            } else {
                spill();
            }
        }
        buffer[size++] = value;
    }

    /** Runs written to disk, however many were deleted since. */
    int runs() {
        return spilled;
    }

    private void spill() throws IOException {
        Arrays.sort(buffer, 0, size);
        Path run = folder.resolve(name + "-" + runs.size());
        try (Spill.Writer out = new Spill.Writer(run)) {
            for (int i = 0; i < size; i++) {
                out.writeLong(buffer[i]);
            }
        }
        runs.add(run);
        spilled++;
        size = 0;
    }

    /** Every value added, ascending (duplicates kept). Call once, after the last {@link #add}. */
    Cursor sorted() throws IOException {
        Arrays.sort(buffer, 0, size);
        List<Cursor> sources = new ArrayList<>();
        for (Path run : runs) {
            FileChannel channel = FileChannel.open(run);
            sources.add(new RunCursor(channel, new Spill.Reader(channel, 0, channel.size())));
        }
        Cursor memory = new Cursor() {
            private int at = -1;

            @Override
            public boolean next() {
                return ++at < size;
            }

            @Override
            public long value() {
                return buffer[at];
            }

            @Override
            public void close() {}
        };
        if (sources.isEmpty()) {
            return memory;
        }
        sources.add(memory);
        return new Merge(sources);
    }

    @Override
    public void close() throws IOException {
        buffer = new long[0];
        size = 0;
        for (Path run : runs) {
            Files.deleteIfExists(run);
        }
        runs.clear();
    }

    /** A sorted sequence read once. */
    interface Cursor extends Closeable {
        /** Moves to the next value; false at the end. */
        boolean next() throws IOException;

        long value();
    }

    private static final class RunCursor implements Cursor {
        private final FileChannel channel;
        private final Spill.Reader in;
        private long value;

        RunCursor(FileChannel channel, Spill.Reader in) {
            this.channel = channel;
            this.in = in;
        }

        @Override
        public boolean next() throws IOException {
            if (in.atEnd()) {
                return false;
            }
            value = in.readLong();
            return true;
        }

        @Override
        public long value() {
            return value;
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /** The smallest head first: a binary heap of cursors keyed by their current value. */
    private static final class Merge implements Cursor {
        private final Cursor[] heap;
        private final List<Cursor> all;
        private int size;
        private long value;
        private boolean started;

        Merge(List<Cursor> sources) throws IOException {
            this.all = sources;
            this.heap = new Cursor[sources.size()];
            for (Cursor c : sources) {
                if (c.next()) {
                    heap[size++] = c;
                }
            }
            for (int i = size / 2 - 1; i >= 0; i--) {
                down(i);
            }
        }

        @Override
        public boolean next() throws IOException {
            if (started && size > 0) {
                if (heap[0].next()) {
                    down(0);
                } else {
                    heap[0] = heap[--size];
                    heap[size] = null;
                    down(0);
                }
            }
            started = true;
            if (size == 0) {
                return false;
            }
            value = heap[0].value();
            return true;
        }

        private void down(int i) {
            while (true) {
                int least = i;
                int left = 2 * i + 1;
                int right = left + 1;
                if (left < size && heap[left].value() < heap[least].value()) {
                    least = left;
                }
                if (right < size && heap[right].value() < heap[least].value()) {
                    least = right;
                }
                if (least == i) {
                    return;
                }
                Cursor t = heap[i];
                heap[i] = heap[least];
                heap[least] = t;
                i = least;
            }
        }

        @Override
        public long value() {
            return value;
        }

        @Override
        public void close() throws IOException {
            for (Cursor c : all) {
                c.close();
            }
        }
    }
}
