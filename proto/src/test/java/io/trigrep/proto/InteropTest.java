package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.trigrep.proto.Values.CutValue;
import io.trigrep.proto.Values.DoneValue;
import io.trigrep.proto.Values.FailureValue;
import io.trigrep.proto.Values.FetchValue;
import io.trigrep.proto.Values.FileMatchValue;
import io.trigrep.proto.Values.FileValue;
import io.trigrep.proto.Values.FilterValue;
import io.trigrep.proto.Values.HeartbeatValue;
import io.trigrep.proto.Values.PingValue;
import io.trigrep.proto.Values.ProgressValue;
import io.trigrep.proto.Values.RangeValue;
import io.trigrep.proto.Values.ResultValue;
import io.trigrep.proto.Values.SearchValue;
import io.trigrep.proto.Values.SkippedValue;
import io.trigrep.proto.Values.StatusValue;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Both directions against the reference implementation: what trigrep writes, {@code capnp decode}
 * reads with the expected values; what {@code capnp encode} writes from text, trigrep reads with
 * the expected values. Expected texts are written out by hand, not derived from our own code.
 */
@Tag("external") // drives capnp
class InteropTest {

    @Test
    void capnpDecodesWhatTrigrepWrites() throws Exception {
        List<Object> responses = List.of(
                new ResultValue(
                        "zlib_1.2.13.dfsg-1",
                        "src/ünï.c",
                        42,
                        List.of("/* a */", ""),
                        "  if (x < 0) return \"é\";",
                        List.of("}"),
                        List.of(new RangeValue(6, 7), new RangeValue(20, 22)),
                        0.8125f),
                new ProgressValue(10, 20, 30, 40),
                new DoneValue(5, 6, 7, 8, 9_000_000_000L, Done.Truncation.MAX_RESULTS, true, 17),
                new FailureValue(Failure.Code.BAD_QUERY, "missing closing )", 5),
                new FileValue("p", "dir/f.bin", new byte[] {'a', 0, (byte) 0xff}),
                new StatusValue("shard-2", 100, 4096, 1, 1, List.of(), 1796068555139L, 3, 4_000_000_000L),
                new FileValue(
                        "p",
                        "big.js",
                        "ab\n".getBytes(StandardCharsets.UTF_8),
                        7,
                        9,
                        123_456_789_012L,
                        List.of(new CutValue(8, 70000))),
                new StatusValue(
                        "shard-3",
                        5,
                        6,
                        0,
                        1,
                        List.of(new SkippedValue("binary", 2, 300), new SkippedValue("too_large", 1, 70_000_000))),
                new FileMatchValue("zlib", "contrib/minizip/Makefile.am", 0.75f, 6_000_000_000L, "makefile"));
        assertThat(decode("Response", responses))
                .containsExactly(
                        "(result = (package = \"zlib_1.2.13.dfsg-1\", path = \"src/ünï.c\", line = 42, before = [\"/* a */\", \"\"], "
                                + "context = \"  if (x < 0) return \\\"é\\\";\", after = [\"}\"], "
                                + "ranges = [(start = 6, end = 7), (start = 20, end = 22)], ranking = 0.8125, contextStart = 0, lineBytes = 0))",
                        "(progress = (filesSearched = 10, candidateFiles = 20, totalFiles = 30, results = 40))",
                        "(done = (results = 5, filesSearched = 6, candidateFiles = 7, totalFiles = 8, elapsedNanos = 9000000000, "
                                + "truncation = maxResults, fullScan = true, generation = 17))",
                        "(error = (code = badQuery, message = \"missing closing )\", position = 5))",
                        "(file = (package = \"p\", path = \"dir/f.bin\", content = \"a\\000\\377\", firstLine = 0, totalLines = 0, totalBytes = 0))",
                        "(status = (shard = \"shard-2\", files = 100, bytes = 4096, queriesInFlight = 1, formatVersion = 1, generation = 1796068555139, segments = 3, deletedFiles = 4000000000))",
                        "(file = (package = \"p\", path = \"big.js\", content = \"ab\\n\", firstLine = 7, totalLines = 9, totalBytes = 123456789012, "
                                + "cuts = [(line = 8, bytes = 70000)]))",
                        "(status = (shard = \"shard-3\", files = 5, bytes = 6, queriesInFlight = 0, formatVersion = 1, "
                                + "skipped = [(reason = \"binary\", files = 2, bytes = 300), (reason = \"too_large\", files = 1, bytes = 70000000)], generation = 0, segments = 0, deletedFiles = 0))",
                        "(fileMatch = (package = \"zlib\", path = \"contrib/minizip/Makefile.am\", ranking = 0.75, bytes = 6000000000, "
                                + "language = \"makefile\"))");

        List<Object> requests = List.of(
                new SearchValue(
                        "foo(bar package:zlib",
                        "foo\\(bar",
                        true,
                        true,
                        List.of(
                                new FilterValue(Filter.Kind.PACKAGE, false, "zlib"),
                                new FilterValue(Filter.Kind.FILETYPE, true, "c++")),
                        1000,
                        2500,
                        3),
                new FetchValue("zlib", "README"),
                new FetchValue("zlib", "big.js", 100, 1000, 10000, 1L << 33, 65536),
                new PingValue(),
                new HeartbeatValue(-2L, 1L << 40));
        assertThat(decode("Request", requests))
                .containsExactly(
                        "(search = (query = \"foo(bar package:zlib\", pattern = \"foo\\\\(bar\", literal = true, caseInsensitive = true, "
                                + "filters = [(kind = package, negated = false, value = \"zlib\"), (kind = filetype, negated = true, value = \"c++\")], "
                                + "maxResults = 1000, deadlineMillis = 2500, contextLines = 3, fileResults = false))",
                        "(fetchFile = (package = \"zlib\", path = \"README\", firstLine = 0, maxLines = 0, maxLineBytes = 0, byteOffset = 0, byteCount = 0))",
                        "(fetchFile = (package = \"zlib\", path = \"big.js\", firstLine = 100, maxLines = 1000, maxLineBytes = 10000, "
                                + "byteOffset = 8589934592, byteCount = 65536))",
                        "(ping = void)",
                        "(heartbeat = (frontend = 18446744073709551614, known = 1099511627776))");
    }

    @Test
    void capnpDecodesMultiSegmentMessages() throws Exception {
        ResultValue value = new ResultValue(
                "m", "s", 1, List.of("b1", "b2", "b3"), "ctx", List.of("a1"), List.of(new RangeValue(0, 3)), 2f);
        ByteBuf stream = Unpooled.buffer();
        MessageBuilder message = Values.write(value, new MessageBuilder(2));
        assertThat(message.getSegmentsForOutput().length).isGreaterThan(1);
        Framing.write(message, stream);
        assertThat(run(stream, "decode", "--short", "Response"))
                .containsExactly(
                        "(result = (package = \"m\", path = \"s\", line = 1, before = [\"b1\", \"b2\", \"b3\"], context = \"ctx\", "
                                + "after = [\"a1\"], ranges = [(start = 0, end = 3)], ranking = 2, contextStart = 0, lineBytes = 0))");
    }

    @Test
    void trigrepReadsWhatCapnpEncodes() throws Exception {
        String text = String.join(
                "\n",
                "(result = (package = \"linux_6.1\", path = \"drivers/gpu/ünï.c\", line = 7, before = [\"x\"], context = \"int main() {\","
                        + " after = [\"\", \"}\"], ranges = [(start = 4, end = 8)], ranking = 1.25))",
                "(progress = (filesSearched = 1, candidateFiles = 2, totalFiles = 3, results = 4))",
                "(done = (results = 18446744073709551615, truncation = deadline, fullScan = true, elapsedNanos = 77))",
                "(error = (code = overloaded, message = \"too many queries\"))",
                "(file = (package = \"p\", path = \"f\", content = \"\\x00\\x01z\"))",
                "(status = (shard = \"s\", files = 1, bytes = 2, queriesInFlight = 3, formatVersion = 4))",
                "(result = ())",
                "(result = (context = \"cut\", contextStart = 7, lineBytes = 5000000, beforeBytes = [1, 2], afterBytes = [4294967295]))",
                "(file = (content = \"x\\n\", firstLine = 3, totalLines = 4, totalBytes = 5, cuts = [(line = 3, bytes = 99)]))",
                "(status = (skipped = [(reason = \"binary\", files = 1, bytes = 2)]))",
                "(fileMatch = (package = \"p\", path = \"a/b\", ranking = 2.5, bytes = 18446744073709551615))",
                "(fileMatch = ())");
        List<Object> read = readStream(encode("Response", text), false);
        assertThat(read)
                .containsExactly(
                        new ResultValue(
                                "linux_6.1",
                                "drivers/gpu/ünï.c",
                                7,
                                List.of("x"),
                                "int main() {",
                                List.of("", "}"),
                                List.of(new RangeValue(4, 8)),
                                1.25f),
                        new ProgressValue(1, 2, 3, 4),
                        new DoneValue(-1, 0, 0, 0, 77, Done.Truncation.DEADLINE, true),
                        new FailureValue(Failure.Code.OVERLOADED, "too many queries", 0),
                        new FileValue("p", "f", new byte[] {0, 1, 'z'}),
                        new StatusValue("s", 1, 2, 3, 4),
                        new ResultValue("", "", 0, List.of(), "", List.of(), List.of(), 0f),
                        new ResultValue(
                                "",
                                "",
                                0,
                                List.of(),
                                "cut",
                                List.of(),
                                List.of(),
                                0f,
                                7,
                                5_000_000,
                                List.of(1, 2),
                                List.of(-1)),
                        new FileValue(
                                "", "", "x\n".getBytes(StandardCharsets.UTF_8), 3, 4, 5, List.of(new CutValue(3, 99))),
                        new StatusValue("", 0, 0, 0, 0, List.of(new SkippedValue("binary", 1, 2))),
                        new FileMatchValue("p", "a/b", 2.5f, -1, ""),
                        new FileMatchValue("", "", 0f, 0, ""));

        String requests =
                "(search = (query = \"q\", pattern = \"(?i)q\", filters = [(kind = path, negated = true, value = \"test/\")],"
                        + " maxResults = 4294967295, contextLines = 255))\n(fetchFile = (package = \"a\", path = \"b/c\"))\n(ping = void)\n(heartbeat = (frontend = 7, known = 3))";
        assertThat(readStream(encode("Request", requests), true))
                .containsExactly(
                        new SearchValue(
                                "q",
                                "(?i)q",
                                false,
                                false,
                                List.of(new FilterValue(Filter.Kind.PATH, true, "test/")),
                                -1,
                                0,
                                255),
                        new FetchValue("a", "b/c"),
                        new PingValue(),
                        new HeartbeatValue(7, 3));
    }

    /**
     * A file's matches as FileResultsWriter writes them, decoded by capnp: two matches whose
     * context overlaps (lines 2 to 6 sent once), one with a definition, and a cut line.
     */
    @Test
    void capnpDecodesFileResults() throws Exception {
        String text = "int x;\nx++;\ny = x;\n" + "z".repeat(20) + "x\nend\n";
        ByteBuf source = Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.UTF_8));
        FileResultsWriter w = new FileResultsWriter(1, 8);
        ByteBuf stream = Unpooled.buffer();
        w.file("zlib".getBytes(StandardCharsets.UTF_8), "a.c".getBytes(StandardCharsets.UTF_8), source);
        w.start(2, 0.5f).before(0, 6).match(7, 4).after(12, 6).range(0, 1);
        w.add(stream);
        w.start(4, 0.25f)
                .symbol(
                        "x".getBytes(StandardCharsets.UTF_8),
                        "variable".getBytes(StandardCharsets.UTF_8),
                        new byte[0],
                        "C".getBytes(StandardCharsets.UTF_8));
        w.before(12, 6).match(19, 21).after(41, 3).range(20, 21);
        w.add(stream);
        w.writeTo(stream);
        source.release();
        assertThat(run(stream, "decode", "--short", "Response"))
                .containsExactly("(fileResults = (package = \"zlib\", path = \"a.c\", "
                        + "lines = \"int x;\\nx++;\\ny = x;\\nzzzzzzzx\\nend\\n\", "
                        + "runs = [(first = 1, count = 5)], windows = [(line = 3, start = 13, bytes = 21)], "
                        + "matches = [(line = 1, ranking = 0.5, ranges = 1, before = 1, after = 1), "
                        + "(line = 3, ranking = 0.25, ranges = 1, before = 1, after = 1, "
                        + "symbol = (name = \"x\", kind = \"variable\", scope = \"\", language = \"C\"))], "
                        + "ranges = [(start = 0, end = 1), (start = 7, end = 8)]))");
    }

    private static List<String> decode(String root, List<Object> values) throws Exception {
        ByteBuf stream = Unpooled.buffer();
        for (Object v : values) {
            Framing.write(Values.write(v), stream);
        }
        return run(stream, "decode", "--short", root);
    }

    private static List<String> run(ByteBuf stream, String verb, String flag, String root) throws Exception {
        byte[] bytes = new byte[stream.readableBytes()];
        stream.readBytes(bytes);
        stream.release();
        CapnpTool.Output out =
                CapnpTool.run(bytes, verb, flag, CapnpTool.SCHEMA.getFileName().toString(), root);
        assertThat(out.exit()).as("capnp %s: %s", verb, out.stderr()).isZero();
        return out.text().lines().toList();
    }

    private static byte[] encode(String root, String text) throws Exception {
        CapnpTool.Output out = CapnpTool.run(
                text.getBytes(StandardCharsets.UTF_8),
                "encode",
                CapnpTool.SCHEMA.getFileName().toString(),
                root);
        assertThat(out.exit()).as("capnp encode: %s", out.stderr()).isZero();
        return out.stdout();
    }

    private static List<Object> readStream(byte[] bytes, boolean request) throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(FrameLimits.DEFAULT));
        channel.writeInbound(Unpooled.wrappedBuffer(bytes));
        channel.finish();
        List<Object> out = new ArrayList<>();
        for (Object frame; (frame = channel.readInbound()) != null; ) {
            assertThat(frame).isInstanceOf(ByteBuf.class);
            ByteBuf buf = (ByteBuf) frame;
            try {
                var message = Framing.read(buf, FrameLimits.DEFAULT);
                out.add(request ? Values.read(Messages.request(message)) : Values.read(Messages.response(message)));
            } finally {
                buf.release();
            }
        }
        return out;
    }
}
