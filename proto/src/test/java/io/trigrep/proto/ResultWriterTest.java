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
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/** The allocation-free result encoder: byte-identical to the reference encoder, and readable by our bindings. */
class ResultWriterTest {

    /** Writes {@code value} with a ResultWriter whose lines live in one file-like buffer, as in a backend. */
    static ByteBuf write(ResultValue value) {
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
        ByteBuf source = Unpooled.wrappedBuffer(file.toString().getBytes(StandardCharsets.UTF_8));
        ResultWriter writer = new ResultWriter(Math.max(value.before().size(), value.after().size()));
        writer.start(value.pkg().getBytes(StandardCharsets.UTF_8), value.path().getBytes(StandardCharsets.UTF_8), source,
                value.line(), value.ranking());
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
        ByteBuf out = Unpooled.buffer();
        int expected = writer.frameBytes();
        writer.writeTo(out);
        assertThat(out.readableBytes()).isEqualTo(expected);
        source.release();
        return out;
    }

    @Test
    void bytesEqualWhatCapnpEncodes() throws Exception {
        String text = "(result = (package = \"zlib_1.2.13\", path = \"src/ünï.c\", line = 42, before = [\"a\", \"\", \"exactly8\"],"
                + " context = \"int y = x;\", after = [\"1234567\"], ranges = [(start = 4, end = 5), (start = 8, end = 9)],"
                + " ranking = 0.8125))\n"
                + "(result = (package = \"\", path = \"\", line = 0, before = [], context = \"\", after = [], ranges = [], ranking = 0))\n";
        CapnpTool.Output reference = CapnpTool.run(text.getBytes(StandardCharsets.UTF_8), "encode",
                CapnpTool.SCHEMA.getFileName().toString(), "Response");
        assertThat(reference.exit()).as(reference.stderr()).isZero();

        ByteBuf ours = Unpooled.buffer();
        for (ResultValue v : List.of(
                new ResultValue("zlib_1.2.13", "src/ünï.c", 42, List.of("a", "", "exactly8"), "int y = x;", List.of("1234567"),
                        List.of(new RangeValue(4, 5), new RangeValue(8, 9)), 0.8125f),
                new ResultValue("", "", 0, List.of(), "", List.of(), List.of(), 0f))) {
            ByteBuf one = write(v);
            ours.writeBytes(one);
            one.release();
        }
        byte[] actual = ByteBufUtil.getBytes(ours);
        ours.release();
        assertThat(ByteBufUtil.hexDump(actual)).isEqualTo(ByteBufUtil.hexDump(reference.stdout()));
    }

    @Property(tries = 300)
    void readsBackAsWritten(@ForAll("results") ResultValue value) throws Exception {
        ByteBuf frame = write(value);
        try {
            Object back = Values.read(Messages.response(Framing.read(frame, FrameLimits.DEFAULT)));
            assertThat(back).isEqualTo(value);
        } finally {
            frame.release();
        }
    }

    @Test
    void refusesMoreContextThanConfigured() {
        ResultWriter writer = new ResultWriter(1).start(new byte[0], new byte[0], Unpooled.EMPTY_BUFFER, 1, 0f).before(0, 0);
        assertThatThrownBy(() -> writer.before(0, 0)).isInstanceOf(IllegalStateException.class)
                .hasMessage("more than 1 lines before the match");
        assertThatThrownBy(() -> writer.writeTo(Unpooled.buffer())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("match(offset, length) was not called");
    }

    @Provide
    Arbitrary<ResultValue> results() {
        Arbitrary<String> line = Arbitraries.strings().ofMaxLength(120)
                .filter(s -> s.indexOf('\0') < 0 && s.indexOf('\n') < 0
                        && new String(s.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8).equals(s));
        Arbitrary<List<String>> context = line.list().ofMaxSize(5);
        Arbitrary<RangeValue> range = Combinators.combine(Arbitraries.integers(), Arbitraries.integers()).as(RangeValue::new);
        // Ranges are never empty when written by ResultWriter with matches; allow zero and many.
        return Combinators.combine(line, line, Arbitraries.integers(), context, line, context, range.list().ofMaxSize(40),
                Arbitraries.floats().filter(f -> !f.isNaN())).as(ResultValue::new);
    }
}
