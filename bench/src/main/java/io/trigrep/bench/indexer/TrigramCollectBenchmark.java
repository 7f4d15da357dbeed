package io.trigrep.bench.indexer;

import io.trigrep.indexer.format.Trigrams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The indexer's per-file trigram pass: the distinct trigrams of every file of a source tree,
 * one set reused across files as the indexer does. Time per MiB of source, so runs over
 * different trees compare; {@code -p corpus=DIR} points it at any tree (the default is this
 * repository's own Java sources, up to 16 MiB).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class TrigramCollectBenchmark {
    @Param({"."})
    public String corpus;

    private final List<byte[]> files = new ArrayList<>();
    private final Trigrams.Set set = new Trigrams.Set();
    private long bytes;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        long budget = 16 << 20;
        try (Stream<Path> walk = Files.walk(Path.of(corpus))) {
            for (Path p : walk.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".java")
                            || p.toString().endsWith(".c")
                            || p.toString().endsWith(".h"))
                    .sorted()
                    .toList()) {
                if (bytes >= budget) {
                    break;
                }
                byte[] content = read(p);
                files.add(content);
                bytes += content.length;
            }
        }
        // Scale to a MiB per operation: files cycle until a MiB of bytes went through.
        if (files.isEmpty()) {
            throw new IllegalStateException("no .java, .c or .h files under " + corpus);
        }
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private int next;

    /** The distinct trigrams of files totalling one MiB (the last file may overshoot a little). */
    @Benchmark
    public long collectOneMiB() {
        long done = 0;
        long sum = 0;
        while (done < (1 << 20)) {
            byte[] content = files.get(next);
            next = next + 1 == files.size() ? 0 : next + 1;
            set.clear();
            sum += Trigrams.collect(content, 0, content.length, set, Integer.MAX_VALUE);
            done += content.length;
        }
        return sum;
    }
}
