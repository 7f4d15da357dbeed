package io.trigrep.backend.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.TestShards;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.Tls;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
class WarmupTest {
    /** A ping's connect and read timeouts: a backend on loopback answers far sooner. */
    private static final int PING_MILLIS = 5000;
    /** A warm-up budget that the rounds end well within. */
    private static final Duration BUDGET = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    @Test
    void aWarmingBackendAnswersSearchesButIsNotReadyUntilWarmed() throws Exception {
        Shard shard =
                TestShards.build(TestShards.CORPUS, dir.resolve("shards"), 1).get(0);
        PrintStream log = new PrintStream(OutputStream.nullOutputStream());
        try (BackendServer server =
                new BackendServer(shard, BackendConfig.defaults(), ShardCheck.pending(shard, true), Tls.PLAIN, log)) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            server.verify(log);
            assertThat(BackendClient.ping(address, PING_MILLIS))
                    .as("readiness while warming")
                    .contains("not ready")
                    .contains("warming up");
            long results = count(address, search("int", false, 0));
            assertThat(results).as("a search while warming is answered in full").isGreaterThan(0);

            server.warmUp(Tls.PLAIN, BUDGET);

            assertThat(BackendClient.ping(address, PING_MILLIS))
                    .as("readiness once warmed")
                    .isNull();
            assertThat(count(address, search("int", false, 0))).isEqualTo(results);
        }
    }

    @Test
    void everyRoundSendsEveryShapeAndEveryShapeIsAValidQuery() throws Exception {
        Shard shard =
                TestShards.build(TestShards.CORPUS, dir.resolve("shards"), 1).get(0);
        try (BackendServer server = new BackendServer(shard, BackendConfig.defaults())) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            Warmup.Outcome done = Warmup.run(address, Tls.PLAIN, BUDGET.toNanos(), System::nanoTime);
            assertThat(done.rounds()).isEqualTo(Warmup.ROUNDS);
            assertThat(done.answered() + done.refused()).isEqualTo(Warmup.ROUNDS * Warmup.SHAPES.size());
            // Whether a sym: shape is refused depends on the shard; every other shape must parse and run.
            for (Warmup.Shape shape : Warmup.SHAPES) {
                if (!shape.query().startsWith("sym:")) {
                    assertThat(refused(address, search(shape.query(), shape.literal(), shape.maxResults())))
                            .as(shape.query())
                            .isFalse();
                }
            }
        }
    }

    @Test
    void warmingStopsAtItsBudget() throws Exception {
        Shard shard =
                TestShards.build(TestShards.CORPUS, dir.resolve("shards"), 1).get(0);
        try (BackendServer server = new BackendServer(shard, BackendConfig.defaults())) {
            InetSocketAddress address = server.start("127.0.0.1", 0);
            // A clock that jumps a second per reading: a budget of 5 s lasts a few searches.
            AtomicLong clock = new AtomicLong();
            Warmup.Outcome done = Warmup.run(address, Tls.PLAIN, 5_000_000_000L, () -> clock.addAndGet(1_000_000_000L));
            assertThat(done.rounds()).isZero();
            assertThat(done.answered() + done.refused()).isBetween(1, 4);
        }
    }

    private static long count(InetSocketAddress backend, MessageBuilder request) throws IOException {
        try (BackendClient.Connection connection = new BackendClient.Connection(backend)) {
            return connection.count(request, last -> true);
        }
    }

    private static boolean refused(InetSocketAddress backend, MessageBuilder request) throws IOException {
        boolean[] refused = {false};
        try (BackendClient.Connection connection = new BackendClient.Connection(backend)) {
            connection.count(request, last -> {
                refused[0] = last.which() == Response.Which.ERROR;
                return true;
            });
        }
        return refused[0];
    }

    private static MessageBuilder search(String query, boolean literal, int maxResults) {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory)
                .initSearch()
                .setQuery(query)
                .setLiteral(literal)
                .setMaxResults(maxResults);
        return request;
    }
}
