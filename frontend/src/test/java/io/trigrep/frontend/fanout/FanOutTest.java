package io.trigrep.frontend.fanout;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.backend.server.BackendConfig;
import io.trigrep.backend.server.BackendServer;
import io.trigrep.frontend.metrics.FrontendMetrics;
import io.trigrep.frontend.query.QueryService;
import io.trigrep.frontend.query.StoredResult;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.FileResultsIndex;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.Result;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The fan-out against three real backends over loopback: the teed and indexed results equal the
 * unsharded corpus's, and a refused connection, a garbage stream or a silent backend each make a
 * partial answer that names the shard, within the deadline.
 */
@Tag("integration")
class FanOutTest {
    /** A search deadline every search here meets on a busy machine. */
    static final Duration DEADLINE = Duration.ofSeconds(30);

    static final Path CORPUS = Path.of("../source-backend/src/test/resources/corpus");
    static Path dir;
    static List<BackendServer> servers = new ArrayList<>();
    static List<InetSocketAddress> addresses = new ArrayList<>();
    static InetSocketAddress whole;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("fanout");
        for (Shard shard : TestShards.build(CORPUS, dir.resolve("three"), 3)) {
            BackendServer server = new BackendServer(shard, BackendConfig.defaults());
            addresses.add(server.start("127.0.0.1", 0));
            servers.add(server);
        }
        BackendServer unsharded = new BackendServer(
                TestShards.build(CORPUS, dir.resolve("one"), 1).get(0), BackendConfig.defaults());
        whole = unsharded.start("127.0.0.1", 0);
        servers.add(unsharded);
    }

    @AfterAll
    static void stop() throws Exception {
        for (BackendServer s : servers) {
            s.close();
        }
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }

    static TreeSet<String> unsharded(String query) throws Exception {
        TreeSet<String> out = new TreeSet<>();
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory).initSearch().setQuery(query);
        BackendClient.exchange(whole, request, r -> {
            if (r.which() == Response.Which.RESULT) {
                out.add(r.getResult().getPackage() + "/" + r.getResult().getPath() + ":"
                        + r.getResult().getLine());
            }
            return true;
        });
        return out;
    }

    /** The run's results in rank order, as package/path:line, read back from its tee. */
    static List<String> results(QueryRun run) throws Exception {
        List<String> out = new ArrayList<>();
        ResultIndex index = run.index();
        for (int rank = 0; rank < index.size(); rank++) {
            StoredResult stored = QueryService.read(run, index.sorted(rank));
            if (stored.file() != null) {
                FileResultsIndex file = stored.file();
                int line = file.match(stored.match()).getLine();
                out.add(file.pkg() + "/" + file.path() + ":" + file.number(line));
            } else {
                Result.Reader result = stored.response().getResult();
                out.add(result.getPackage() + "/" + result.getPath() + ":" + result.getLine());
            }
        }
        return out;
    }

    @Test
    void threeShardsGiveTheUnshardedResultsSorted() throws Exception {
        try (FanOut fanOut = new FanOut(addresses, dir.resolve("data"), 2)) {
            for (String query : List.of("int", "return", "(?i)hello", "lua_[A-Z]\\w+", "nothing-at-all")) {
                try (QueryRun run = fanOut.search(query, false, 2, DEADLINE)) {
                    run.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                    assertThat(run.failed()).isEmpty();
                    List<String> got = results(run);
                    assertThat(new TreeSet<>(got))
                            .as(query)
                            .isEqualTo(unsharded(query))
                            .hasSize(got.size());
                    for (int rank = 1; rank < run.index().size(); rank++) {
                        assertThat(run.index().ranking(run.index().sorted(rank)))
                                .isLessThanOrEqualTo(
                                        run.index().ranking(run.index().sorted(rank - 1)));
                    }
                }
            }
        }
    }

    /**
     * A heavy answer's tee goes through the page cache unless the fan-out was told to write it
     * around it (direct I/O, where the file system allows it), and the answer is whole either way.
     */
    @Test
    void theTeeWritesThroughThePageCacheUnlessToldToWriteDirect() throws Exception {
        Path corpus = dir.resolve("heavy-corpus/pkg");
        Files.createDirectories(corpus);
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 40_000; i++) {
            text.append("int heavy_")
                    .append(i)
                    .append(" = ")
                    .append(i)
                    .append("; /* a line long enough that 40,000 of them")
                    .append(" fill several of the tee's buffers */\n");
        }
        Files.writeString(corpus.resolve("heavy.c"), text);
        BackendServer server = new BackendServer(
                TestShards.build(corpus.getParent(), dir.resolve("heavy-shard"), 1)
                        .get(0),
                BackendConfig.defaults());
        try {
            List<InetSocketAddress> one = List.of(server.start("127.0.0.1", 0));
            for (boolean direct : new boolean[] {false, true}) {
                Path data = dir.resolve("data-tee-" + direct);
                try (FanOut fanOut =
                                new FanOut(one, data, 2, new FrontendMetrics(), io.trigrep.proto.Tls.PLAIN, direct);
                        QueryRun run = fanOut.search("heavy_", false, 2, DEADLINE)) {
                    run.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                    assertThat(run.failed()).isEmpty();
                    assertThat(run.index().size()).isEqualTo(40_000);
                    assertThat(run.tee().size()).as("several full buffers").isGreaterThan(3L << 20);
                    String fileSystem = Files.getFileStore(data).type();
                    if (!direct || List.of("ext4", "xfs", "btrfs").contains(fileSystem)) {
                        assertThat(run.tee().direct())
                                .as("direct I/O on " + fileSystem)
                                .isEqualTo(direct);
                    }
                }
            }
        } finally {
            server.close();
        }
    }

    /**
     * A finished run is garbage once nobody holds it: the deadline's scheduled task held each run,
     * with all its result records, for the whole deadline, and 30 s of capped full scans ran the
     * frontend out of heap (bench/load.sh with an abuser).
     */
    @Test
    void aFinishedRunIsNotHeldUntilItsDeadline() throws Exception {
        try (FanOut fanOut = new FanOut(addresses, dir.resolve("data-held"), 2)) {
            java.lang.ref.WeakReference<QueryRun> finished = searchAndClose(fanOut);
            // Well before the deadline of 10 minutes: the deadline's task is let go by a callback
            // that may run after the test thread saw the run complete.
            eventually("the finished run collected", PATIENCE, () -> {
                System.gc();
                assertThat(finished.get())
                        .as("the finished run, held by its deadline's task")
                        .isNull();
            });
        }
    }

    private static java.lang.ref.WeakReference<QueryRun> searchAndClose(FanOut fanOut) throws Exception {
        try (QueryRun run = fanOut.search("int", false, 0, Duration.ofMinutes(10))) {
            run.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            return new java.lang.ref.WeakReference<>(run);
        }
    }

    @Test
    void sameQueryGivesTheSameOrderEveryTime() throws Exception {
        try (FanOut fanOut = new FanOut(addresses, dir.resolve("data"), 2)) {
            List<String> first = null;
            for (int i = 0; i < 3; i++) {
                try (QueryRun run = fanOut.search("int", false, 0, DEADLINE)) {
                    run.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                    List<String> got = results(run);
                    if (first == null) {
                        first = got;
                    } else {
                        assertThat(got).isEqualTo(first);
                    }
                }
            }
        }
    }

    @Test
    void failingBackendsMakeAPartialAnswerNamingThem() throws Exception {
        int refused;
        try (ServerSocket closed = new ServerSocket(0)) {
            refused = closed.getLocalPort();
        }
        try (ServerSocket garbage = new ServerSocket(0);
                ServerSocket silent = new ServerSocket(0)) {
            // Each accepts every connection: the frontend's health pings come on connections of their own.
            Thread garbageThread = new Thread(() -> {
                List<Socket> open = new ArrayList<>();
                try {
                    while (true) {
                        Socket s = garbage.accept();
                        open.add(s);
                        OutputStream out = s.getOutputStream();
                        out.write("HTTP/1.1 200 OK\r\n\r\nnot a frame".getBytes());
                        out.flush();
                    }
                } catch (Exception ignored) {
                    // the test is over
                }
            });
            Thread silentThread = new Thread(() -> {
                List<Socket> open = new ArrayList<>();
                try {
                    while (true) {
                        open.add(silent.accept()); // silent past the deadline and the test; a daemon
                    }
                } catch (Exception ignored) {
                    // the test is over
                }
            });
            garbageThread.setDaemon(true);
            silentThread.setDaemon(true);
            garbageThread.start();
            silentThread.start();
            List<InetSocketAddress> mixed = List.of(
                    addresses.get(0),
                    new InetSocketAddress("127.0.0.1", refused),
                    new InetSocketAddress("127.0.0.1", garbage.getLocalPort()),
                    new InetSocketAddress("127.0.0.1", silent.getLocalPort()));
            try (FanOut fanOut = new FanOut(mixed, dir.resolve("data"), 2);
                    // A deadline the real backend's answer meets even on a busy machine; the silent
                    // peer, whose pings fail too, is given up as stalled before it.
                    QueryRun run = fanOut.search("int", false, 0, Duration.ofSeconds(5))) {
                long start = System.nanoTime();
                run.completion().get(60, TimeUnit.SECONDS);
                assertThat(System.nanoTime() - start)
                        .as("answered before the silent peer gives up")
                        .isLessThan(TimeUnit.SECONDS.toNanos(30));
                List<ShardStatus> statuses = run.statuses();
                assertThat(statuses.get(0).state()).isEqualTo(ShardStatus.State.DONE);
                assertThat(statuses.get(1).reason()).startsWith("cannot connect");
                assertThat(statuses.get(2).reason()).startsWith("malformed stream");
                assertThat(statuses.get(3).outcome()).isEqualTo(ShardStatus.Outcome.STALLED);
                assertThat(run.index().size()).isEqualTo(statuses.get(0).results());
            }
        }
    }

    /**
     * A byte cap keeps exactly the result frames that fit, in the order the backend sent them:
     * with the cap falling inside a frame, the results are the uncapped stream's up to that frame.
     * A query matching most lines, so that the stream arrives in several reads and the count
     * carries from one to the next.
     */
    @Test
    void theByteCapKeepsExactlyTheResultFramesThatFit() throws Exception {
        // The whole corpus on one backend: results by file send each line once, and one shard of
        // three no longer streams several reads' worth.
        try (FanOut one = new FanOut(List.of(whole), dir.resolve("data-byte-cap"), 2)) {
            List<Integer> lengths;
            try (QueryRun all = one.search("[a-z]", false, 5, DEADLINE, new QueryCaps(1_000_000, 1L << 30))) {
                all.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                assertThat(all.capped()).isNull();
                lengths = frameLengths(all.index());
            }
            // The cut falls past the first read's worth of frames, inside a later run of them.
            int kept = 0;
            long cap = 0;
            while (kept < lengths.size() && cap <= FanOut.MAX_READ_BYTES) {
                cap += lengths.get(kept++);
            }
            assertThat(kept).as("frames past the first read's worth").isLessThan(lengths.size());
            cap += lengths.get(kept) / 2;
            try (QueryRun cut = one.search("[a-z]", false, 5, DEADLINE, new QueryCaps(1_000_000, cap))) {
                cut.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                assertThat(cut.capped()).isNotNull();
                assertThat(cut.capped().reason()).isEqualTo("bytes");
                assertThat(frameLengths(cut.index())).isEqualTo(lengths.subList(0, kept));
            }
        }
    }

    /** The lengths of the result frames, in arrival order: a file's matching lines share one. */
    private static List<Integer> frameLengths(ResultIndex index) {
        List<Integer> lengths = new ArrayList<>();
        for (int r = 0; r < index.size(); r++) {
            if (index.match(r) == 0) {
                lengths.add(index.length(r));
            }
        }
        return lengths;
    }
}
