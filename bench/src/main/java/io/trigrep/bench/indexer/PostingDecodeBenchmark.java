package io.trigrep.bench.indexer;

import io.trigrep.indexer.format.PostingIterator;
import io.trigrep.indexer.format.TrigramIndex;
import io.trigrep.indexer.format.TrigramIndexWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding one posting list of 100,000 docs: the shard format's bit-packed blocks, against
 * codesearch-style varint gaps over the same docs. Also {@code advance} in 1,000 long strides,
 * which the skip table serves. Time per list; {@code -prof gc} shows allocation per list.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class PostingDecodeBenchmark {
    @Param({"4", "64"})
    public int averageGap;

    private Path file;
    private TrigramIndex index;
    private final PostingIterator iterator = new PostingIterator();
    private byte[] varint;
    private int docs;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        Random random = new Random(42);
        int[] list = new int[100_000];
        int doc = -1;
        for (int i = 0; i < list.length; i++) {
            doc += 1 + random.nextInt(2 * averageGap - 1);
            list[i] = doc;
        }
        docs = doc + 1;
        file = Files.createTempFile("postings", ".tgi");
        Files.delete(file);
        try (TrigramIndexWriter writer = new TrigramIndexWriter(file, docs)) {
            for (int d : list) {
                writer.add(0x616263, d);
            }
            writer.finish();
        }
        index = TrigramIndex.open(file);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int previous = -1;
        for (int d : list) {
            int gap = d - previous;
            previous = d;
            while (gap >= 0x80) {
                out.write((gap & 0x7f) | 0x80);
                gap >>>= 7;
            }
            out.write(gap);
        }
        varint = out.toByteArray();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        Files.deleteIfExists(file);
    }

    @Benchmark
    public long blocksNext() throws IOException {
        index.postings(0, iterator);
        long sum = 0;
        for (int d = iterator.next(); d != PostingIterator.NO_MORE_DOCS; d = iterator.next()) {
            sum += d;
        }
        return sum;
    }

    @Benchmark
    public long blocksAdvance() throws IOException {
        index.postings(0, iterator);
        long sum = 0;
        for (int target = 0; target < docs; target += 1000) {
            int d = iterator.advance(target);
            if (d == PostingIterator.NO_MORE_DOCS) {
                break;
            }
            sum += d;
        }
        return sum;
    }

    @Benchmark
    public long varintNext() {
        long sum = 0;
        int doc = -1;
        byte[] bytes = varint;
        for (int i = 0; i < bytes.length; ) {
            int gap = 0;
            int shift = 0;
            int b;
            do {
                b = bytes[i++];
                gap |= (b & 0x7f) << shift;
                shift += 7;
            } while (b < 0);
            doc += gap;
            sum += doc;
        }
        return sum;
    }
}
