package io.trigrep.bench.proto;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.MalformedMessageException;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import io.trigrep.proto.Result;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.capnproto.MessageBuilder;
import org.capnproto.Text;
import org.capnproto.TextList;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Reading one framed result back, as the frontend does for every result it shows on a page:
 * {@link Framing#read} then {@link Messages#response}, which validates every field before the
 * caller reads one. Run with {@code -prof gc}: bytes allocated per decoded result matter.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ResultDecodeBenchmark {
    private ByteBuffer frame;

    @Setup(Level.Trial)
    public void setUp() {
        MessageBuilder message = Messages.newBuilder();
        Result.Builder result = message.initRoot(Response.factory)
                .initResult()
                .setPackage(ResultEncodeBenchmark.PACKAGE)
                .setPath(ResultEncodeBenchmark.PATH)
                .setLine(1234)
                .setContext(ResultEncodeBenchmark.LINE)
                .setRanking(0.75f);
        TextList.Builder b = result.initBefore(ResultEncodeBenchmark.BEFORE.length);
        for (int i = 0; i < ResultEncodeBenchmark.BEFORE.length; i++) {
            b.set(i, new Text.Reader(ResultEncodeBenchmark.BEFORE[i]));
        }
        TextList.Builder a = result.initAfter(ResultEncodeBenchmark.AFTER.length);
        for (int i = 0; i < ResultEncodeBenchmark.AFTER.length; i++) {
            a.set(i, new Text.Reader(ResultEncodeBenchmark.AFTER[i]));
        }
        result.initRanges(1).get(0).setStart(15).setEnd(29);
        ByteBuf out = Unpooled.buffer();
        Framing.write(message, out);
        frame = ByteBuffer.allocateDirect(out.readableBytes());
        frame.put(out.nioBuffer()).flip();
        out.release();
    }

    /** Validates the whole result, then reads its line number and first range as a page would. */
    @Benchmark
    public int decode() throws MalformedMessageException {
        Result.Reader result =
                Messages.response(Framing.read(frame, FrameLimits.DEFAULT)).getResult();
        return result.getLine() + result.getRanges().get(0).getEnd();
    }
}
