package io.trigrep.bench.frontend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.proto.FileResultsWriter;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.MatchLines;
import io.trigrep.proto.ResultWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What the frontend does per result besides teeing it: find its frame's length, peek at its
 * ranking, path and package, and record them in the {@link ResultIndex} (one operation = one
 * result). The frames are a backend's encoding of real-looking results, three streams interleaved
 * a socket read at a time, each file's matches together as a backend sends them: a Result frame
 * each, or with {@code byFile} a FileResults frame for each file's matches. Run with
 * {@code -prof gc}: the index's own columns are about 24 bytes per result (the retained record);
 * anything beyond that is garbage per result.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ResultIngestBenchmark {
    static final int FRAMES = 8192;
    static final int FRAMES_PER_READ = 512;

    /** Matches per file before the path changes: 1 (every result from another file) or 20. */
    @Param({"20", "1"})
    public int matchesPerFile;

    /** Whether the backend sent each file's matches in one FileResults frame rather than a Result each. */
    @Param({"false", "true"})
    public boolean byFile;

    /** Best results the index keeps as they come (the frontend's 1,000), or 0: all passed over at the end. */
    @Param({"0", "1000"})
    public int keep;

    private int frames;

    private ByteBuffer reads;
    private final int[] starts = new int[FRAMES + 1];
    private final int[] streams = new int[FRAMES];
    private ResultIndex index;

    @Setup(Level.Trial)
    public void setUp() {
        String file = """
                    unz64_s* s;
                    if (file == NULL)
                        return UNZ_PARAMERROR;
                    s = (unz64_s*)file;
                    if (s->pfile_in_zip_read != NULL)
                """;
        ByteBuf source = Unpooled.wrappedBuffer(file.getBytes(StandardCharsets.UTF_8));
        String[] lines = file.lines().toArray(String[]::new);
        int[] lineStarts = new int[lines.length];
        int[] lineLengths = new int[lines.length];
        for (int i = 0, at = 0; i < lines.length; at += lines[i].length() + 1, i++) {
            lineStarts[i] = at;
            lineLengths[i] = lines[i].length();
        }
        ResultWriter writer = new ResultWriter(2);
        FileResultsWriter fileWriter = new FileResultsWriter(2);
        ByteBuf out = Unpooled.directBuffer(FRAMES * 400);
        int[] fileOf = new int[3];
        frames = 0;
        for (int i = 0; i < FRAMES; i++) {
            int stream = (i / FRAMES_PER_READ) % 3;
            if (i % matchesPerFile == 0) {
                fileOf[stream]++;
            }
            byte[] pkg =
                    ("package-" + stream + "-" + fileOf[stream] / 50 + "_1.2.3-4").getBytes(StandardCharsets.UTF_8);
            byte[] path = ("src/lib/subsystem/file-" + fileOf[stream] + ".c").getBytes(StandardCharsets.UTF_8);
            if (byFile) {
                if (i % matchesPerFile == 0) {
                    fileWriter.file(pkg, path, source);
                }
                fileWriter.start(3 * (i % matchesPerFile) + 3, (i * 7919 % 1000) / 1000f);
                feed(fileWriter, lineStarts, lineLengths);
                fileWriter.add(out);
                if (i % matchesPerFile == matchesPerFile - 1 || i == FRAMES - 1) {
                    starts[frames] = out.writerIndex();
                    streams[frames++] = stream;
                    fileWriter.writeTo(out);
                }
            } else {
                writer.start(pkg, path, source, 1000 + i, (i * 7919 % 1000) / 1000f);
                feed(writer, lineStarts, lineLengths);
                starts[frames] = out.writerIndex();
                streams[frames++] = stream;
                writer.writeTo(out);
            }
        }
        starts[frames] = out.writerIndex();
        reads = out.nioBuffer().order(ByteOrder.LITTLE_ENDIAN);
        index = new ResultIndex(keep);
    }

    /**
     * The five lines of the source file around its third, as a backend's worker gives them. By
     * file, the matches are numbered three lines apart, so two of each one's five lines are the
     * previous one's, and its frame holds them once, as on a result-heavy file.
     */
    private static void feed(MatchLines w, int[] starts, int[] lengths) {
        w.before(starts[0], lengths[0])
                .before(starts[1], lengths[1])
                .match(starts[2], lengths[2])
                .after(starts[3], lengths[3])
                .after(starts[4], lengths[4])
                .range(8, 14);
    }

    @Benchmark
    @OperationsPerInvocation(FRAMES)
    public int ingest() throws Exception {
        if (index.size() > 1 << 22) {
            index = new ResultIndex(keep); // bounded, like one query of four million results
        }
        ByteBuffer view = reads;
        int end = starts[frames];
        int frame = 0;
        for (int at = 0; at < end; frame++) {
            int length = (int) Framing.frameLength(view, at, end - at, FrameLimits.DEFAULT);
            view.limit(at + length).position(at);
            if (!index.add(streams[frame], view, at)) {
                throw new IllegalStateException("not a result frame at " + at);
            }
            view.limit(end);
            at += length;
        }
        index.publish();
        return index.size();
    }
}
