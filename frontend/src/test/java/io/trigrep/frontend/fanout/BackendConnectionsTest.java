package io.trigrep.frontend.fanout;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.backend.server.BackendConfig;
import io.trigrep.backend.server.BackendServer;
import io.trigrep.frontend.metrics.FrontendMetrics;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.Tls;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The frontend keeps its connections to backends across queries, and never trusts one a query cut short. */
@Tag("integration")
class BackendConnectionsTest {
    /** A search deadline every search here meets on a busy machine. */
    static final Duration DEADLINE = Duration.ofSeconds(30);

    @TempDir
    Path dir;

    List<Shard> shards;
    final List<BackendServer> servers = new ArrayList<>();
    final List<InetSocketAddress> addresses = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        shards = TestShards.build(FanOutTest.CORPUS, dir.resolve("two"), 2);
        for (Shard shard : shards) {
            BackendServer server = new BackendServer(shard, BackendConfig.defaults());
            addresses.add(server.start("127.0.0.1", 0));
            servers.add(server);
        }
    }

    @AfterEach
    void stop() {
        servers.forEach(BackendServer::close);
    }

    private static List<String> answer(FanOut fanOut, String query, QueryCaps caps) throws Exception {
        try (QueryRun run = fanOut.search(query, false, 1, DEADLINE, caps)) {
            run.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            assertThat(run.failed()).as(query).isEmpty();
            return FanOutTest.results(run);
        }
    }

    @Test
    void queriesOneAfterAnotherShareOneConnectionPerBackend() throws Exception {
        QueryCaps caps = QueryCaps.forCache(1L << 30);
        try (FanOut fanOut = new FanOut(addresses, dir.resolve("data"), 2)) {
            List<String> first = answer(fanOut, "int", caps);
            assertThat(first).isNotEmpty();
            for (int i = 0; i < 20; i++) {
                assertThat(answer(fanOut, i % 2 == 0 ? "int" : "nothing-at-all", caps))
                        .isEqualTo(i % 2 == 0 ? first : List.of());
            }
            for (int shard = 0; shard < addresses.size(); shard++) {
                assertThat(fanOut.connectionsOpened(shard))
                        .as("connections opened to backend " + shard)
                        .isEqualTo(1);
            }
        }
    }

    @Test
    void theNewestIdleConnectionIsPingedOpenWhileTheOthersAreClosed() throws Exception {
        // One kept per backend, pinged after 1 s of idle; the others closed after 100 ms.
        BackendConnections.Idle idle = new BackendConnections.Idle(1_000, 100, 1);
        QueryCaps caps = QueryCaps.forCache(1L << 30);
        try (FanOut fanOut =
                new FanOut(addresses, dir.resolve("data"), 2, new FrontendMetrics(), Tls.PLAIN, false, idle)) {
            // Two queries at once: two connections to each backend, both given back.
            try (QueryRun a = fanOut.search("int", false, 1, DEADLINE, caps);
                    QueryRun b = fanOut.search("return", false, 1, DEADLINE, caps)) {
                a.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                b.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            }
            for (int shard = 0; shard < addresses.size(); shard++) {
                assertThat(fanOut.connectionsOpened(shard)).isEqualTo(2);
            }
            // Two pings answered on each backend's kept connection: more than 2 s idle in all,
            // twenty times the others' limit.
            eventually("two pings answered per backend", PATIENCE, () -> {
                for (int shard = 0; shard < addresses.size(); shard++) {
                    assertThat(fanOut.connectionPings(shard))
                            .as("pings answered by backend %d", shard)
                            .isGreaterThanOrEqualTo(2);
                }
            });
            // Asked right after an answer, so no ping is under way.
            List<String> answer = answer(fanOut, "int", caps);
            assertThat(answer).isNotEmpty();
            for (int shard = 0; shard < addresses.size(); shard++) {
                assertThat(fanOut.connectionsOpened(shard))
                        .as("the query after 2 s of idle took the kept connection to backend " + shard)
                        .isEqualTo(2);
                assertThat(fanOut.connectionsIdle(shard))
                        .as("the burst's other connection was closed")
                        .isEqualTo(1);
            }
        }
    }

    @Test
    void aBackendRestartedBetweenQueriesIsAskedAgainOnANewConnection() throws Exception {
        QueryCaps caps = QueryCaps.forCache(1L << 30);
        try (FanOut fanOut = new FanOut(addresses, dir.resolve("data"), 2)) {
            List<String> before = answer(fanOut, "return", caps);
            servers.get(1).close();
            BackendServer again = new BackendServer(shards.get(1), BackendConfig.defaults());
            servers.add(again);
            again.start("127.0.0.1", addresses.get(1).getPort());

            assertThat(answer(fanOut, "return", caps))
                    .as("the answer after the restart, on the kept connection that died")
                    .isEqualTo(before);
            assertThat(fanOut.connectionsOpened(1)).isEqualTo(2);
            assertThat(fanOut.connectionsOpened(0)).isEqualTo(1);
            // The metric reads the count through a reference nothing else holds: a collection
            // must not freeze it at its last value (it read 0 here before).
            System.gc();
            String series = "trigrep_backend_connections_opened_total{shard=\"127.0.0.1:"
                    + addresses.get(1).getPort() + "\"} ";
            assertThat(fanOut.metrics().scrape().lines().filter(l -> l.startsWith(series)))
                    .containsExactly(series + "2.0");
        }
    }

    @Test
    void anAnswerCutAtTheByteCapClosesItsConnection() throws Exception {
        try (FanOut fanOut = new FanOut(addresses, dir.resolve("data"), 2)) {
            try (QueryRun run = fanOut.search("int", false, 1, DEADLINE, new QueryCaps(1_000_000, 2))) {
                run.completion().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                assertThat(run.capped()).isNotNull();
            }
            List<String> whole = answer(fanOut, "int", QueryCaps.forCache(1L << 30));
            assertThat(whole).isNotEmpty();
            for (int shard = 0; shard < addresses.size(); shard++) {
                assertThat(fanOut.connectionsOpened(shard))
                        .as("a cut answer's connection is never given to the next query")
                        .isEqualTo(2);
            }
        }
    }
}
