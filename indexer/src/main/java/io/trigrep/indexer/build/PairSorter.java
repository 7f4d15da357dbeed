package io.trigrep.indexer.build;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Sorts (trigram, doc) pairs packed as {@code trigram << 32 | doc} in bounded memory: a fixed
 * buffer is sorted and spilled to a run file when full, and the runs are merged at the end
 * (an external merge sort, as codesearch's indexer does). Heap use is the buffer, whatever the corpus.
 */
final class PairSorter implements AutoCloseable {
    interface Sink {
        void accept(int trigram, int doc) throws IOException;
    }

    private final long[] buffer;
    private final Path folder;
    private final List<Path> runs = new ArrayList<>();
    private int size;

    PairSorter(int capacity, Path folder) {
        this.buffer = new long[capacity];
        this.folder = folder;
    }

    void add(int trigram, int doc) throws IOException {
        if (size == buffer.length) {
            spill();
        }
        buffer[size++] = (long) trigram << 32 | doc;
    }

    int runs() {
        return runs.size();
    }

    private void spill() throws IOException {
        Arrays.sort(buffer, 0, size);
        Path run = folder.resolve("run-" + runs.size());
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), 1 << 16))) {
            for (int i = 0; i < size; i++) {
                out.writeLong(buffer[i]);
            }
        }
        runs.add(run);
        size = 0;
    }

    /** Emits every pair in increasing order. */
    void drain(Sink sink) throws IOException {
        Arrays.sort(buffer, 0, size);
        if (runs.isEmpty()) {
            for (int i = 0; i < size; i++) {
                sink.accept((int) (buffer[i] >>> 32), (int) buffer[i]);
            }
            return;
        }
        spill();
        List<DataInputStream> inputs = new ArrayList<>();
        try {
            PriorityQueue<long[]> heap = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
            for (Path run : runs) {
                DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(run), 1 << 16));
                inputs.add(in);
                heap.add(new long[] {in.readLong(), inputs.size() - 1});
            }
            while (!heap.isEmpty()) {
                long[] top = heap.poll();
                sink.accept((int) (top[0] >>> 32), (int) top[0]);
                try {
                    top[0] = inputs.get((int) top[1]).readLong();
                    heap.add(top);
                } catch (EOFException end) {
                    // this run is exhausted
                }
            }
        } finally {
            for (DataInputStream in : inputs) {
                in.close();
            }
        }
    }

    @Override
    public void close() throws IOException {
        for (Path run : runs) {
            Files.deleteIfExists(run);
        }
    }
}
