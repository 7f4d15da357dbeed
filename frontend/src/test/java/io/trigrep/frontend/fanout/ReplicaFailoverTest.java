package io.trigrep.frontend.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.backend.server.BackendConfig;
import io.trigrep.backend.server.BackendServer;
import io.trigrep.frontend.metrics.FrontendMetrics;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.Tls;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A shard of two replicas, one of which breaks every answer longer than {@link #CUT} bytes
 * mid-stream (a proxy to the other that closes the connection): a search that went to it fails
 * over to the other, and the results it had sent are not in the answer, which holds each result
 * once.
 */
@Tag("integration")
class ReplicaFailoverTest {
    static final Path CORPUS = Path.of("../source-backend/src/test/resources/corpus");
    /** Past a status answer, far short of the query's. */
    static final int CUT = 8192;

    static final String QUERY = "int";

    static Path dir;
    static BackendServer backend;
    static InetSocketAddress direct;
    static ServerSocket proxy;

    @BeforeAll
    static void start() throws Exception {
        dir = Files.createTempDirectory("replicas");
        backend = new BackendServer(
                TestShards.build(CORPUS, dir.resolve("one"), 1).get(0), BackendConfig.defaults());
        direct = backend.start("127.0.0.1", 0);
        proxy = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
        Thread accept = new Thread(
                () -> {
                    try {
                        while (true) {
                            Socket client = proxy.accept();
                            Socket server = new Socket(direct.getAddress(), direct.getPort());
                            pump(client.getInputStream(), server.getOutputStream(), Long.MAX_VALUE, client, server);
                            pump(server.getInputStream(), client.getOutputStream(), CUT, client, server);
                        }
                    } catch (IOException closed) {
                        // the test is over
                    }
                },
                "cutting-proxy");
        accept.setDaemon(true);
        accept.start();
    }

    /** Copies {@code in} to {@code out} until {@code limit} bytes, then closes both sockets. */
    private static void pump(InputStream in, OutputStream out, long limit, Socket a, Socket b) {
        Thread t = new Thread(
                () -> {
                    byte[] buffer = new byte[1024];
                    long copied = 0;
                    try {
                        for (int n; copied < limit && (n = in.read(buffer)) > 0; ) {
                            int take = (int) Math.min(n, limit - copied);
                            out.write(buffer, 0, take);
                            out.flush();
                            copied += take;
                        }
                    } catch (IOException closed) {
                        // either side went away: close both
                    }
                    try {
                        a.close();
                        b.close();
                    } catch (IOException ignored) {
                        // closing
                    }
                },
                "cutting-proxy-pump");
        t.setDaemon(true);
        t.start();
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.close();
        backend.close();
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void aReplicaFailingMidStreamLeavesNoResultBehind() throws Exception {
        TreeSet<String> expected = new TreeSet<>();
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory).initSearch().setQuery(QUERY);
        BackendClient.exchange(direct, request, r -> {
            if (r.which() == Response.Which.RESULT) {
                expected.add(r.getResult().getPackage() + "/" + r.getResult().getPath() + ":"
                        + r.getResult().getLine());
            }
            return true;
        });
        assertThat(expected.size()).as("an answer far longer than the cut").isGreaterThan(200);
        InetSocketAddress cutting = new InetSocketAddress("127.0.0.1", proxy.getLocalPort());
        Topology topology = new Topology(List.of(List.of(cutting, direct)));
        // A frontend's first search picks either replica; later ones prefer the one with the
        // shorter recent latency. Each round is a new frontend, so the breaking replica keeps
        // being asked until it has broken three searches, however the machine times them.
        double failovers = 0;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (failovers < 3 && System.nanoTime() < deadline) {
            FrontendMetrics metrics = new FrontendMetrics();
            try (FanOut fanOut = new FanOut(topology, dir.resolve("data"), 2, metrics, Tls.PLAIN, false)) {
                String shard = fanOut.shardNames().get(0);
                assertThat(shard).isEqualTo("127.0.0.1:" + cutting.getPort() + "|127.0.0.1:" + direct.getPort());
                for (int i = 0; i < 3; i++) {
                    try (QueryRun run = fanOut.search(QUERY, false, 0, Duration.ofSeconds(30))) {
                        run.completion().get(30, TimeUnit.SECONDS);
                        assertThat(run.failed()).isEmpty();
                        List<String> results = FanOutTest.results(run);
                        Set<String> once = new HashSet<>(results);
                        assertThat(once).as("each result once").hasSize(results.size());
                        assertThat(new TreeSet<>(results)).isEqualTo(expected);
                    }
                }
            }
            failovers += failovers(metrics);
        }
        assertThat(failovers).as("searches the cutting replica broke").isGreaterThanOrEqualTo(3);
    }

    private static final Pattern FAILOVERS = Pattern.compile("(?m)^trigrep_replica_failovers_total\\{[^}]*} (\\S+)$");

    private static double failovers(FrontendMetrics metrics) {
        Matcher m = FAILOVERS.matcher(metrics.scrape());
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
