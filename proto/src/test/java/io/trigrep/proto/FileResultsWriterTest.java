package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.capnproto.StructList;
import org.junit.jupiter.api.Test;

/**
 * Results by file show each match exactly as a Result of its own would: the oracle is
 * {@link ResultWriter}, fed the same lines. What may differ is only what the format saves: a line
 * that is context to one match and the matching line of another is shown once, cut (when long) as
 * the matching line is.
 */
class FileResultsWriterTest {
    /** One match as a test gives it: its line (0-based index into the file's lines), ranges, ranking, symbol. */
    record Hit(int line, List<int[]> ranges, float ranking, String symbol) {}

    /** One match as read back: everything a page shows of it. */
    record Shown(
            String pkg,
            String path,
            long line,
            List<String> before,
            String context,
            List<String> after,
            List<List<Long>> ranges,
            float ranking,
            long contextStart,
            long lineBytes,
            List<String> symbol) {}

    @Provide
    Arbitrary<List<String>> files() {
        Arbitrary<String> line = Arbitraries.strings().withChars("ab x(é€😀").ofMaxLength(30);
        return line.list().ofMinSize(1).ofMaxSize(30);
    }

    @Property(tries = 400)
    void everyMatchReadsBackAsItsOwnResultShowsIt(
            @ForAll("files") List<String> lines,
            @ForAll @IntRange(max = 3) int context,
            @ForAll @IntRange(min = 8, max = 40) int maxLineBytes,
            @ForAll @IntRange(min = 1, max = 200) int frameLineBytes,
            @ForAll long seed)
            throws Exception {
        java.util.Random random = new java.util.Random(seed);
        List<Hit> hits = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (random.nextInt(3) == 0) {
                int length = utf8(lines.get(i)).length;
                List<int[]> ranges = new ArrayList<>();
                int at = 0;
                while (at <= length && ranges.size() < 3 && random.nextBoolean()) {
                    int start = at + random.nextInt(length - at + 1);
                    int end = start + random.nextInt(length - start + 1);
                    ranges.add(new int[] {start, end});
                    at = end + 1;
                }
                if (ranges.isEmpty()) {
                    ranges.add(new int[] {0, 0});
                }
                hits.add(new Hit(i, ranges, random.nextFloat(), random.nextInt(5) == 0 ? "sym" + i : null));
            }
        }
        List<Shown> expected = new ArrayList<>();
        for (Hit h : hits) {
            expected.add(viaResult(lines, h, context, maxLineBytes));
        }
        List<Shown> actual = viaFileResults(lines, hits, context, maxLineBytes, frameLineBytes);
        assertThat(actual).hasSize(expected.size());
        // A matching line's window is how every frame holding it shows it.
        Map<Long, String> windows = new HashMap<>();
        for (Shown s : expected) {
            windows.put(s.line(), s.context());
        }
        for (int i = 0; i < expected.size(); i++) {
            Shown e = expected.get(i);
            Shown a = actual.get(i);
            assertThat(a.line()).isEqualTo(e.line());
            assertThat(a.context()).isEqualTo(e.context());
            assertThat(a.ranges()).isEqualTo(e.ranges());
            assertThat(a.contextStart()).isEqualTo(e.contextStart());
            assertThat(a.lineBytes()).isEqualTo(e.lineBytes());
            assertThat(a.ranking()).isEqualTo(e.ranking());
            assertThat(a.symbol()).isEqualTo(e.symbol());
            assertThat(a.pkg()).isEqualTo(e.pkg());
            assertThat(a.path()).isEqualTo(e.path());
            assertThat(a.before()).hasSameSizeAs(e.before());
            assertThat(a.after()).hasSameSizeAs(e.after());
            for (int k = 0; k < e.before().size(); k++) {
                long number = e.line() - e.before().size() + k;
                assertThat(a.before().get(k)).isIn(e.before().get(k), windows.get(number));
            }
            for (int k = 0; k < e.after().size(); k++) {
                long number = e.line() + 1 + k;
                assertThat(a.after().get(k)).isIn(e.after().get(k), windows.get(number));
            }
        }
    }

    @Test
    void aLineSharedByTwoMatchesIsSentOnce() throws Exception {
        List<String> lines = List.of("one", "two x", "three", "four x", "five", "six");
        List<Hit> hits = List.of(
                new Hit(1, List.of(new int[] {4, 5}), 1f, null), new Hit(3, List.of(new int[] {5, 6}), 1f, null));
        ByteBuf out = write(lines, hits, 2, 400, FileResultsWriter.FRAME_LINE_BYTES);
        try {
            FileResults.Reader file =
                    Messages.response(Framing.read(out, FrameLimits.DEFAULT)).getFileResults();
            FileResultsIndex index = new FileResultsIndex(file);
            // Lines 1..6 once each, one run, two matches: not the eight lines two Results would send.
            assertThat(index.lines()).isEqualTo(6);
            assertThat(file.getRuns().size()).isEqualTo(1);
            assertThat(file.getMatches().size()).isEqualTo(2);
            assertThat(new String(index.text(3), StandardCharsets.UTF_8)).isEqualTo("four x");
            assertThat(index.number(3)).isEqualTo(4);
        } finally {
            out.release();
        }
    }

    /** The frame of package-info's worked example: line 2 of a.c in zlib, one line of context before. */
    private static ByteBuf workedExample() {
        ByteBuf source = Unpooled.wrappedBuffer(utf8("int x;\nx++;\n"));
        FileResultsWriter w = new FileResultsWriter(1);
        ByteBuf out = Unpooled.buffer();
        w.file(utf8("zlib"), utf8("a.c"), source);
        w.start(2, 0.5f).before(0, 6).match(7, 4).range(0, 1);
        w.add(out);
        w.writeTo(out);
        return out;
    }

    /** The worked example of package-info, byte for byte. */
    @Test
    void theWorkedExampleOfThePackageDocumentation() {
        ByteBuf out = workedExample();
        String expected = String.join(
                "",
                "0000000018000000",
                "0000000001000100",
                "0700000000000000",
                "0000000000000800",
                "1d0000002a000000",
                "1d00000022000000",
                "1d00000062000000",
                "210000000f000000",
                "2500000007000000",
                "250000001f000000",
                "310000000f000000",
                "0000000000000000",
                "7a6c696200000000",
                "612e630000000000",
                "696e7420783b0a78",
                "2b2b3b0a00000000",
                "0400000001000000",
                "0100000002000000",
                "0000000002000000",
                "0400000002000100",
                "010000000000003f",
                "0100000001000000",
                "0000000000000000",
                "0400000001000000",
                "0000000001000000");
        try {
            assertThat(io.netty.buffer.ByteBufUtil.hexDump(out)).isEqualTo(expected);
        } finally {
            out.release();
        }
    }

    /**
     * The peek refuses what a reader would read differently or what would cost the frontend more
     * than its bytes: a Response without a pointer section (a reader sees an empty member, not the
     * words after it), matches smaller than a LineMatch (records would outgrow the byte cap).
     */
    @Test
    void thePeekRefusesFramesAReaderWouldReadOtherwise() {
        ByteBuf out = workedExample();
        byte[] frame = io.netty.buffer.ByteBufUtil.getBytes(out);
        out.release();
        ResultPeek peek = new ResultPeek();
        assertThat(peek.peek(ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN)))
                .isTrue();
        assertThat(peek.results()).isEqualTo(1);

        byte[] noPointers = frame.clone();
        noPointers[8 + 6] = 0; // the root pointer's pointer count (bytes 6-7 of word 0)
        assertThat(peek.peek(ByteBuffer.wrap(noPointers).order(ByteOrder.LITTLE_ENDIAN)))
                .isFalse();

        byte[] smallMatches = frame.clone();
        // The matches' tag (word 18 of the segment, after the 8-byte table): 1 data word, not 2.
        smallMatches[8 + 8 * 18 + 4] = 1;
        assertThat(peek.peek(ByteBuffer.wrap(smallMatches).order(ByteOrder.LITTLE_ENDIAN)))
                .isFalse();
    }

    @Test
    void thePeekSeesEveryMatchAndItsRanking() throws Exception {
        List<String> lines = List.of("a x", "b", "c x", "d", "", "", "", "e x");
        List<Hit> hits = List.of(
                new Hit(0, List.of(new int[] {2, 3}), 0.25f, null),
                new Hit(2, List.of(new int[] {2, 3}), 0.5f, "c"),
                new Hit(7, List.of(new int[] {2, 3}), 0.75f, null));
        ByteBuf out = write(lines, hits, 1, 400, FileResultsWriter.FRAME_LINE_BYTES);
        try {
            ResultPeek peek = new ResultPeek();
            assertThat(peek.peek(out.nioBuffer().order(ByteOrder.LITTLE_ENDIAN)))
                    .isTrue();
            assertThat(peek.results()).isEqualTo(3);
            assertThat(List.of(peek.ranking(0), peek.ranking(1), peek.ranking(2)))
                    .containsExactly(0.25f, 0.5f, 0.75f);
            ByteBuffer f = peek.frame();
            byte[] path = new byte[peek.pathLength()];
            f.get(peek.pathOffset(), path);
            assertThat(new String(path, StandardCharsets.UTF_8)).isEqualTo("src/ünï.c");
            assertThat(Messages.peekResponse(out.nioBuffer())).isEqualTo(Response.Which.FILE_RESULTS);
        } finally {
            out.release();
        }
    }

    /** Each hit written as a Result of its own, read back. */
    private static Shown viaResult(List<String> lines, Hit h, int context, int maxLineBytes) throws Exception {
        byte[] file = join(lines);
        int[] starts = starts(lines);
        ByteBuf source = Unpooled.wrappedBuffer(file);
        ResultWriter w = new ResultWriter(context, maxLineBytes);
        w.start(utf8("zlib"), utf8("src/ünï.c"), source, h.line() + 1, h.ranking());
        if (h.symbol() != null) {
            w.symbol(utf8(h.symbol()), utf8("function"), utf8(""), utf8("C"));
        }
        feed(w, lines, starts, h, context);
        ByteBuf out = Unpooled.buffer();
        w.writeTo(out);
        Result.Reader r =
                Messages.response(Framing.read(out, FrameLimits.DEFAULT)).getResult();
        List<List<Long>> ranges = new ArrayList<>();
        for (int i = 0; i < r.getRanges().size(); i++) {
            Range.Reader range = r.getRanges().get(i);
            ranges.add(List.of(Integer.toUnsignedLong(range.getStart()), Integer.toUnsignedLong(range.getEnd())));
        }
        List<String> before = new ArrayList<>();
        for (int i = 0; i < r.getBefore().size(); i++) {
            before.add(text(r.getBefore().get(i).asByteBuffer()));
        }
        List<String> after = new ArrayList<>();
        for (int i = 0; i < r.getAfter().size(); i++) {
            after.add(text(r.getAfter().get(i).asByteBuffer()));
        }
        Shown shown = new Shown(
                r.getPackage().toString(),
                r.getPath().toString(),
                r.getLine(),
                before,
                text(r.getContext().asByteBuffer()),
                after,
                ranges,
                r.getRanking(),
                r.getContextStart(),
                r.getLineBytes(),
                r.hasSymbol() ? symbol(r.getSymbol()) : null);
        out.release();
        return shown;
    }

    /** The hits written by file, every frame read back, the matches in order. */
    private static List<Shown> viaFileResults(
            List<String> lines, List<Hit> hits, int context, int maxLineBytes, int frameLineBytes) throws Exception {
        ByteBuf out = write(lines, hits, context, maxLineBytes, frameLineBytes);
        List<Shown> shown = new ArrayList<>();
        try {
            while (out.isReadable()) {
                int length =
                        (int) Framing.frameLength(out, out.readerIndex(), out.readableBytes(), FrameLimits.DEFAULT);
                ByteBuf frame = out.readSlice(length);
                FileResults.Reader file = Messages.response(Framing.read(frame, FrameLimits.DEFAULT))
                        .getFileResults();
                FileResultsIndex index = new FileResultsIndex(file);
                StructList.Reader<LineMatch.Reader> matches = file.getMatches();
                for (int m = 0; m < matches.size(); m++) {
                    LineMatch.Reader match = matches.get(m);
                    int line = match.getLine();
                    List<String> before = new ArrayList<>();
                    for (int k = line - match.getBefore(); k < line; k++) {
                        before.add(text(index.text(k)));
                        assertThat(index.number(k)).isEqualTo(index.number(line) - (line - k));
                    }
                    List<String> after = new ArrayList<>();
                    for (int k = line + 1; k <= line + match.getAfter(); k++) {
                        after.add(text(index.text(k)));
                        assertThat(index.number(k)).isEqualTo(index.number(line) + (k - line));
                    }
                    List<List<Long>> ranges = new ArrayList<>();
                    for (int k = index.firstRange(m); k < index.firstRange(m + 1); k++) {
                        Range.Reader range = index.range(k);
                        ranges.add(List.of(
                                Integer.toUnsignedLong(range.getStart()), Integer.toUnsignedLong(range.getEnd())));
                    }
                    long start = index.start(line);
                    long full = index.full(line);
                    shown.add(new Shown(
                            file.getPackage().toString(),
                            file.getPath().toString(),
                            index.number(line),
                            before,
                            text(index.text(line)),
                            after,
                            ranges,
                            match.getRanking(),
                            start,
                            full,
                            match.hasSymbol() ? symbol(match.getSymbol()) : null));
                }
            }
        } finally {
            out.release();
        }
        return shown;
    }

    /** The hits through a FileResultsWriter, as a backend drives it. */
    static ByteBuf write(List<String> lines, List<Hit> hits, int context, int maxLineBytes, int frameLineBytes) {
        byte[] file = join(lines);
        int[] starts = starts(lines);
        ByteBuf source = Unpooled.wrappedBuffer(file);
        FileResultsWriter w = new FileResultsWriter(context, maxLineBytes, frameLineBytes);
        ByteBuf out = Unpooled.buffer();
        w.file(utf8("zlib"), utf8("src/ünï.c"), source);
        for (Hit h : hits) {
            w.start(h.line() + 1, h.ranking());
            if (h.symbol() != null) {
                w.symbol(utf8(h.symbol()), utf8("function"), utf8(""), utf8("C"));
            }
            feed(w, lines, starts, h, context);
            w.add(out);
            if (w.frameDue()) {
                int before = out.writerIndex();
                int expected = w.frameBytes();
                w.writeTo(out);
                assertThat(out.writerIndex() - before).isEqualTo(expected);
            }
        }
        w.writeTo(out);
        return out;
    }

    /** The hit's context lines, line and ranges, as a backend's worker gives them to either writer. */
    private static void feed(MatchLines w, List<String> lines, int[] starts, Hit h, int context) {
        for (int k = Math.max(0, h.line() - context); k < h.line(); k++) {
            w.before(starts[k], utf8(lines.get(k)).length);
        }
        w.match(starts[h.line()], utf8(lines.get(h.line())).length);
        for (int k = h.line() + 1; k <= Math.min(lines.size() - 1, h.line() + context); k++) {
            w.after(starts[k], utf8(lines.get(k)).length);
        }
        for (int[] r : h.ranges()) {
            if (w.range(r[0], r[1]).pastWindow()) {
                break;
            }
        }
    }

    private static List<String> symbol(Symbol.Reader s) {
        return List.of(
                s.getName().toString(),
                s.getKind().toString(),
                s.getScope().toString(),
                s.getLanguage().toString());
    }

    private static byte[] join(List<String> lines) {
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static int[] starts(List<String> lines) {
        int[] starts = new int[lines.size()];
        int at = 0;
        for (int i = 0; i < lines.size(); i++) {
            starts[i] = at;
            at += utf8(lines.get(i)).length + 1;
        }
        return starts;
    }

    private static String text(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return text(out);
    }

    /** Bytes as ISO-8859-1, so a line cut inside a UTF-8 sequence compares byte for byte. */
    private static String text(byte[] b) {
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
