package io.trigrep.bench.proto;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.trigrep.proto.FileResultsWriter;
import io.trigrep.proto.MatchLines;
import io.trigrep.proto.ResultWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A result-heavy file's matches encoded by line ({@link ResultWriter}, a Result each) and by file
 * ({@link FileResultsWriter}, each shown line once), as a backend's worker drives them: a C file
 * of 64 lines of about 30 bytes, a match on every third line, two lines of context each side (the
 * frontend's default), so most context lines are shared by two matches. Scores are per match; each
 * returns the bytes it wrote for the file's 22 matches (a Result each: 8,144; by file: 2,848, in
 * one frame). Run with {@code -prof gc}: neither allocates per match.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class FileResultsEncodeBenchmark {
    static final int LINES = 64;
    static final int EVERY = 3;
    static final int MATCHES = (LINES + EVERY - 1) / EVERY;
    static final int CONTEXT = 2;

    private final byte[] pkg = "linux_6.1.0".getBytes(StandardCharsets.UTF_8);
    private final byte[] path = "drivers/net/ethernet/intel/e1000e/netdev.c".getBytes(StandardCharsets.UTF_8);
    private final int[] starts = new int[LINES];
    private final int[] lengths = new int[LINES];
    private final ResultWriter byLine = new ResultWriter(CONTEXT);
    private final FileResultsWriter byFile = new FileResultsWriter(CONTEXT);
    private ByteBuf file;
    private ByteBuf out;

    @Setup(Level.Trial)
    public void setUp() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < LINES; i++) {
            starts[i] = text.length();
            String line = i % EVERY == 0
                    ? "\tstruct e1000_adapter *a" + i + " = netdev_priv(dev);"
                    : "\tif (err" + i + ") goto out;";
            lengths[i] = line.length();
            text.append(line).append('\n');
        }
        byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
        file = Unpooled.wrappedBuffer(Arrays.copyOf(bytes, bytes.length + 4096), 0, bytes.length);
        out = ByteBufAllocator.DEFAULT.buffer(1 << 16);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        out.release();
    }

    private void lines(MatchLines w, int line) {
        for (int k = Math.max(0, line - CONTEXT); k < line; k++) {
            w.before(starts[k], lengths[k]);
        }
        w.match(starts[line], lengths[line]);
        for (int k = line + 1; k <= Math.min(LINES - 1, line + CONTEXT); k++) {
            w.after(starts[k], lengths[k]);
        }
        w.range(1, 7);
    }

    @Benchmark
    @OperationsPerInvocation(MATCHES)
    public int resultPerLine() {
        out.clear();
        for (int line = 0; line < LINES; line += EVERY) {
            byLine.start(pkg, path, file, line + 1, 0.5f);
            lines(byLine, line);
            byLine.writeTo(out);
        }
        return out.writerIndex();
    }

    @Benchmark
    @OperationsPerInvocation(MATCHES)
    public int resultsByFile() {
        out.clear();
        byFile.file(pkg, path, file);
        for (int line = 0; line < LINES; line += EVERY) {
            byFile.start(line + 1, 0.5f);
            lines(byFile, line);
            byFile.add(out);
        }
        byFile.writeTo(out);
        return out.writerIndex();
    }
}
