package io.trigrep.bench.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.ResultWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * The full order of a result-heavy query ({@link ResultIndex#sort}), which pages past the first
 * ranks wait for: results shaped like {@code struct} on the Linux tree (2 million of them, about 14
 * per file, the files' static ranks random or shared, and each line's ranking that rank scaled by how good
 * the match looks, as the backends' Ranking has it: word boundary, column, indent). One operation
 * is one sort of all of them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "-Xmx3g")
public class ResultSortBenchmark {
    @Param({"2000000"})
    public int results;

    /**
     * Distinct static ranks among the files: 0 for a random one each, else that many values shared
     * (the indexer's ranks of a tree's files repeat, so equal rankings of different files are common).
     */
    @Param({"0", "64"})
    public int staticRanks;

    private ResultIndex index;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        ByteBuf source =
                Unpooled.wrappedBuffer("\tstruct device *dev = &pdev->dev;\n".getBytes(StandardCharsets.UTF_8));
        ResultWriter writer = new ResultWriter(0);
        Random random = new Random(7);
        index = new ResultIndex();
        ByteBuf out = Unpooled.directBuffer(1 << 20);
        long teeOffset = 0;
        int file = 0;
        int leftInFile = 0;
        float staticRank = 0;
        byte[] pkg = "linux".getBytes(StandardCharsets.UTF_8);
        byte[] path = null;
        for (int i = 0; i < results; i++) {
            if (leftInFile == 0) {
                file++;
                leftInFile = 1 + random.nextInt(27);
                staticRank = staticRanks == 0
                        ? 0.05f + random.nextFloat() * 0.95f
                        : 0.05f + random.nextInt(staticRanks) * 0.95f / staticRanks;
                path = ("drivers/net/file-" + file + ".c").getBytes(StandardCharsets.UTF_8);
            }
            leftInFile--;
            double word = random.nextInt(5) == 0 ? 0 : 1;
            double early = 1.0 - random.nextInt(121) / 120.0;
            double shallow = 1.0 - random.nextInt(4) * 8 / 32.0;
            float ranking = (float) (staticRank * (0.5 + 0.5 * (0.4 * word + 0.2 * early + 0.2 * shallow)));
            out.clear();
            writer.start(pkg, path, source, 1 + i % 5000, ranking)
                    .match(1, 7)
                    .range(1, 7)
                    .writeTo(out);
            ByteBuffer view = out.nioBuffer().order(ByteOrder.LITTLE_ENDIAN);
            int length = (int) Framing.frameLength(view, 0, view.remaining(), FrameLimits.DEFAULT);
            view.limit(length);
            if (!index.add(0, view, teeOffset)) {
                throw new IllegalStateException("not a result frame");
            }
            teeOffset += length;
        }
        index.publish();
        out.release();
        source.release();
    }

    @Benchmark
    public int sort() {
        index.sort();
        return index.sorted(results - 1);
    }
}
