package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.trigrep.proto.Values.RangeValue;
import io.trigrep.proto.Values.ResultValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The allocation-free result encoder: byte-identical to the reference encoder, and readable by our bindings. */
class ResultWriterTest {

    /** Writes {@code value} with a ResultWriter whose lines live in one file-like buffer, as in a backend. */
    static ByteBuf write(ResultValue value) {
        return write(value, Integer.MAX_VALUE);
    }

    /** The same, cutting lines longer than {@code maxLineBytes}. */
    static ByteBuf write(ResultValue value, int maxLineBytes) {
        return write(value, maxLineBytes, Unpooled::wrappedBuffer);
    }

    /** The same, the file's bytes wrapped by {@code wrap}. */
    static ByteBuf write(ResultValue value, int maxLineBytes, Function<byte[], ByteBuf> wrap) {
        StringBuilder file = new StringBuilder();
        List<int[]> spans = new ArrayList<>();
        List<String> lines = new ArrayList<>(value.before());
        lines.add(value.context());
        lines.addAll(value.after());
        for (String line : lines) {
            int start = file.toString().getBytes(StandardCharsets.UTF_8).length;
            file.append(line).append('\n');
            spans.add(new int[] {start, line.getBytes(StandardCharsets.UTF_8).length});
        }
        ByteBuf source = wrap.apply(file.toString().getBytes(StandardCharsets.UTF_8));
        ResultWriter writer =
                new ResultWriter(Math.max(value.before().size(), value.after().size()), maxLineBytes);
        writer.start(
                value.pkg().getBytes(StandardCharsets.UTF_8),
                value.path().getBytes(StandardCharsets.UTF_8),
                source,
                value.line(),
                value.ranking());
        int i = 0;
        for (String ignored : value.before()) {
            writer.before(spans.get(i)[0], spans.get(i++)[1]);
        }
        writer.match(spans.get(i)[0], spans.get(i++)[1]);
        for (String ignored : value.after()) {
            writer.after(spans.get(i)[0], spans.get(i++)[1]);
        }
        for (RangeValue r : value.ranges()) {
            writer.range(r.start(), r.end());
        }
        if (value.symbol() != null) {
            Values.SymbolValue d = value.symbol();
            writer.symbol(utf8(d.name()), utf8(d.kind()), utf8(d.scope()), utf8(d.language()));
        }
        ByteBuf out = Unpooled.buffer();
        int expected = writer.frameBytes();
        writer.writeTo(out);
        assertThat(out.readableBytes()).isEqualTo(expected);
        source.release();
        return out;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Tag("external") // drives capnp
    @Test
    void bytesEqualWhatCapnpEncodes() throws Exception {
        String text =
                "(result = (package = \"zlib_1.2.13\", path = \"src/ünï.c\", line = 42, before = [\"a\", \"\", \"exactly8\"],"
                        + " context = \"int y = x;\", after = [\"1234567\"], ranges = [(start = 4, end = 5), (start = 8, end = 9)],"
                        + " ranking = 0.8125, lineBytes = 10))\n"
                        + "(result = (package = \"\", path = \"\", line = 0, before = [], context = \"\", after = [], ranges = [], ranking = 0))\n"
                        + "(result = (package = \"zlib\", path = \"inflate.c\", line = 7, before = [], context = \"int ZEXPORT inflateInit2_(z)\","
                        + " after = [], ranges = [(start = 12, end = 25)], ranking = 1.5, lineBytes = 28, symbol = (name = \"inflateInit2_\","
                        + " kind = \"function\", scope = \"\", language = \"C\")))\n";
        CapnpTool.Output reference = CapnpTool.run(
                text.getBytes(StandardCharsets.UTF_8),
                "encode",
                CapnpTool.SCHEMA.getFileName().toString(),
                "Response");
        assertThat(reference.exit()).as(reference.stderr()).isZero();

        ByteBuf ours = Unpooled.buffer();
        for (ResultValue v : List.of(
                new ResultValue(
                        "zlib_1.2.13",
                        "src/ünï.c",
                        42,
                        List.of("a", "", "exactly8"),
                        "int y = x;",
                        List.of("1234567"),
                        List.of(new RangeValue(4, 5), new RangeValue(8, 9)),
                        0.8125f),
                new ResultValue("", "", 0, List.of(), "", List.of(), List.of(), 0f),
                new ResultValue(
                                "zlib",
                                "inflate.c",
                                7,
                                List.of(),
                                "int ZEXPORT inflateInit2_(z)",
                                List.of(),
                                List.of(new RangeValue(12, 25)),
                                1.5f)
                        .withSymbol(new Values.SymbolValue("inflateInit2_", "function", "", "C")))) {
            ByteBuf one = write(v);
            ours.writeBytes(one);
            one.release();
        }
        byte[] actual = ByteBufUtil.getBytes(ours);
        ours.release();
        assertThat(ByteBufUtil.hexDump(actual)).isEqualTo(ByteBufUtil.hexDump(reference.stdout()));
    }

    @Property(tries = 200)
    void aSymbolReadsBackAsWritten(@ForAll("results") ResultValue value, @ForAll("symbols") Values.SymbolValue symbol)
            throws Exception {
        readsBackAsWritten(value.withSymbol(symbol));
    }

    @Provide
    Arbitrary<Values.SymbolValue> symbols() {
        Arbitrary<String> text = Arbitraries.strings()
                .ofMaxLength(40)
                .filter(s -> s.indexOf('\0') < 0
                        && new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(s));
        return Combinators.combine(text, text, text, text).as(Values.SymbolValue::new);
    }

    @Property(tries = 300)
    void readsBackAsWritten(@ForAll("results") ResultValue value) throws Exception {
        ByteBuf frame = write(value);
        try {
            Object back = Values.read(Messages.response(Framing.read(frame, FrameLimits.DEFAULT)));
            assertThat(back).isEqualTo(value.withLineBytes(value.context().getBytes(StandardCharsets.UTF_8).length));
        } finally {
            frame.release();
        }
    }

    /**
     * The lines are copied alike from a file at the start of its array, from one in the middle of a
     * larger array (a backend's scratch array, wrapped as a slice) and from direct memory; a span
     * outside the source is refused, not read from the array's bytes beyond it.
     */
    @Property(tries = 100)
    void everyKindOfSourceWritesTheSameBytes(@ForAll("results") ResultValue value) {
        Function<byte[], ByteBuf> slice = bytes -> {
            byte[] larger = new byte[bytes.length + 64];
            java.util.Arrays.fill(larger, (byte) 'x');
            System.arraycopy(bytes, 0, larger, 16, bytes.length);
            return Unpooled.wrappedBuffer(larger, 16, bytes.length);
        };
        Function<byte[], ByteBuf> direct =
                bytes -> Unpooled.directBuffer(bytes.length).writeBytes(bytes);
        ByteBuf plain = write(value, Integer.MAX_VALUE);
        ByteBuf sliced = write(value, Integer.MAX_VALUE, slice);
        ByteBuf off = write(value, Integer.MAX_VALUE, direct);
        try {
            assertThat(ByteBufUtil.getBytes(sliced)).isEqualTo(ByteBufUtil.getBytes(plain));
            assertThat(ByteBufUtil.getBytes(off)).isEqualTo(ByteBufUtil.getBytes(plain));
        } finally {
            plain.release();
            sliced.release();
            off.release();
        }
    }

    @Test
    void refusesALineOutsideItsSource() {
        ByteBuf source = Unpooled.wrappedBuffer("0123456789abcdef".getBytes(StandardCharsets.US_ASCII), 4, 8);
        ResultWriter writer = new ResultWriter(0)
                .start(new byte[0], new byte[0], source, 1, 0f)
                .match(6, 4);
        ByteBuf out = Unpooled.buffer();
        assertThatThrownBy(() -> writer.writeTo(out)).isInstanceOf(IndexOutOfBoundsException.class);
        out.release();
    }

    @Test
    void refusesMoreContextThanConfigured() {
        ResultWriter writer = new ResultWriter(1)
                .start(new byte[0], new byte[0], Unpooled.EMPTY_BUFFER, 1, 0f)
                .before(0, 0);
        assertThatThrownBy(() -> writer.before(0, 0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("more than 1 lines before the match");
        assertThatThrownBy(() -> writer.writeTo(Unpooled.buffer()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("match(offset, length) was not called");
    }

    @Tag("external") // drives capnp
    @Test
    void cutLinesEqualWhatCapnpEncodes() throws Exception {
        // maxLineBytes 16, so a lead-in of 4 bytes before the first match.
        String context = "a".repeat(40) + "MATCH" + "b".repeat(20);
        String[] before = {"x", "0123456789abcdefghij", "a" + "é".repeat(8)};
        String file = String.join("\n", before) + "\n" + context + "\nshort\n";
        ByteBuf source = Unpooled.wrappedBuffer(file.getBytes(StandardCharsets.UTF_8));
        int[] starts = {0, 2, 23, 41, 107};
        ResultWriter writer = new ResultWriter(3, 16)
                .start(new byte[] {'p'}, new byte[] {'f'}, source, 3, 1f)
                .before(starts[0], 1)
                .before(starts[1], 20)
                .before(starts[2], 17)
                .match(starts[3], 65)
                .after(starts[4], 5);
        assertThat(writer.range(40, 45).range(50, 55).pastWindow()).isFalse();
        assertThat(writer.range(60, 62).pastWindow())
                .as("starts past the window")
                .isTrue();
        ByteBuf ours = Unpooled.buffer();
        writer.writeTo(ours);
        source.release();
        String text = "(result = (package = \"p\", path = \"f\", line = 3, before = [\"x\", \"0123456789abcdef\", \"a"
                + "é".repeat(7)
                + "\"], context = \"aaaaMATCHbbbbbbb\", after = [\"short\"], ranges = [(start = 4, end = 9), (start = 14, end = 16)],"
                + " ranking = 1, contextStart = 36, lineBytes = 65, beforeBytes = [1, 20, 17]))\n";
        CapnpTool.Output reference = CapnpTool.run(
                text.getBytes(StandardCharsets.UTF_8),
                "encode",
                CapnpTool.SCHEMA.getFileName().toString(),
                "Response");
        assertThat(reference.exit()).as(reference.stderr()).isZero();
        byte[] actual = ByteBufUtil.getBytes(ours);
        ours.release();
        assertThat(ByteBufUtil.hexDump(actual)).isEqualTo(ByteBufUtil.hexDump(reference.stdout()));
    }

    @Test
    void aLineOfMegabytesWithAMillionMatchesWritesAWindow() throws Exception {
        byte[] line = "ab".repeat(2_500_000).getBytes(StandardCharsets.UTF_8);
        ByteBuf source = Unpooled.wrappedBuffer(line);
        ResultWriter writer = new ResultWriter(0)
                .start(new byte[] {'p'}, new byte[] {'f'}, source, 1, 1f)
                .match(0, line.length);
        int calls = 0;
        for (int at = 3_000_000; at < line.length; at += 2) {
            calls++;
            if (writer.range(at, at + 1).pastWindow()) {
                break;
            }
        }
        assertThat(calls).isLessThanOrEqualTo(ResultWriter.MAX_LINE_BYTES / 2 + 1);
        ByteBuf out = Unpooled.buffer();
        writer.writeTo(out);
        source.release();
        assertThat(out.readableBytes()).isLessThan(8192);
        Result.Reader r =
                Messages.response(Framing.read(out, FrameLimits.DEFAULT)).getResult();
        assertThat(r.getContextStart()).isEqualTo(3_000_000 - ResultWriter.MAX_LINE_BYTES / 4);
        assertThat(r.getLineBytes()).isEqualTo(line.length);
        assertThat(r.getContext().size()).isEqualTo(ResultWriter.MAX_LINE_BYTES);
        assertThat(r.getRanges().size()).isEqualTo((ResultWriter.MAX_LINE_BYTES - ResultWriter.MAX_LINE_BYTES / 4) / 2);
        assertThat(r.getRanges().get(0).getStart()).isEqualTo(ResultWriter.MAX_LINE_BYTES / 4);
        out.release();
    }

    /** A line built of pieces: valid sequences of 1 to 4 bytes and stray bytes; where each valid one starts and ends. */
    record Line(byte[] bytes, boolean[] inside) {
        /** True when cutting before byte {@code at} would split a valid sequence. */
        boolean splits(int at) {
            return at > 0 && at < bytes.length && inside[at];
        }
    }

    @Provide
    Arbitrary<Line> longLines() {
        Arbitrary<String> piece = Arbitraries.oneOf(
                Arbitraries.just("a"),
                Arbitraries.just("é"),
                Arbitraries.just("€"),
                Arbitraries.just("🙂"),
                Arbitraries.just("\u0080"),
                Arbitraries.just("\uFFFF-E9"),
                Arbitraries.just("\uFFFF-80"));
        return piece.list().ofMinSize(0).ofMaxSize(700).map(pieces -> {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            List<Boolean> inside = new ArrayList<>();
            for (String p : pieces) {
                byte[] b = p.startsWith("\uFFFF-")
                        ? new byte[] {(byte) Integer.parseInt(p.substring(2), 16)}
                        : p.getBytes(StandardCharsets.UTF_8);
                for (int i = 0; i < b.length; i++) {
                    inside.add(i > 0);
                }
                bytes.writeBytes(b);
            }
            boolean[] in = new boolean[inside.size()];
            for (int i = 0; i < in.length; i++) {
                in[i] = inside.get(i);
            }
            return new Line(bytes.toByteArray(), in);
        });
    }

    @Property(tries = 500)
    void cutsFallOnBoundariesAndRangesFollowTheWindow(
            @ForAll("longLines") Line before,
            @ForAll("longLines") Line match,
            @ForAll("longLines") Line after,
            @ForAll @net.jqwik.api.constraints.IntRange(min = 16, max = 600) int max,
            @ForAll("starts") List<Integer> rangeStarts)
            throws Exception {
        java.io.ByteArrayOutputStream file = new java.io.ByteArrayOutputStream();
        file.writeBytes(before.bytes());
        file.write('\n');
        file.writeBytes(match.bytes());
        file.write('\n');
        file.writeBytes(after.bytes());
        ByteBuf source = Unpooled.wrappedBuffer(file.toByteArray());
        int matchAt = before.bytes().length + 1;
        int full = match.bytes().length;
        ResultWriter writer = new ResultWriter(1, max)
                .start(new byte[0], new byte[0], source, 2, 0f)
                .before(0, before.bytes().length)
                .match(matchAt, full)
                .after(matchAt + full + 1, after.bytes().length);
        // Ranges in order, not overlapping, inside the line: as the matcher finds them.
        List<int[]> ranges = new ArrayList<>();
        int last = 0;
        for (int start : rangeStarts.stream().sorted().toList()) {
            if (start >= last && start < full) {
                int end = Math.min(full, start + 1 + start % 7);
                ranges.add(new int[] {start, end});
                last = end;
            }
        }
        boolean stopped = false;
        int offered = 0;
        for (int[] range : ranges) {
            offered++;
            if (writer.range(range[0], range[1]).pastWindow()) {
                stopped = true;
                break;
            }
        }
        ByteBuf out = Unpooled.buffer();
        int expectedBytes = writer.frameBytes();
        writer.writeTo(out);
        source.release();
        assertThat(out.readableBytes()).isEqualTo(expectedBytes);
        try {
            Result.Reader r =
                    Messages.response(Framing.read(out, FrameLimits.DEFAULT)).getResult();
            int cs = r.getContextStart();
            int shown = r.getContext().size();
            assertThat(r.getLineBytes()).isEqualTo(full);
            assertThat(shown).isLessThanOrEqualTo(max);
            if (full <= max) {
                assertThat(cs).isZero();
                assertThat(shown).isEqualTo(full);
            } else {
                assertThat(shown).isGreaterThanOrEqualTo(max - 3);
            }
            assertThat(match.splits(cs))
                    .as("window starts inside a sequence at %d", cs)
                    .isFalse();
            assertThat(match.splits(cs + shown))
                    .as("window ends inside a sequence at %d", cs + shown)
                    .isFalse();
            byte[] context = new byte[shown];
            r.getContext().asByteBuffer().get(context);
            assertThat(context).isEqualTo(java.util.Arrays.copyOfRange(match.bytes(), cs, cs + shown));
            if (!ranges.isEmpty() && full > max) {
                int first = ranges.get(0)[0];
                assertThat(first).isBetween(cs, cs + shown - 1);
            }
            // The ranges: each one clipped to the window, shifted; none outside; none lost.
            List<RangeValue> expected = new ArrayList<>();
            for (int[] range : ranges) {
                int s = Math.max(range[0], cs);
                int e = Math.min(range[1], cs + shown);
                if (s < e) {
                    expected.add(new RangeValue(s - cs, e - cs));
                }
            }
            List<RangeValue> actual = new ArrayList<>();
            for (Range.Reader range : r.getRanges()) {
                actual.add(new RangeValue(range.getStart(), range.getEnd()));
            }
            assertThat(actual).isEqualTo(expected);
            if (stopped) {
                assertThat(ranges.get(offered - 1)[0]).isGreaterThanOrEqualTo(cs + shown);
            }
            checkPrefix(before, r.getBefore().get(0), r.getBeforeBytes(), max);
            checkPrefix(after, r.getAfter().get(0), r.getAfterBytes(), max);
        } finally {
            out.release();
        }
    }

    private static void checkPrefix(
            Line line, org.capnproto.Text.Reader shown, org.capnproto.PrimitiveList.Int.Reader full, int max) {
        int length = line.bytes().length;
        if (length <= max) {
            assertThat(shown.size()).isEqualTo(length);
            assertThat(full.size()).isZero();
        } else {
            assertThat(shown.size()).isBetween(max - 3, max);
            assertThat(line.splits(shown.size())).isFalse();
            assertThat(full.size()).isEqualTo(1);
            assertThat(full.get(0)).isEqualTo(length);
        }
        byte[] bytes = new byte[shown.size()];
        shown.asByteBuffer().get(bytes);
        assertThat(bytes).isEqualTo(java.util.Arrays.copyOf(line.bytes(), shown.size()));
    }

    @Provide
    Arbitrary<List<Integer>> starts() {
        return Arbitraries.integers().between(0, 2800).list().ofMaxSize(60);
    }

    @Provide
    Arbitrary<ResultValue> results() {
        Arbitrary<String> line = Arbitraries.strings()
                .ofMaxLength(120)
                .filter(s -> s.indexOf('\0') < 0
                        && s.indexOf('\n') < 0
                        && new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(s));
        Arbitrary<List<String>> context = line.list().ofMaxSize(5);
        Arbitrary<RangeValue> range = Combinators.combine(Arbitraries.integers(), Arbitraries.integers())
                .as(RangeValue::new);
        // Ranges are never empty when written by ResultWriter with matches; allow zero and many.
        return Combinators.combine(
                        line,
                        line,
                        Arbitraries.integers(),
                        context,
                        line,
                        context,
                        range.list().ofMaxSize(40),
                        Arbitraries.floats().filter(f -> !f.isNaN()))
                .as(ResultValue::new);
    }
}
