package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.Result;
import io.trigrep.proto.ResultWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13, "search everything", through the frontend's HTTP API and pages, over real backends:
 * long lines cut (and said so), Latin-1 text delivered with U+FFFD and its ranges still exact,
 * files too large for one answer served by windows and as raw bytes, and what is searchable and
 * left out in /api/v1/status and every page's footer. A hostile backend's impossible claims are
 * clamped, never thrown.
 */
@Tag("integration")
class Issue13SearchEverythingHttpTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient http = HttpClient.newHttpClient();

    @TempDir
    static Path dir;

    static LoopbackCluster cluster;
    static String base;
    static byte[] big;
    static byte[] latin1;
    static String longLine;

    @BeforeAll
    static void start() throws Exception {
        Path pkg = Files.createDirectories(dir.resolve("corpus/everything_1.0"));
        latin1 = new byte[] {
            '/',
            '*',
            ' ',
            'c',
            'a',
            'f',
            (byte) 0xe9,
            ' ',
            '*',
            '/',
            ' ',
            'i',
            'n',
            't',
            ' ',
            'n',
            'e',
            'e',
            'd',
            'l',
            'e',
            '_',
            'a',
            'f',
            't',
            'e',
            'r',
            ';',
            '\n'
        };
        Files.write(pkg.resolve("latin1.c"), latin1);
        longLine = "x".repeat(5000) + "long_line_needle" + "y".repeat(5000);
        Files.writeString(pkg.resolve("generated.js"), "before();\n" + longLine + "\nafter();\n");
        // 9 MB: more than a whole-file answer may carry.
        StringBuilder text = new StringBuilder();
        for (int i = 1; text.length() < 9_000_000; i++) {
            text.append("row ").append(i).append(": the quick brown fox jumps over the lazy dog\n");
        }
        big = text.toString().getBytes(StandardCharsets.UTF_8);
        Files.write(pkg.resolve("table.txt"), big);
        // Left out, so counted in the manifest and reported: three files with NUL bytes, 12,345 bytes in all.
        for (int i = 0; i < 3; i++) {
            byte[] binary = new byte[i == 0 ? 4345 : 4000];
            binary[7] = 0;
            Files.write(pkg.resolve("blob" + i + ".bin"), binary);
        }
        cluster = new LoopbackCluster(dir.resolve("corpus"), dir, 1);
        base = cluster.base;
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    static HttpResponse<String> get(String pathAndQuery) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(base + pathAndQuery)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String q(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** The text a delivered range marks: ranges are offsets into the UTF-8 of the context as delivered. */
    static String marked(JsonNode result, int i) {
        byte[] context = result.get("context").asText().getBytes(StandardCharsets.UTF_8);
        JsonNode range = result.get("ranges").get(i);
        return new String(
                context,
                range.get(0).asInt(),
                range.get(1).asInt() - range.get(0).asInt(),
                StandardCharsets.UTF_8);
    }

    @Test
    void latin1TextComesWithReplacementCharactersAndExactRanges() throws Exception {
        JsonNode result = JSON.readTree(get("/api/v1/search?q=needle_after").body())
                .get("results")
                .get(0);
        assertThat(result.get("context").asText()).isEqualTo("/* caf\ufffd */ int needle_after;");
        assertThat(result.get("ranges").get(0).get(0).asInt())
                .isEqualTo(17); // 15 bytes sent before it, 2 more once é is U+FFFD
        assertThat(marked(result, 0)).isEqualTo("needle_after");
        assertThat(result.has("cut")).isFalse();
        String page = get("/search?q=needle_after").body();
        assertThat(page).contains("caf\ufffd */ int <mark>needle_after</mark>;");
        // The file view shows it too, the line asked for marked.
        String file = get("/show?package=everything_1.0&path=latin1.c&line=1").body();
        assertThat(file).contains("<span class=\"l target\" id=\"L1\">").contains("/* caf\ufffd */ int needle_after;");
        JsonNode api = JSON.readTree(
                get("/api/v1/file?package=everything_1.0&path=latin1.c").body());
        assertThat(api.get("content").asText()).isEqualTo("/* caf\ufffd */ int needle_after;\n");
    }

    @Test
    void aLongLineIsCutAroundItsMatchAndSaysSo() throws Exception {
        JsonNode result = JSON.readTree(get("/api/v1/search?q=long_line_needle").body())
                .get("results")
                .get(0);
        String context = result.get("context").asText();
        assertThat(context).hasSize(ResultWriter.MAX_LINE_BYTES).contains("long_line_needle");
        assertThat(marked(result, 0)).isEqualTo("long_line_needle");
        JsonNode cut = result.get("cut");
        assertThat(cut).hasSize(1);
        assertThat(cut.get(0).get("line").asInt()).isEqualTo(2);
        assertThat(cut.get(0).get("start").asInt()).isEqualTo(5000 - ResultWriter.MAX_LINE_BYTES / 4);
        assertThat(cut.get(0).get("end").asInt())
                .isEqualTo(5000 - ResultWriter.MAX_LINE_BYTES / 4 + ResultWriter.MAX_LINE_BYTES);
        assertThat(cut.get(0).get("bytes").asInt()).isEqualTo(longLine.length());
        // A context line: the result of "after" has the long line before it, cut to a prefix.
        JsonNode after = JSON.readTree(
                        get("/api/v1/search?q=" + q("after\\(\\)")).body())
                .get("results")
                .get(0);
        assertThat(after.get("context_before").get(1).asText()).hasSize(ResultWriter.MAX_LINE_BYTES);
        assertThat(after.get("cut").get(0).toString())
                .isEqualTo("{\"line\":2,\"start\":0,\"end\":400,\"bytes\":10016}");
        String page = get("/search?q=long_line_needle").body();
        assertThat(page)
                .contains("<span class=\"cut\" title=\"line cut: 10,016 bytes\">…</span>xxxx")
                .contains("yyyy<span class=\"cut\" title=\"line cut: 10,016 bytes\">…</span>");
    }

    @Test
    void aFileTooLargeForOneAnswerComesByWindowsAndAsRawBytes() throws Exception {
        HttpResponse<String> whole = get("/api/v1/file?package=everything_1.0&path=table.txt");
        assertThat(whole.statusCode()).isEqualTo(413);
        assertThat(JSON.readTree(whole.body()).get("error").asText())
                .contains("ask for a window")
                .contains("/api/v1/file/raw");
        JsonNode window = JSON.readTree(get("/api/v1/file?package=everything_1.0&path=table.txt&from=100000&lines=3")
                .body());
        assertThat(window.get("first_line").asInt()).isEqualTo(100000);
        assertThat(window.get("total_bytes").asLong()).isEqualTo(big.length);
        assertThat(window.get("total_lines").asLong())
                .isEqualTo(new String(big, StandardCharsets.UTF_8).lines().count());
        assertThat(window.get("content").asText())
                .startsWith("row 100000: the quick")
                .endsWith("row 100002: the quick brown fox jumps over the lazy dog\n");
        JsonNode cut = JSON.readTree(
                get("/api/v1/file?package=everything_1.0&path=generated.js&from=2&lines=1&max_line_bytes=100")
                        .body());
        assertThat(cut.get("content").asText()).isEqualTo("x".repeat(100) + "\n");
        assertThat(cut.get("cut").get(0).toString()).isEqualTo("{\"line\":2,\"start\":0,\"end\":100,\"bytes\":10016}");
        assertThat(get("/api/v1/file?package=everything_1.0&path=table.txt&from=0")
                        .statusCode())
                .isEqualTo(400);
        for (String raw : List.of("/api/v1/file/raw", "/raw")) {
            HttpResponse<byte[]> bytes = http.send(
                    HttpRequest.newBuilder(URI.create(base + raw + "?package=everything_1.0&path=table.txt"))
                            .build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertThat(bytes.statusCode()).isEqualTo(200);
            assertThat(bytes.headers().firstValue("content-type")).hasValue("text/plain");
            assertThat(bytes.body()).isEqualTo(big);
        }
        HttpResponse<byte[]> latin = http.send(
                HttpRequest.newBuilder(URI.create(base + "/raw?package=everything_1.0&path=latin1.c"))
                        .build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(latin.body()).isEqualTo(latin1);
        assertThat(get("/raw?package=everything_1.0&path=nope.c").statusCode()).isEqualTo(404);
        // The file view: a window around the line asked for, with the way on.
        String page =
                get("/show?package=everything_1.0&path=table.txt&line=150000").body();
        assertThat(page)
                .contains("<span class=\"l target\" id=\"L150000\">")
                .contains("id=\"L149500\"")
                .doesNotContain("id=\"L149499\"")
                .contains("id=\"L150499\"")
                .doesNotContain("id=\"L150500\"")
                .contains("rel=\"next\"")
                .contains("rel=\"prev\"")
                .contains("href=\"/raw?package=everything_1.0&amp;path=table.txt\"");
    }

    @Test
    void statusSaysWhatIsSearchableAndWhatWasLeftOut() throws Exception {
        JsonNode status = JSON.readTree(get("/api/v1/status").body());
        assertThat(status.get("searchable").get("files").asInt()).isEqualTo(3);
        // The shard's content store: the three files and a little alignment.
        long files = big.length + latin1.length + longLine.length() + 20;
        assertThat(status.get("searchable").get("bytes").asLong()).isBetween(files, files + 64);
        assertThat(status.get("skipped").toString()).isEqualTo("[{\"reason\":\"binary\",\"files\":3,\"bytes\":12345}]");
        JsonNode shard = status.get("shards").get(0);
        assertThat(shard.get("reachable").asBoolean()).isTrue();
        assertThat(shard.get("shard").asText()).isEqualTo("shard-0");
        assertThat(shard.get("format_version").asInt()).isPositive();
        assertThat(get("/").body())
                .contains("<p id=\"corpus\"><a href=\"/api/v1/status\">3 files (9.0 MB) searchable · left out: 3 binary"
                        + " (12 KB)</a></p>");
    }

    /** A backend that answers every search with one result whose claims contradict its text. */
    @Test
    void aHostileBackendsImpossibleClaimsAreClampedNotThrown() throws Exception {
        try (ServerSocket fake = new ServerSocket(0)) {
            Thread serve = new Thread(
                    () -> {
                        while (!fake.isClosed()) {
                            try (Socket socket = fake.accept()) {
                                ByteBuffer frame = Framing.readFrame(
                                        Channels.newChannel(socket.getInputStream()), FrameLimits.DEFAULT);
                                Request.Reader request = Messages.request(Framing.read(frame, FrameLimits.DEFAULT));
                                var out = Channels.newChannel(socket.getOutputStream());
                                if (request.which() == Request.Which.SEARCH) {
                                    MessageBuilder m = Messages.newBuilder();
                                    Result.Builder r = m.initRoot(Response.factory)
                                            .initResult()
                                            .setPackage("evil")
                                            .setPath("x.c")
                                            .setLine(1)
                                            .setContext("hello world")
                                            .setRanking(1)
                                            .setContextStart(5)
                                            .setLineBytes(3);
                                    r.initBefore(0);
                                    r.initBeforeBytes(3).set(0, 7);
                                    var ranges = r.initRanges(4);
                                    ranges.get(0).setStart(6).setEnd(11);
                                    ranges.get(1).setStart(9).setEnd(4);
                                    ranges.get(2).setStart(20).setEnd(30);
                                    ranges.get(3).setStart(0).setEnd(-1);
                                    Framing.write(m, out);
                                    MessageBuilder done = Messages.newBuilder();
                                    done.initRoot(Response.factory).initDone().setResults(1);
                                    Framing.write(done, out);
                                } else {
                                    MessageBuilder status = Messages.newBuilder();
                                    status.initRoot(Response.factory)
                                            .initStatus()
                                            .setShard("evil");
                                    Framing.write(status, out);
                                }
                            } catch (Exception e) {
                                // the test is over, or the frontend hung up
                            }
                        }
                    },
                    "hostile-backend");
            serve.setDaemon(true);
            serve.start();
            try (FanOut fanOut = new FanOut(
                            List.of(new InetSocketAddress("127.0.0.1", fake.getLocalPort())),
                            dir.resolve("hostile"),
                            1);
                    FrontendServer frontend = new FrontendServer(fanOut, 4)) {
                String at = "http://127.0.0.1:" + frontend.start("127.0.0.1", 0).getPort();
                HttpResponse<String> api = http.send(
                        HttpRequest.newBuilder(URI.create(at + "/api/v1/search?q=hello"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(api.statusCode()).isEqualTo(200);
                JsonNode result = JSON.readTree(api.body()).get("results").get(0);
                assertThat(result.get("ranges").toString()).isEqualTo("[[6,11],[0,11]]");
                assertThat(result.get("cut").toString())
                        .isEqualTo("[{\"line\":1,\"start\":5,\"end\":16,\"bytes\":16}]");
                HttpResponse<String> page = http.send(
                        HttpRequest.newBuilder(URI.create(at + "/search?q=hello"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(page.statusCode()).isEqualTo(200);
                assertThat(page.body()).contains("…</span>hello <mark>world</mark>\n");
            }
        }
    }
}
