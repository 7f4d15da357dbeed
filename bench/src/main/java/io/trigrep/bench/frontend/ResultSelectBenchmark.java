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
 * The first ranks a finished query answers from ({@link ResultIndex#best}, with the frontend's
 * 1,000): over a selective query's few hundred results and over a heavy one's many, arriving in
 * random ranking order or worst first (each result better than all before it). One operation is
 * one selection.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ResultSelectBenchmark {
    static final int FIRST_RANKS = 1000;

    @Param({"550", "100000"})
    public int results;

    @Param({"random", "worst-first"})
    public String arrival;

    /** Best results the index keeps as they come (the frontend's 1,000), or 0: all passed over at the end. */
    @Param({"0", "1000"})
    public int keep;

    private ResultIndex index;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        ByteBuf source = Unpooled.wrappedBuffer(
                "    return sqlite3_prepare_v2(db, sql, -1, &stmt, 0);\n".getBytes(StandardCharsets.UTF_8));
        ResultWriter writer = new ResultWriter(0);
        ByteBuf out = Unpooled.directBuffer(results * 200);
        Random random = new Random(5);
        int[] starts = new int[results + 1];
        for (int i = 0; i < results; i++) {
            float ranking = arrival.equals("random") ? random.nextInt(1000) / 1000f : i / (float) results;
            byte[] pkg = ("package-" + i / 500).getBytes(StandardCharsets.UTF_8);
            byte[] path = ("src/file-" + i / 3 + ".c").getBytes(StandardCharsets.UTF_8);
            writer.start(pkg, path, source, 1 + i % 1000, ranking)
                    .match(0, source.readableBytes() - 1)
                    .range(11, 29);
            starts[i] = out.writerIndex();
            writer.writeTo(out);
        }
        starts[results] = out.writerIndex();
        ByteBuffer view = out.nioBuffer().order(ByteOrder.LITTLE_ENDIAN);
        index = new ResultIndex(keep);
        for (int i = 0; i < results; i++) {
            int length = (int) Framing.frameLength(view, starts[i], starts[i + 1] - starts[i], FrameLimits.DEFAULT);
            view.limit(starts[i] + length).position(starts[i]);
            if (!index.add(0, view, starts[i])) {
                throw new IllegalStateException("not a result frame at " + starts[i]);
            }
            view.limit(starts[results]);
        }
        index.publish();
    }

    @Benchmark
    public int[] best() {
        return index.best(FIRST_RANKS);
    }
}
