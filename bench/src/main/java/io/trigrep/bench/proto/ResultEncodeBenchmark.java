package io.trigrep.bench.proto;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Range;
import io.trigrep.proto.Response;
import io.trigrep.proto.Result;
import io.trigrep.proto.ResultWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.capnproto.MessageBuilder;
import org.capnproto.StructList;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Encoding and framing one typical result (two context lines each side, one match range) into a
 * Netty buffer, as a backend does for every matching line. Run with {@code -prof gc}: bytes
 * allocated per operation matter as much as time.
 *
 * <ul>
 *   <li>{@code freshBuilder}: a new MessageBuilder per result, fields set from Strings.
 *   <li>{@code reusedSegment}: the first segment reused across results and the line bytes copied
 *       straight from the file's buffer.
 *   <li>{@code resultWriter}: {@link ResultWriter}, the backend's hot path: no builder at all.
 *   <li>{@code resultWriterLongLine}: the same for a match on a minified line of 1 MB, "ab" half a
 *       million times, with a 1 MB context line before it: both cut to 400 bytes, and the writer
 *       offered ranges until it says the window is past.
 * </ul>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ResultEncodeBenchmark {
    static final String PACKAGE = "zlib_1.2.13.dfsg-1";
    static final String PATH = "contrib/minizip/unzip.c";
    static final String[] BEFORE = {"    unz64_s* s;", "    if (file == NULL)"};
    static final String LINE = "        return UNZ_PARAMERROR;";
    static final String[] AFTER = {"    s = (unz64_s*)file;", "    if (s->pfile_in_zip_read != NULL)"};

    private ByteBuf out;
    private ByteBuffer firstSegment;
    private ByteBuffer fileBytes;
    private int lineOffset;
    private final ResultWriter writer = new ResultWriter(2);
    private final byte[] packageBytes = PACKAGE.getBytes(StandardCharsets.UTF_8);
    private final byte[] pathBytes = PATH.getBytes(StandardCharsets.UTF_8);
    private ByteBuf fileBuf;
    private final int[] lineStarts = new int[5];
    private final int[] lineLengths = new int[5];
    private final Text.Reader[] before = new Text.Reader[BEFORE.length];
    private final Text.Reader[] after = new Text.Reader[AFTER.length];

    @Setup(Level.Trial)
    public void setUp() {
        // As in a backend: the channel's allocator (Netty 4.2's adaptive one), and the file's bytes
        // in a scratch array larger than the file, wrapped once per file as a slice of it.
        out = ByteBufAllocator.DEFAULT.buffer(4096);
        firstSegment = ByteBuffer.allocate(128 * 8).order(ByteOrder.LITTLE_ENDIAN);
        String file = String.join("\n", BEFORE) + "\n" + LINE + "\n" + String.join("\n", AFTER) + "\n";
        fileBytes = ByteBuffer.wrap(file.getBytes(StandardCharsets.UTF_8));
        lineOffset = (String.join("\n", BEFORE) + "\n").getBytes(StandardCharsets.UTF_8).length;
        byte[] scratch = Arrays.copyOf(fileBytes.array(), fileBytes.capacity() + 4096);
        fileBuf = Unpooled.wrappedBuffer(scratch, 0, fileBytes.capacity());
        String[] lines = file.lines().toArray(String[]::new);
        int at = 0;
        for (int i = 0; i < lines.length; i++) {
            lineStarts[i] = at;
            lineLengths[i] = lines[i].getBytes(StandardCharsets.UTF_8).length;
            at += lineLengths[i] + 1;
        }
        for (int i = 0; i < BEFORE.length; i++) {
            before[i] = new Text.Reader(BEFORE[i]);
            after[i] = new Text.Reader(AFTER[i]);
        }
    }

    private ByteBuf longFile;
    private static final int LONG = 1 << 20;

    @Setup(Level.Trial)
    public void setUpLongLine() {
        byte[] file = new byte[2 * LONG + 2];
        for (int i = 0; i < file.length; i++) {
            file[i] = (byte) (i % 2 == 0 ? 'a' : 'b');
        }
        file[LONG] = '\n';
        file[2 * LONG + 1] = '\n';
        longFile = Unpooled.wrappedBuffer(Arrays.copyOf(file, file.length + 4096), 0, file.length);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        out.release();
    }

    @Benchmark
    public int resultWriter() {
        writer.start(packageBytes, pathBytes, fileBuf, 1234, 0.75f)
                .before(lineStarts[0], lineLengths[0])
                .before(lineStarts[1], lineLengths[1])
                .match(lineStarts[2], lineLengths[2])
                .after(lineStarts[3], lineLengths[3])
                .after(lineStarts[4], lineLengths[4])
                .range(15, 29);
        out.clear();
        writer.writeTo(out);
        return out.writerIndex();
    }

    @Benchmark
    public int resultWriterLongLine() {
        writer.start(packageBytes, pathBytes, longFile, 2, 0.75f)
                .before(0, LONG)
                .match(LONG + 1, LONG);
        // As the backend's worker does: every match on the line (from 700 KB on), until past the window.
        for (int at = 700_000; at < LONG; at += 2) {
            if (writer.range(at, at + 2).pastWindow()) {
                break;
            }
        }
        out.clear();
        writer.writeTo(out);
        return out.writerIndex();
    }

    @Benchmark
    public int freshBuilder() {
        MessageBuilder message = Messages.newBuilder();
        Result.Builder result = message.initRoot(Response.factory)
                .initResult()
                .setPackage(PACKAGE)
                .setPath(PATH)
                .setLine(1234)
                .setContext(LINE)
                .setRanking(0.75f);
        TextList.Builder b = result.initBefore(BEFORE.length);
        for (int i = 0; i < BEFORE.length; i++) {
            b.set(i, new Text.Reader(BEFORE[i]));
        }
        TextList.Builder a = result.initAfter(AFTER.length);
        for (int i = 0; i < AFTER.length; i++) {
            a.set(i, new Text.Reader(AFTER[i]));
        }
        result.initRanges(1).get(0).setStart(15).setEnd(29);
        out.clear();
        Framing.write(message, out);
        return out.writerIndex();
    }

    @Benchmark
    public int reusedSegment() {
        MessageBuilder message = new MessageBuilder(firstSegment);
        Result.Builder result = message.initRoot(Response.factory)
                .initResult()
                .setPackage(PACKAGE)
                .setPath(PATH)
                .setLine(1234)
                .setContext(fileBytes, lineOffset, LINE.length())
                .setRanking(0.75f);
        TextList.Builder b = result.initBefore(before.length);
        for (int i = 0; i < before.length; i++) {
            b.set(i, before[i]);
        }
        TextList.Builder a = result.initAfter(after.length);
        for (int i = 0; i < after.length; i++) {
            a.set(i, after[i]);
        }
        StructList.Builder<Range.Builder> ranges = result.initRanges(1);
        ranges.get(0).setStart(15).setEnd(29);
        out.clear();
        Framing.write(message, out);
        message.clearFirstSegment();
        return out.writerIndex();
    }
}
