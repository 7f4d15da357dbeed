package io.trigrep.backend.server;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.netty.util.internal.PlatformDependent;
import io.trigrep.backend.TestShards;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Done;
import io.trigrep.proto.Failure;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import java.io.BufferedInputStream;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The backend over real TCP: backpressure, cancellation, limits, hostile requests, fetch and ping. */
@Tag("integration")
class BackendServerTest {
    static final int FILES = 20;
    static final int LINES = 10_000;
    /** How long a stalled search's result count must hold still to count as paused. */
    static final Duration STILL = Duration.ofMillis(1500);

    static Path dir;
    static Shard big;
    static Shard small;
    static BackendServer server;
    static InetSocketAddress address;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("backend");
        // 200,000 matching lines: "match" on every line of 20 files (paranoid leak detection makes each write slow).
        Path corpus = dir.resolve("corpus");
        Path pkg = corpus.resolve("many_1.0");
        Files.createDirectories(pkg);
        for (int f = 0; f < FILES; f++) {
            StringBuilder text = new StringBuilder();
            for (int line = 0; line < LINES; line++) {
                text.append("match ").append(line).append('\n');
            }
            Files.writeString(pkg.resolve("f" + f + ".txt"), text);
        }
        Files.writeString(corpus.resolve("many_1.0/redos.txt"), "a".repeat(1500) + "b\n");
        big = TestShards.build(corpus, dir.resolve("big"), 1).get(0);
        small = TestShards.build(TestShards.CORPUS, dir.resolve("small"), 1).get(0);
        server = new BackendServer(
                big, new BackendConfig(2, 2, 5_000_000, Duration.ofSeconds(30), Duration.ofMinutes(5), 10));
        address = server.start("127.0.0.1", 0);
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        io.trigrep.indexer.build.IndexBuilder.class.getName();
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }

    static MessageBuilder search(String query, int maxResults, int deadlineMillis) {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory)
                .initSearch()
                .setQuery(query)
                .setMaxResults(maxResults)
                .setDeadlineMillis(deadlineMillis)
                .setContextLines(2);
        return request;
    }

    record Summary(long results, Response.Which last, Done.Truncation truncation, Failure.Code code, String message) {}

    static Summary run(InetSocketAddress to, MessageBuilder request) throws Exception {
        long[] results = {0};
        Summary[] end = {null};
        BackendClient.exchange(to, request, r -> {
            switch (r.which()) {
                case RESULT -> results[0]++;
                case DONE ->
                    end[0] = new Summary(
                            results[0], Response.Which.DONE, r.getDone().getTruncation(), null, null);
                case ERROR ->
                    end[0] = new Summary(
                            results[0],
                            Response.Which.ERROR,
                            null,
                            r.getError().getCode(),
                            r.getError().getMessage().toString());
                default -> {}
            }
            return true;
        });
        return end[0];
    }

    static MessageBuilder searchByFile(String query) {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory)
                .initSearch()
                .setQuery(query)
                .setContextLines(2)
                .setFileResults(true);
        return request;
    }

    /** The results a message holds: one for a line, a file's matches for a fileResults, none otherwise. */
    static long results(Response.Reader r) {
        return switch (r.which()) {
            case RESULT, FILE_MATCH -> 1;
            case FILE_RESULTS -> r.getFileResults().getMatches().size();
            default -> 0;
        };
    }

    static long usedHeap() {
        System.gc();
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** By line or by file (a frame per 1,024 matches of a file, so the search pauses inside files). */
    @ParameterizedTest(name = "byFile={0}")
    @ValueSource(booleans = {false, true})
    void stalledReaderPausesTheSearchAndMemoryStaysFlat(boolean byFile) throws Exception {
        awaitNoQueries();
        long baseline = server.resultsProduced();
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(32 << 10);
            socket.connect(address);
            MessageBuilder request = byFile ? searchByFile("match") : search("match", 0, 0);
            Framing.write(request, Channels.newChannel(socket.getOutputStream()));
            ReadableByteChannel in = Channels.newChannel(new BufferedInputStream(socket.getInputStream(), 1 << 16));
            ByteBuffer first = Framing.readFrame(in, FrameLimits.DEFAULT);
            assertThat(first).isNotNull();
            long results = results(Messages.response(Framing.read(first, FrameLimits.DEFAULT)));
            // Stall: read nothing. The backend fills the socket, then must pause: wait until the
            // count stops moving, then hold still. Still for STILL (three half seconds): past its
            // quantum the search runs on lowered threads, which a busy machine can leave without a
            // core for one half second. Only time passing shows that nothing moves.
            eventually("the stalled search pauses", PATIENCE, () -> {
                long before = server.resultsProduced();
                Thread.sleep(STILL.toMillis());
                assertThat(server.resultsProduced())
                        .as("results produced in %s", STILL)
                        .isEqualTo(before);
            });
            long heap1 = usedHeap();
            long direct1 = PlatformDependent.usedDirectMemory();
            long produced1 = server.resultsProduced();
            Thread.sleep(STILL.toMillis()); // the stall the memory is measured over
            long heap2 = usedHeap();
            long direct2 = PlatformDependent.usedDirectMemory();
            long produced2 = server.resultsProduced();
            assertThat(server.queriesInFlight()).isEqualTo(1);
            System.out.printf(
                    "stalled: %,d of %,d results produced; heap %,d -> %,d bytes, direct %,d -> %,d bytes%n",
                    produced2 - baseline, (long) FILES * LINES, heap1, heap2, direct1, direct2);
            // Paused: no result is produced while the reader stalls, and nothing piles up.
            assertThat(produced2).as("results produced while stalled").isEqualTo(produced1);
            // Paused before the end: by line, the socket's buffers and the backend's (a few MB) hold
            // under a quarter of the results; by file a result of these one-word lines takes a
            // sixth of the bytes (measured: 19k by line, 118k by file), so only "not all" holds.
            assertThat(produced2 - baseline)
                    .as("results produced before the stall")
                    .isLessThan(byFile ? (long) FILES * LINES : (long) FILES * LINES / 4);
            assertThat(direct2).as("direct memory while stalled").isLessThan(32L << 20);
            assertThat(heap2 - heap1).as("heap growth while stalled").isLessThan(32L << 20);
            // Read on: the search resumes and finishes with every result.
            Response.Which last = null;
            for (ByteBuffer frame; (frame = Framing.readFrame(in, FrameLimits.DEFAULT)) != null; ) {
                Response.Reader r = Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
                last = r.which();
                results += results(r);
                if (last == Response.Which.DONE) {
                    assertThat(r.getDone().getResults()).isEqualTo((long) FILES * LINES);
                    assertThat(r.getDone().getTruncation()).isEqualTo(Done.Truncation.NONE);
                    break;
                }
            }
            assertThat(last).isEqualTo(Response.Which.DONE);
            assertThat(results).isEqualTo((long) FILES * LINES);
        }
        awaitNoQueries();
    }

    @Test
    void disconnectingFreesTheQuery() throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(address);
            Framing.write(search("match", 0, 0), Channels.newChannel(socket.getOutputStream()));
            InputStream in = socket.getInputStream();
            assertThat(in.read(new byte[4096])).isPositive();
            assertThat(server.queriesInFlight()).isEqualTo(1);
        }
        awaitNoQueries();
    }

    static void awaitNoQueries() throws InterruptedException {
        eventually(
                "no query in flight",
                PATIENCE,
                () -> assertThat(server.queriesInFlight())
                        .as("queries in flight")
                        .isZero());
    }

    /** A query's count:N caps what the backend sends as a request's cap does; the lower of both holds. */
    @Test
    void countInTheQueryTruncatesExactly() throws Exception {
        Summary alone = run(address, search("match count:700", 0, 0));
        assertThat(alone.results()).isEqualTo(700);
        assertThat(alone.truncation()).isEqualTo(Done.Truncation.MAX_RESULTS);
        assertThat(run(address, search("match count:700", 300, 0)).results()).isEqualTo(300);
        assertThat(run(address, search("match count:300", 700, 0)).results()).isEqualTo(300);
    }

    @Test
    void maxResultsTruncatesExactly() throws Exception {
        Summary s = run(address, search("match", 1000, 0));
        assertThat(s.results()).isEqualTo(1000);
        assertThat(s.truncation()).isEqualTo(Done.Truncation.MAX_RESULTS);
    }

    @Test
    void deadlineEndsTheSearchWithWhatItHas() throws Exception {
        Summary s = run(address, search("(m|x)a.c.", 0, 1));
        assertThat(s.last()).isEqualTo(Response.Which.DONE);
        assertThat(s.truncation()).isEqualTo(Done.Truncation.DEADLINE);
        assertThat(s.results()).isLessThan((long) FILES * LINES);
    }

    @Test
    void excessQueriesAreRefusedAsOverloaded() throws Exception {
        List<Socket> stalled = new ArrayList<>();
        try {
            for (int i = 0; i < 2; i++) {
                Socket socket = new Socket();
                socket.setReceiveBufferSize(16 << 10);
                socket.connect(address);
                Framing.write(search("match", 0, 0), Channels.newChannel(socket.getOutputStream()));
                stalled.add(socket);
            }
            eventually(
                    "both stalled queries in flight",
                    PATIENCE,
                    () -> assertThat(server.queriesInFlight()).isGreaterThanOrEqualTo(2));
            Summary s = run(address, search("match", 0, 0));
            assertThat(s.code()).isEqualTo(Failure.Code.OVERLOADED);
            assertThat(s.message()).contains("overloaded");
        } finally {
            for (Socket socket : stalled) {
                socket.close();
            }
        }
        awaitNoQueries();
    }

    @Test
    void hostileQueriesEndInAnErrorOrABoundedAnswer() throws Exception {
        assertThat(run(address, search("(a+)+$", 0, 0)).last()).isEqualTo(Response.Which.DONE);
        assertThat(run(address, search("(a|aa)*b", 0, 0)).last()).isEqualTo(Response.Which.DONE);
        Summary nested = run(address, search("(x{1000}){1000}", 0, 0));
        assertThat(nested.code()).isEqualTo(Failure.Code.BAD_QUERY);
        StringBuilder alternation = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            alternation.append(i == 0 ? "" : "|").append("w").append(i);
        }
        assertThat(run(address, search(alternation.toString(), 0, 0)).code()).isEqualTo(Failure.Code.BAD_QUERY);
        Summary huge = run(address, search("a".repeat(1 << 20), 0, 0));
        assertThat(huge.code()).isIn(Failure.Code.BAD_QUERY, Failure.Code.BAD_REQUEST);
        Summary unclosed = run(address, search("foo(bar", 0, 0));
        assertThat(unclosed.code()).isEqualTo(Failure.Code.BAD_QUERY);
        assertThat(unclosed.message()).contains("missing closing )");
        // Invalid UTF-8 in the query text arrives as replacement characters: a valid (if odd) query.
        MessageBuilder invalid = Messages.newBuilder();
        invalid.initRoot(Request.factory)
                .initSearch()
                .setQuery(new String(new byte[] {'m', (byte) 0xff, 'x'}, StandardCharsets.ISO_8859_1));
        assertThat(run(address, invalid).last()).isEqualTo(Response.Which.DONE);
        for (byte[] garbage : List.of(
                new byte[] {1, 2, 3},
                "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
                new byte[] {0, 0, 0, 0, 1, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9})) {
            assertThat(rawExchange(garbage)).as("answer to garbage").isEqualTo(Failure.Code.BAD_REQUEST);
        }
        // And it keeps serving.
        assertThat(run(address, search("match 9999", 0, 0)).results()).isEqualTo(FILES);
    }

    /** Sends bytes that are not a request, then half-closes; returns the error code of the answer. */
    static Failure.Code rawExchange(byte[] bytes) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(address);
            socket.setSoTimeout(40_000);
            socket.getOutputStream().write(bytes);
            socket.shutdownOutput();
            ReadableByteChannel in = Channels.newChannel(socket.getInputStream());
            ByteBuffer frame = Framing.readFrame(in, FrameLimits.DEFAULT);
            assertThat(frame).as("an answer").isNotNull();
            Response.Reader r = Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
            assertThat(r.which()).isEqualTo(Response.Which.ERROR);
            return r.getError().getCode();
        }
    }

    @Test
    void oneConnectionCarriesRequestAfterRequest() throws Exception {
        try (BackendClient.Connection connection = new BackendClient.Connection(address)) {
            for (int i = 0; i < 3; i++) {
                long[] results = {0};
                connection.exchange(search("match " + (9990 + i), 0, 0), r -> {
                    if (r.which() == Response.Which.RESULT) {
                        results[0]++;
                    }
                    return true;
                });
                assertThat(results[0]).isEqualTo(FILES);
                MessageBuilder ping = Messages.newBuilder();
                ping.initRoot(Request.factory).setPing();
                Response.Which[] answer = {null};
                connection.exchange(ping, r -> {
                    answer[0] = r.which();
                    return true;
                });
                assertThat(answer[0]).isEqualTo(Response.Which.STATUS);
            }
        }
        awaitNoQueries();
    }

    @Test
    void aRequestSentWhileAnotherIsAnsweredClosesTheConnection() throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(address);
            var out = Channels.newChannel(socket.getOutputStream());
            Framing.write(search("match", 0, 0), out);
            Framing.write(search("match", 0, 0), out);
            // Read to the end: the backend closes the connection. A read left waiting fails the test.
            socket.setSoTimeout((int) PATIENCE.toMillis());
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[1 << 16];
            while (in.read(buffer) >= 0) {
                // drained
            }
        }
        awaitNoQueries();
    }

    static byte[] bytes(org.capnproto.Data.Reader data) {
        byte[] out = new byte[data.size];
        data.buffer.get(data.offset, out, 0, data.size);
        return out;
    }

    @Test
    void fetchAndPing() throws Exception {
        try (BackendServer smallServer = new BackendServer(small, BackendConfig.defaults())) {
            InetSocketAddress at = smallServer.start("127.0.0.1", 0);
            MessageBuilder fetch = Messages.newBuilder();
            fetch.initRoot(Request.factory)
                    .initFetchFile()
                    .setPackage("zlib_1.2.13.dfsg-1")
                    .setPath("adler32.c");
            byte[][] content = {null};
            BackendClient.exchange(at, fetch, r -> {
                content[0] = bytes(r.getFile().getContent());
                return true;
            });
            assertThat(content[0])
                    .isEqualTo(Files.readAllBytes(TestShards.CORPUS.resolve("zlib_1.2.13.dfsg-1/adler32.c")));
            for (String[] bad : new String[][] {
                {"zlib_1.2.13.dfsg-1", "../../etc/passwd"},
                {"zlib_1.2.13.dfsg-1", "/etc/passwd"},
                {"..", "adler32.c"},
                {"zlib_1.2.13.dfsg-1", ""}
            }) {
                MessageBuilder m = Messages.newBuilder();
                m.initRoot(Request.factory).initFetchFile().setPackage(bad[0]).setPath(bad[1]);
                assertThat(run(at, m).code()).as("fetch %s/%s", bad[0], bad[1]).isEqualTo(Failure.Code.BAD_REQUEST);
            }
            MessageBuilder missing = Messages.newBuilder();
            missing.initRoot(Request.factory)
                    .initFetchFile()
                    .setPackage("zlib_1.2.13.dfsg-1")
                    .setPath("nope.c");
            assertThat(run(at, missing).code()).isEqualTo(Failure.Code.NOT_FOUND);
            MessageBuilder ping = Messages.newBuilder();
            ping.initRoot(Request.factory).setPing();
            long[] files = {0};
            BackendClient.exchange(at, ping, r -> {
                files[0] = r.getStatus().getFiles();
                return true;
            });
            assertThat(files[0]).isEqualTo(small.docs().docCount());
        }
    }
}
