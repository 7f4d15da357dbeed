package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.backend.search.FileWindow;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Failure;
import io.trigrep.proto.File;
import io.trigrep.proto.LineCut;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.ResultWriter;
import io.trigrep.proto.Skipped;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13, "search everything", on the backend over real TCP: results from lines of megabytes
 * are cut to a window around the match, a line with a million matches sends a few hundred ranges,
 * Latin-1 text is searched as bytes, files are fetched by windows of lines or by byte ranges, and
 * the status says what the indexer left out.
 */
@Tag("integration")
class Issue13SearchEverythingTest {
    @TempDir
    static Path dir;

    static BackendServer server;
    static Shard shard;
    static InetSocketAddress at;
    static byte[] minified;
    static byte[] latin1;
    static byte[] windows;

    @BeforeAll
    static void start() throws Exception {
        Path pkg = Files.createDirectories(dir.resolve("corpus/big_1.0"));
        // One line of 3 MB: the needle at 2,000,000, "ab" a million times after it, and a long context line before.
        StringBuilder line =
                new StringBuilder("var x=").append("q".repeat(2_000_000 - 6)).append("NEEDLE");
        line.append("ab".repeat(500_000));
        minified = ("// é".repeat(300) + "\n" + line + "\nshort after\n").getBytes(StandardCharsets.UTF_8);
        Files.write(pkg.resolve("app.js"), minified);
        latin1 = new byte[] {'c', 'a', 'f', (byte) 0xe9, ' ', 'o', 'l', 'e', '\n', 'x', '\n'};
        Files.write(pkg.resolve("latin1.txt"), latin1);
        windows = "one\r\ntwo\r\nthree".getBytes(StandardCharsets.UTF_8); // CRLF, no final newline
        Files.write(pkg.resolve("crlf.txt"), windows);
        // Left out by the indexer, and so counted in the manifest the status reports: two files with NUL bytes.
        Files.write(pkg.resolve("blob.bin"), new byte[] {'a', 0, 'b'});
        Files.write(pkg.resolve("image.png"), new byte[1000]);
        shard = TestShards.build(dir.resolve("corpus"), dir.resolve("shards"), 1)
                .get(0);
        server = new BackendServer(shard, BackendConfig.defaults());
        at = server.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    record Hit(
            int line,
            String context,
            int contextStart,
            int lineBytes,
            List<int[]> ranges,
            List<String> before,
            List<Integer> beforeBytes,
            int frameBytes) {}

    static List<Hit> search(String query) throws Exception {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory).initSearch().setQuery(query).setContextLines(1);
        List<Hit> hits = new ArrayList<>();
        BackendClient.exchange(at, request, r -> {
            if (r.which() == Response.Which.RESULT) {
                var result = r.getResult();
                List<int[]> ranges = new ArrayList<>();
                for (var range : result.getRanges()) {
                    ranges.add(new int[] {range.getStart(), range.getEnd()});
                }
                List<String> before = new ArrayList<>();
                for (int i = 0; i < result.getBefore().size(); i++) {
                    before.add(result.getBefore().get(i).toString());
                }
                List<Integer> beforeBytes = new ArrayList<>();
                for (int i = 0; i < result.getBeforeBytes().size(); i++) {
                    beforeBytes.add(result.getBeforeBytes().get(i));
                }
                byte[] context = new byte[result.getContext().size()];
                result.getContext().asByteBuffer().get(context);
                hits.add(new Hit(
                        result.getLine(),
                        new String(context, StandardCharsets.ISO_8859_1),
                        result.getContextStart(),
                        result.getLineBytes(),
                        ranges,
                        before,
                        beforeBytes,
                        0));
            }
            return true;
        });
        return hits;
    }

    @Test
    void aMatchOnALineOfMegabytesComesInAWindowAroundIt() throws Exception {
        List<Hit> hits = search("NEEDLE");
        assertThat(hits).hasSize(1);
        Hit hit = hits.get(0);
        int lineBytes = minified.length
                - ("// é".repeat(300) + "\n").getBytes(StandardCharsets.UTF_8).length
                - "\nshort after\n".length();
        assertThat(hit.line()).isEqualTo(2);
        assertThat(hit.lineBytes()).isEqualTo(lineBytes);
        assertThat(hit.contextStart()).isEqualTo(2_000_000 - ResultWriter.MAX_LINE_BYTES / 4);
        assertThat(hit.context()).hasSize(ResultWriter.MAX_LINE_BYTES).startsWith("q".repeat(100) + "NEEDLEab");
        assertThat(hit.ranges()).containsExactly(new int[] {100, 106});
        // The line before, 1,500 bytes of "// é": cut to a prefix that ends before an "é", never inside it.
        assertThat(hit.beforeBytes()).containsExactly(1500);
        byte[] shown = hit.before().get(0).getBytes(StandardCharsets.UTF_8);
        assertThat(shown.length).isBetween(ResultWriter.MAX_LINE_BYTES - 1, ResultWriter.MAX_LINE_BYTES);
        assertThat(hit.before().get(0)).doesNotContain("\ufffd");
    }

    @Test
    void aLineWithAMillionMatchesSendsTheRangesOfItsWindow() throws Exception {
        List<Hit> hits = search("ab");
        assertThat(hits).hasSize(1);
        Hit hit = hits.get(0);
        assertThat(hit.contextStart()).isEqualTo(2_000_000 + 6 - ResultWriter.MAX_LINE_BYTES / 4);
        assertThat(hit.ranges()).hasSize((ResultWriter.MAX_LINE_BYTES - ResultWriter.MAX_LINE_BYTES / 4) / 2);
        assertThat(hit.ranges().get(0)).containsExactly(100, 102);
    }

    @Test
    void latin1TextIsSearchedAsBytes() throws Exception {
        List<Hit> hits = search("ole");
        assertThat(hits).hasSize(1);
        assertThat(hits.get(0).context()).isEqualTo("caf\u00e9 ole");
        assertThat(hits.get(0).ranges()).containsExactly(new int[] {5, 8});
        assertThat(hits.get(0).lineBytes()).isEqualTo(8);
    }

    static File.Reader fetch(
            String path,
            int firstLine,
            int maxLines,
            int maxLineBytes,
            long byteOffset,
            int byteCount,
            Failure.Code[] error)
            throws Exception {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory)
                .initFetchFile()
                .setPackage("big_1.0")
                .setPath(path)
                .setFirstLine(firstLine)
                .setMaxLines(maxLines)
                .setMaxLineBytes(maxLineBytes)
                .setByteOffset(byteOffset)
                .setByteCount(byteCount);
        File.Reader[] file = {null};
        BackendClient.exchange(at, request, r -> {
            if (r.which() == Response.Which.FILE) {
                file[0] = r.getFile();
            } else if (error != null) {
                error[0] = r.getError().getCode();
            }
            return true;
        });
        return file[0];
    }

    static String content(File.Reader file) {
        return new String(BackendServerTest.bytes(file.getContent()), StandardCharsets.UTF_8);
    }

    @Test
    void aWindowOfLinesEachCutWithItsFullLength() throws Exception {
        File.Reader window = fetch("app.js", 2, 2, 1000, 0, 0, null);
        assertThat(window.getFirstLine()).isEqualTo(2);
        assertThat(window.getTotalLines()).isEqualTo(3);
        assertThat(window.getTotalBytes()).isEqualTo(minified.length);
        assertThat(content(window)).isEqualTo("var x=" + "q".repeat(994) + "\nshort after\n");
        assertThat(window.getCuts().size()).isEqualTo(1);
        LineCut.Reader cut = window.getCuts().get(0);
        assertThat(cut.getLine()).isEqualTo(2);
        assertThat(cut.getBytes()).isEqualTo(3_000_006);
        // Past the end: an empty window, with the totals.
        File.Reader past = fetch("app.js", 4, 10, 0, 0, 0, null);
        assertThat(past.getContent().size).isZero();
        assertThat(past.getTotalLines()).isEqualTo(3);
        // CRLF and no final newline: the \r stays in its line, the last line has no newline.
        File.Reader crlf = fetch("crlf.txt", 2, 0, 0, 0, 0, null);
        assertThat(content(crlf)).isEqualTo("two\r\nthree");
        assertThat(crlf.getTotalLines()).isEqualTo(3);
        // No window asked: the whole file, as older frontends expect.
        assertThat(BackendServerTest.bytes(
                        fetch("latin1.txt", 0, 0, 0, 0, 0, null).getContent()))
                .isEqualTo(latin1);
    }

    @Test
    void byteRangesReassembleTheFile() throws Exception {
        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        long total = -1;
        for (long offset = 0; total < 0 || offset < total; offset += 1 << 20) {
            File.Reader piece = fetch("app.js", 0, 0, 0, offset, 1 << 20, null);
            total = piece.getTotalBytes();
            whole.writeBytes(BackendServerTest.bytes(piece.getContent()));
        }
        assertThat(whole.toByteArray()).isEqualTo(minified);
        assertThat(fetch("app.js", 0, 0, 0, 1L << 40, 10, null).getContent().size)
                .isZero();
        Failure.Code[] error = {null};
        assertThat(fetch("app.js", 0, 0, 0, 0, -1, error)).isNull();
        assertThat(error[0]).isEqualTo(Failure.Code.BAD_REQUEST);
    }

    @Test
    void aWindowTooLargeForOneAnswerIsRefusedWithAWayOut() throws Exception {
        byte[] big = new byte[FileWindow.MAX_ANSWER_BYTES + 10];
        java.util.Arrays.fill(big, (byte) 'x');
        MessageBuilder message = Messages.newBuilder();
        File.Builder file = message.initRoot(Response.factory).initFile();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> FileWindow.lines(java.nio.ByteBuffer.wrap(big), 0, 0, 0, file))
                .isInstanceOf(FileWindow.TooLarge.class)
                .hasMessageContaining("ask for fewer lines");
        FileWindow.lines(java.nio.ByteBuffer.wrap(big), 0, 0, 10_000, file);
        assertThat(file.asReader().getCuts().get(0).getBytes()).isEqualTo(big.length);
    }

    @Test
    void statusSaysWhatWasLeftOut() throws Exception {
        MessageBuilder ping = Messages.newBuilder();
        ping.initRoot(Request.factory).setPing();
        List<String> skipped = new ArrayList<>();
        BackendClient.exchange(at, ping, r -> {
            for (Skipped.Reader s : r.getStatus().getSkipped()) {
                skipped.add(s.getReason() + " " + s.getFiles() + " " + s.getBytes());
            }
            return true;
        });
        List<String> manifest = new ArrayList<>();
        shard.manifest().skipped().forEach((reason, count) -> {
            if (count.files() > 0) {
                manifest.add(reason + " " + count.files() + " " + count.bytes());
            }
        });
        assertThat(skipped).contains("binary 2 1003").isEqualTo(manifest);
    }
}
