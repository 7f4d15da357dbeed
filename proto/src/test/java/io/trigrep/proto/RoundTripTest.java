package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.trigrep.proto.Values.DoneValue;
import io.trigrep.proto.Values.FailureValue;
import io.trigrep.proto.Values.FetchValue;
import io.trigrep.proto.Values.FileValue;
import io.trigrep.proto.Values.FilterValue;
import io.trigrep.proto.Values.HeartbeatValue;
import io.trigrep.proto.Values.PingValue;
import io.trigrep.proto.Values.ProgressValue;
import io.trigrep.proto.Values.RangeValue;
import io.trigrep.proto.Values.ResultValue;
import io.trigrep.proto.Values.SearchValue;
import io.trigrep.proto.Values.StatusValue;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every message kind written, framed, transported and read back equal, over Netty buffers and files. */
class RoundTripTest {
    static final String LONG_LINE = "x".repeat(1 << 20);

    static Stream<Object> messages() {
        List<String> manyLines = Collections.nCopies(10_000, "  context line ünïcødé ✓");
        return Stream.of(
                new ResultValue(
                        "zlib_1.2.13.dfsg-1",
                        "contrib/minizip/unzip.c",
                        42,
                        List.of("/* before */", ""),
                        "    if (err != UNZ_OK) return err;",
                        List.of("}", ""),
                        List.of(new RangeValue(8, 11)),
                        0.8125f),
                new ResultValue("", "", 0, List.of(), "", List.of(), List.of(), 0f),
                new ResultValue(
                        "пакет_1.0",
                        "源代码/文件 名.c",
                        Integer.MAX_VALUE,
                        List.of("🙂"),
                        "naïve → ok",
                        List.of("∀x"),
                        List.of(new RangeValue(0, 6), new RangeValue(9, 11)),
                        -1.5f),
                new ResultValue(
                        "big",
                        "huge/line.txt",
                        1,
                        manyLines,
                        LONG_LINE,
                        manyLines,
                        List.of(new RangeValue(0, 1 << 20)),
                        Float.MAX_VALUE),
                new ResultValue(
                        "unsigned",
                        "max",
                        -1,
                        List.of(),
                        "x",
                        List.of(),
                        List.of(new RangeValue(-1, -1)),
                        Float.MIN_VALUE),
                new ProgressValue(123, 45, 6789, 10),
                new ProgressValue(0, 0, 0, 0),
                new ProgressValue(-1, Long.MAX_VALUE, Long.MIN_VALUE, 1),
                new DoneValue(1_000_000, 2, 3, 4, 5_000_000_000L, Done.Truncation.MAX_RESULTS, true),
                new DoneValue(0, 0, 0, 0, 0, Done.Truncation.NONE, false),
                new DoneValue(-1, -1, -1, -1, -1, Done.Truncation.DEADLINE, false),
                new FailureValue(Failure.Code.BAD_QUERY, "missing closing ): `foo(bar`", 4),
                new FailureValue(Failure.Code.OVERLOADED, "overloaded: 64 queries in flight", 0),
                new FailureValue(Failure.Code.INTERNAL, "", 0),
                new FileValue("zlib", "README", "hello\nwörld\n".getBytes(StandardCharsets.UTF_8)),
                new FileValue("empty", "empty.txt", new byte[0]),
                new FileValue("binary-safe", "nul", new byte[] {0, 1, 2, (byte) 0xff, 0}),
                new StatusValue("shard-0", 1234, 5_678_901_234L, 3, 1, List.of(), 1796068555139L),
                new StatusValue("", 0, 0, 0, 0),
                new Values.FileMatchValue("zlib", "Makefile.am", 1.5f, 4096, "makefile"),
                new ResultValue(
                                "zlib",
                                "inflate.c",
                                7,
                                List.of(),
                                "int ZEXPORT inflateInit2_(z)",
                                List.of(),
                                List.of(),
                                1.5f)
                        .withSymbol(new Values.SymbolValue("inflateInit2_", "function", "", "C")),
                new ResultValue(
                                "redis",
                                "src/sds.h",
                                40,
                                List.of("a"),
                                "    uint8_t len;",
                                List.of("b"),
                                List.of(),
                                0.5f)
                        .withSymbol(new Values.SymbolValue("len", "member", "sdshdr8", "C")),
                new Values.FileMatchValue("", "", 0f, -1, ""),
                new SearchValue(
                        "foo package:zlib -path:test",
                        "foo",
                        false,
                        true,
                        List.of(
                                new FilterValue(Filter.Kind.PACKAGE, false, "zlib"),
                                new FilterValue(Filter.Kind.PATH, true, "test"),
                                new FilterValue(Filter.Kind.FILETYPE, false, "c")),
                        1000,
                        5000,
                        2),
                new SearchValue("", "", true, false, List.of(), 0, 0, 0),
                new SearchValue("ünï(", "ünï\\(", true, false, List.of(), -1, -1, 255),
                new FetchValue("zlib_1.2.13.dfsg-1", "src/ünï.c"),
                new FetchValue("", ""),
                new PingValue(),
                new HeartbeatValue(Long.MIN_VALUE, Long.MAX_VALUE));
    }

    static boolean isRequest(Object value) {
        return value instanceof SearchValue
                || value instanceof FetchValue
                || value instanceof PingValue
                || value instanceof HeartbeatValue;
    }

    static Object readBack(ByteBuffer frame) throws MalformedMessageException {
        return readBack(frame, isRequest(null));
    }

    static Object readBack(ByteBuffer frame, boolean request) throws MalformedMessageException {
        var message = Framing.read(frame, FrameLimits.DEFAULT);
        return request ? Values.read(Messages.request(message)) : Values.read(Messages.response(message));
    }

    @ParameterizedTest
    @MethodSource("messages")
    void throughNettyBuffer(Object value) throws Exception {
        MessageBuilder message = Values.write(value);
        ByteBuf buf = Unpooled.buffer();
        try {
            Framing.write(message, buf);
            assertThat(buf.readableBytes()).isEqualTo(Framing.frameBytes(message));
            assertThat(readBack(buf.nioBuffer(), isRequest(value))).isEqualTo(value);
        } finally {
            buf.release();
        }
    }

    @ParameterizedTest
    @MethodSource("messages")
    void throughFileChannelAtOffset(Object value, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("tee");
        MessageBuilder message = Values.write(value);
        long offset;
        long length;
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            Framing.write(Values.write(new ProgressValue(1, 2, 3, 4)), out);
            offset = out.position();
            length = Framing.write(message, out);
            Framing.write(Values.write(new ProgressValue(5, 6, 7, 8)), out);
        }
        try (FileChannel in = FileChannel.open(file, StandardOpenOption.READ)) {
            var reader = Framing.read(in, offset, (int) length, FrameLimits.DEFAULT);
            Object back =
                    isRequest(value) ? Values.read(Messages.request(reader)) : Values.read(Messages.response(reader));
            assertThat(back).isEqualTo(value);
            in.position(0);
            List<Object> all = new ArrayList<>();
            for (ByteBuffer frame; (frame = Framing.readFrame(in, FrameLimits.DEFAULT)) != null; ) {
                all.add(all.size() == 1 ? readBack(frame, isRequest(value)) : readBack(frame, false));
            }
            assertThat(all).containsExactly(new ProgressValue(1, 2, 3, 4), value, new ProgressValue(5, 6, 7, 8));
        }
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "batching={0}")
    @org.junit.jupiter.params.provider.ValueSource(booleans = {false, true})
    void decoderEmitsEveryFrameWhateverTheChunking(boolean batching) throws Exception {
        List<Object> values = messages().filter(v -> !isRequest(v)).toList();
        ByteBuf stream = Unpooled.buffer();
        for (Object v : values) {
            Framing.write(Values.write(v), stream);
        }
        Random random = new Random(7);
        EmbeddedChannel channel = new EmbeddedChannel(
                batching ? new FrameRunDecoder(FrameLimits.DEFAULT) : new FrameDecoder(FrameLimits.DEFAULT));
        int chunks = 0;
        while (stream.isReadable()) {
            int chunk = Math.min(stream.readableBytes(), 1 + random.nextInt(random.nextBoolean() ? 16 : 200_000));
            channel.writeInbound(stream.readRetainedSlice(chunk));
            chunks++;
        }
        stream.release();
        assertThat(channel.finish()).isTrue();
        List<Object> back = new ArrayList<>();
        int emitted = 0;
        for (ByteBuf run; (run = channel.readInbound()) != null; emitted++) {
            try {
                // A batch is whole frames back to back; without batching, exactly one.
                int at = run.readerIndex();
                int frames = 0;
                while (at < run.writerIndex()) {
                    int length = (int) Framing.frameLength(run, at, run.writerIndex() - at, FrameLimits.DEFAULT);
                    assertThat(length).isPositive().isLessThanOrEqualTo(run.writerIndex() - at);
                    back.add(Values.read(
                            Messages.response(Framing.read(run.nioBuffer(at, length), FrameLimits.DEFAULT))));
                    at += length;
                    frames++;
                }
                assertThat(frames).isPositive();
                if (!batching) {
                    assertThat(frames).isEqualTo(1);
                }
            } finally {
                run.release();
            }
        }
        assertThat(back).containsExactlyElementsOf(values);
        if (batching) {
            // at most two runs per chunk written (a completed carry, then the chunk's own frames)
            assertThat(emitted).isLessThanOrEqualTo(2 * chunks).isLessThan(values.size());
        } else {
            assertThat(emitted).isEqualTo(values.size());
        }
    }

    @Test
    void runDecoderEmitsTheGoodFramesBeforeAMalformedOne() throws Exception {
        ByteBuf stream = Unpooled.buffer();
        ProgressValue good = new ProgressValue(1, 2, 3, 4);
        Framing.write(Values.write(good), stream);
        Framing.write(Values.write(good), stream);
        stream.writeIntLE(Integer.MAX_VALUE).writeIntLE(1);
        EmbeddedChannel channel = new EmbeddedChannel(new FrameRunDecoder(FrameLimits.DEFAULT));
        channel.writeInbound(stream);
        channel.finish();
        ByteBuf run = channel.readInbound();
        try {
            int first = (int) Framing.frameLength(run, run.readerIndex(), run.readableBytes(), FrameLimits.DEFAULT);
            assertThat(run.readableBytes()).isEqualTo(2 * first);
        } finally {
            run.release();
        }
        Object bad = channel.readInbound();
        assertThat(bad).isInstanceOf(MalformedFrame.class);
        assertThat(((MalformedFrame) bad).reason()).contains("2147483648 segments");
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void runDecoderReportsAStreamThatEndsInsideAFrame() throws Exception {
        ByteBuf frame = Unpooled.buffer();
        Framing.write(Values.write(new ProgressValue(1, 2, 3, 4)), frame);
        EmbeddedChannel channel = new EmbeddedChannel(new FrameRunDecoder(FrameLimits.DEFAULT));
        channel.writeInbound(frame.retainedSlice(0, frame.readableBytes() - 3));
        frame.release();
        channel.finish();
        Object bad = channel.readInbound();
        assertThat(bad).isInstanceOf(MalformedFrame.class);
        assertThat(((MalformedFrame) bad).reason()).contains("stream ended inside a frame");
        assertThat((Object) channel.readInbound()).isNull();
    }

    @Test
    void messagesSpanningManySegmentsUseFarPointers() throws Exception {
        ResultValue value = new ResultValue(
                "multi",
                "segment.c",
                7,
                Collections.nCopies(50, "before line"),
                "the matching line",
                Collections.nCopies(50, "after line"),
                List.of(new RangeValue(4, 12)),
                3.5f);
        MessageBuilder message = Values.write(value, new MessageBuilder(2));
        assertThat(message.getSegmentsForOutput().length).isGreaterThan(1);
        ByteBuf buf = Unpooled.buffer();
        try {
            Framing.write(message, buf);
            assertThat(readBack(buf.nioBuffer(), false)).isEqualTo(value);
        } finally {
            buf.release();
        }
    }

    @Property(tries = 300)
    void anyResultSurvivesTheRoundTrip(@ForAll("results") ResultValue value) throws Exception {
        ByteBuf buf = Unpooled.buffer();
        try {
            Framing.write(Values.write(value), buf);
            assertThat(readBack(buf.nioBuffer(), false)).isEqualTo(value);
        } finally {
            buf.release();
        }
    }

    @Provide
    Arbitrary<ResultValue> results() {
        Arbitrary<String> text =
                Arbitraries.strings().ofMaxLength(300).filter(s -> s.indexOf('\0') < 0 && isWellFormed(s));
        Arbitrary<List<String>> lines = text.list().ofMaxSize(12);
        Arbitrary<RangeValue> range = Combinators.combine(Arbitraries.integers(), Arbitraries.integers())
                .as(RangeValue::new);
        return Combinators.combine(
                        text,
                        text,
                        Arbitraries.integers(),
                        lines,
                        text,
                        lines,
                        range.list().ofMaxSize(8),
                        Arbitraries.floats().filter(f -> !f.isNaN()))
                .as(ResultValue::new);
    }

    /** Text round-trips through UTF-8 only when it has no unpaired surrogate. */
    private static boolean isWellFormed(String s) {
        return new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(s);
    }
}
