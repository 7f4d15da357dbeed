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
 * (bytes, value) pairs sorted by bytes (unsigned), then value, in bounded memory: the pairs gather
 * in an arena of at most {@code memoryBytes}; a full arena is sorted and written out as a run;
 * {@link #sorted} merges the runs with what is left. How the symbol writer numbers names and scopes
 * without holding a shard's strings.
 */
final class NameRuns implements Closeable {
    /** What a pair costs besides its bytes: its start, length, value and two sort slots. */
    static final int ENTRY_BYTES = 20;

    private final Path folder;
    private final String name;
    private final long memoryBytes;
    private byte[] arena = new byte[1 << 12];
    private int used;
    private int[] start = new int[256];
    private int[] length = new int[256];
    private int[] value = new int[256];
    private int size;
    private final List<Path> runs = new ArrayList<>();
    private int spilled;

    NameRuns(Path folder, String name, long memoryBytes) {
        this.folder = folder;
        this.name = name;
        this.memoryBytes = Math.max(1 << 12, memoryBytes);
    }

    void add(byte[] bytes, int offset, int count, int pairValue) throws IOException {
        if (size > 0 && (long) used + count + (long) ENTRY_BYTES * (size + 1) > memoryBytes) {
            spill();
        }
        if (used + count > arena.length) {
            arena = Arrays.copyOf(
                    arena, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(2L * arena.length, used + count)));
        }
        if (size == start.length) {
            start = Arrays.copyOf(start, 2 * size);
            length = Arrays.copyOf(length, 2 * size);
            value = Arrays.copyOf(value, 2 * size);
        }
        System.arraycopy(bytes, offset, arena, used, count);
        start[size] = used;
        length[size] = count;
        value[size] = pairValue;
        used += count;
        size++;
    }

    /** Runs written to disk, however many were deleted since. */
    int runs() {
        return spilled;
    }

    /** The buffered pairs' indexes in sorted order. */
    private int[] order() {
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        int[] scratch = new int[size];
        sort(order, scratch, 0, size);
        return order;
    }

    private void sort(int[] a, int[] scratch, int from, int to) {
        if (to - from < 16) {
            for (int i = from + 1; i < to; i++) {
                int x = a[i];
                int j = i - 1;
                while (j >= from && compare(a[j], x) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        int mid = (from + to) >>> 1;
        sort(a, scratch, from, mid);
        sort(a, scratch, mid, to);
        if (compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, from, scratch, from, to - from);
        int i = from;
        int j = mid;
        for (int k = from; k < to; k++) {
            a[k] = j >= to || (i < mid && compare(scratch[i], scratch[j]) <= 0) ? scratch[i++] : scratch[j++];
        }
    }

    private int compare(int x, int y) {
        int c = Arrays.compareUnsigned(arena, start[x], start[x] + length[x], arena, start[y], start[y] + length[y]);
        return c != 0 ? c : Integer.compare(value[x], value[y]);
    }

    private void spill() throws IOException {
        Path run = folder.resolve(name + "-" + runs.size());
        try (Spill.Writer out = new Spill.Writer(run)) {
            for (int i : order()) {
                out.writeVarint(length[i]);
                out.write(arena, start[i], length[i]);
                out.writeInt(value[i]);
            }
        }
        runs.add(run);
        spilled++;
        used = 0;
        size = 0;
    }

    /** Every pair added, by bytes then value. Call once, after the last {@link #add}. */
    Cursor sorted() throws IOException {
        int[] order = order();
        Cursor memory = new Cursor() {
            private int at = -1;

            @Override
            public boolean next() {
                return ++at < size;
            }

            @Override
            public byte[] array() {
                return arena;
            }

            @Override
            public int offset() {
                return start[order[at]];
            }

            @Override
            public int length() {
                return length[order[at]];
            }

            @Override
            public int value() {
                return value[order[at]];
            }

            @Override
            public void close() {}
        };
        if (runs.isEmpty()) {
            return memory;
        }
        List<Cursor> sources = new ArrayList<>();
        for (Path run : runs) {
            sources.add(new RunCursor(FileChannel.open(run)));
        }
        sources.add(memory);
        return new Merge(sources);
    }

    @Override
    public void close() throws IOException {
        arena = new byte[0];
        start = length = value = new int[0];
        used = size = 0;
        for (Path run : runs) {
            Files.deleteIfExists(run);
        }
        runs.clear();
    }

    /** A sorted sequence of pairs read once; the bytes are valid until the next {@link #next}. */
    interface Cursor extends Closeable {
        boolean next() throws IOException;

        byte[] array();

        int offset();

        int length();

        int value();
    }

    static int compare(Cursor a, Cursor b) {
        int c = Arrays.compareUnsigned(
                a.array(), a.offset(), a.offset() + a.length(), b.array(), b.offset(), b.offset() + b.length());
        return c != 0 ? c : Integer.compare(a.value(), b.value());
    }

    private static final class RunCursor implements Cursor {
        private final FileChannel channel;
        private final Spill.Reader in;
        private byte[] bytes = new byte[64];
        private int count;
        private int pairValue;

        RunCursor(FileChannel channel) throws IOException {
            this.channel = channel;
            this.in = new Spill.Reader(channel, 0, channel.size());
        }

        @Override
        public boolean next() throws IOException {
            if (in.atEnd()) {
                return false;
            }
            count = in.readVarint();
            if (bytes.length < count) {
                bytes = new byte[Math.max(count, 2 * bytes.length)];
            }
            in.read(bytes, 0, count);
            pairValue = in.readInt();
            return true;
        }

        @Override
        public byte[] array() {
            return bytes;
        }

        @Override
        public int offset() {
            return 0;
        }

        @Override
        public int length() {
            return count;
        }

        @Override
        public int value() {
            return pairValue;
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    /** The least pair first: a binary heap of cursors keyed by their current pair. */
    private static final class Merge implements Cursor {
        private final Cursor[] heap;
        private final List<Cursor> all;
        private int size;
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
                if (!heap[0].next()) {
                    heap[0] = heap[--size];
                    heap[size] = null;
                }
                down(0);
            }
            started = true;
            return size > 0;
        }

        private void down(int i) {
            while (true) {
                int least = i;
                int left = 2 * i + 1;
                int right = left + 1;
                if (left < size && compare(heap[left], heap[least]) < 0) {
                    least = left;
                }
                if (right < size && compare(heap[right], heap[least]) < 0) {
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
        public byte[] array() {
            return heap[0].array();
        }

        @Override
        public int offset() {
            return heap[0].offset();
        }

        @Override
        public int length() {
            return heap[0].length();
        }

        @Override
        public int value() {
            return heap[0].value();
        }

        @Override
        public void close() throws IOException {
            for (Cursor c : all) {
                c.close();
            }
        }
    }
}
