package io.trigrep.frontend.cli;

import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.fanout.QueryCaps;
import io.trigrep.frontend.fanout.Topology;
import io.trigrep.frontend.http.ConnectionLimits;
import io.trigrep.frontend.http.FrontendServer;
import io.trigrep.frontend.http.SearchLimits;
import io.trigrep.frontend.metrics.FrontendMetrics;
import io.trigrep.proto.Tls;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code ./trigrep frontend}: the HTTP JSON API over a set of backends, until stopped. */
@Command(
        name = "frontend",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Serve the HTTP JSON API, fanning each query out to every backend.")
public final class FrontendCommand implements Callable<Integer> {
    @Option(
            names = "--backends",
            required = true,
            split = ",",
            defaultValue = "${env:TRIGREP_BACKENDS}",
            description = "host:port of each shard's backend, comma-separated; the replicas of one shard joined by |"
                    + " (h1:7001|h2:7001,h3:7001|h4:7001); a name resolving to several addresses is that many replicas"
                    + " (env TRIGREP_BACKENDS)")
    List<String> backends;

    @Option(
            names = "--data",
            required = true,
            defaultValue = "${env:TRIGREP_DATA_DIR}",
            description = "folder for query files (env TRIGREP_DATA_DIR)")
    Path data;

    @Option(
            names = "--port",
            defaultValue = "${env:TRIGREP_PORT:-8080}",
            description = "HTTP port (env TRIGREP_PORT; default ${DEFAULT-VALUE})")
    int port;

    @Option(
            names = "--bind",
            defaultValue = "${env:TRIGREP_BIND:-127.0.0.1}",
            description = "address to listen on (env TRIGREP_BIND; default ${DEFAULT-VALUE})")
    String bind;

    @Option(
            names = "--max-queries",
            defaultValue = "${env:TRIGREP_MAX_QUERIES:-32}",
            description =
                    "new searches running at once; more get 429 (cache hits and pages of finished queries never count) "
                            + "(env TRIGREP_MAX_QUERIES; default ${DEFAULT-VALUE})")
    int maxQueries;

    @Option(
            names = "--max-expensive-queries",
            defaultValue = "${env:TRIGREP_MAX_EXPENSIVE_QUERIES:-1}",
            description = "of which full scans (no trigram every match needs: ., [a-z]+); more get 429 "
                    + "(env TRIGREP_MAX_EXPENSIVE_QUERIES; default ${DEFAULT-VALUE})")
    int maxExpensive;

    @Option(
            names = "--max-queries-per-client",
            defaultValue = "${env:TRIGREP_MAX_QUERIES_PER_CLIENT:-8}",
            description =
                    "of which started by one client address; more get 429 (env TRIGREP_MAX_QUERIES_PER_CLIENT; default ${DEFAULT-VALUE})")
    int maxPerClient;

    @Option(
            names = "--trusted-proxies",
            defaultValue = "${env:TRIGREP_TRUSTED_PROXIES:-}",
            description =
                    "addresses or CIDR blocks (10.0.0.0/8,::1) of proxies whose X-Forwarded-For names the client; "
                            + "from any other peer the header is ignored (env TRIGREP_TRUSTED_PROXIES; default none)")
    String trustedProxies;

    @Option(
            names = "--max-query-results",
            defaultValue = "${env:TRIGREP_MAX_QUERY_RESULTS:-1000000}",
            description = "results one query keeps at most, split over the shards; a capped answer says so "
                    + "(env TRIGREP_MAX_QUERY_RESULTS; default ${DEFAULT-VALUE})")
    int maxQueryResults;

    @Option(
            names = "--max-query-bytes",
            defaultValue = "${env:TRIGREP_MAX_QUERY_BYTES:-0}",
            description =
                    "bytes of results one query writes to disk at most, split over the shards; a capped answer says so "
                            + "(env TRIGREP_MAX_QUERY_BYTES; default 0: a quarter of --cache-bytes)")
    long maxQueryBytes;

    @Option(
            names = "--cache-bytes",
            defaultValue = "${env:TRIGREP_CACHE_BYTES:-1073741824}",
            description =
                    "disk for finished queries' files, least recently used evicted first (env TRIGREP_CACHE_BYTES; default ${DEFAULT-VALUE})")
    long cacheBytes;

    @Option(
            names = "--min-free-bytes",
            defaultValue = "${env:TRIGREP_MIN_FREE_BYTES:-1073741824}",
            description =
                    "evict finished queries while the data disk has less free (env TRIGREP_MIN_FREE_BYTES; default ${DEFAULT-VALUE})")
    long minFreeBytes;

    @Option(
            names = "--direct-tee",
            negatable = true,
            defaultValue = "${env:TRIGREP_DIRECT_TEE:-false}",
            description =
                    "write big queries' result files with direct I/O, around the page cache: less CPU per byte, but the "
                            + "disk's work is done during the query, which a virtual machine's host takes from its cores "
                            + "(env TRIGREP_DIRECT_TEE; default ${DEFAULT-VALUE}: through the page cache)")
    boolean directTee;

    @Option(
            names = "--max-connections",
            defaultValue = "${env:TRIGREP_MAX_CONNECTIONS:-0}",
            description =
                    "open HTTP connections at most; at the cap the oldest one with nothing in progress is closed for a new one "
                            + "(env TRIGREP_MAX_CONNECTIONS; default 0: three quarters of the open-file limit less 256)")
    int maxConnections;

    @Option(
            names = "--request-timeout-ms",
            defaultValue = "${env:TRIGREP_REQUEST_TIMEOUT_MS:-10000}",
            description =
                    "a request's headers and body must arrive within this, else 408 (env TRIGREP_REQUEST_TIMEOUT_MS; default ${DEFAULT-VALUE})")
    long requestTimeoutMs;

    @Option(
            names = "--idle-timeout-ms",
            defaultValue = "${env:TRIGREP_IDLE_TIMEOUT_MS:-60000}",
            description =
                    "close a keep-alive connection idle this long (env TRIGREP_IDLE_TIMEOUT_MS; default ${DEFAULT-VALUE})")
    long idleTimeoutMs;

    @Option(
            names = "--answer-timeout-ms",
            defaultValue = "${env:TRIGREP_ANSWER_TIMEOUT_MS:-120000}",
            description = "close a connection whose answer, event streams included, is not written within this "
                    + "(env TRIGREP_ANSWER_TIMEOUT_MS; default ${DEFAULT-VALUE})")
    long answerTimeoutMs;

    @Option(
            names = "--tls-cert",
            defaultValue = "${env:TRIGREP_TLS_CERT}",
            description =
                    "PEM client certificate presented to backends; with --tls-key and --tls-ca every backend connection is "
                            + "mutual TLS (env TRIGREP_TLS_CERT; default: plain TCP)")
    Path tlsCert;

    @Option(
            names = "--tls-key",
            defaultValue = "${env:TRIGREP_TLS_KEY}",
            description = "PEM PKCS#8 private key of --tls-cert (env TRIGREP_TLS_KEY)")
    Path tlsKey;

    @Option(
            names = "--warmup-ms",
            defaultValue = "${env:TRIGREP_WARMUP_MS:-1200}",
            description =
                    "once every backend is ready, replay a fixed list of requests through the own port for up to this long "
                            + "before /readyz says ready; 0 turns it off (env TRIGREP_WARMUP_MS; default ${DEFAULT-VALUE})")
    long warmupMs;

    @Option(
            names = "--status-poll-ms",
            defaultValue = "${env:TRIGREP_STATUS_POLL_MS:-5000}",
            description =
                    "ask every backend for its status (counts, and its shard's generation: cached answers of an older one are "
                            + "not served) this often (env TRIGREP_STATUS_POLL_MS; default ${DEFAULT-VALUE})")
    long statusPollMs;

    @Option(
            names = "--tls-ca",
            defaultValue = "${env:TRIGREP_TLS_CA}",
            description =
                    "PEM CA certificate that must have signed each backend's certificate, which must name the host as given in "
                            + "--backends (env TRIGREP_TLS_CA)")
    Path tlsCa;

    /** How often the warm-up asks whether every backend is ready before it starts. */
    private static final long BACKEND_POLL_MILLIS = 100;

    @Override
    public Integer call() throws Exception {
        Tls tls = Tls.fromOptions(tlsCert, tlsKey, tlsCa, false);
        Topology topology = Topology.parse(backends);
        List<InetSocketAddress> addresses = topology.all();
        FanOut fanOut = new FanOut(topology, data, 2, new FrontendMetrics(), tls, directTee);
        ConnectionLimits defaults = ConnectionLimits.defaults();
        ConnectionLimits limits = new ConnectionLimits(
                maxConnections > 0 ? maxConnections : defaults.maxConnections(),
                Duration.ofMillis(requestTimeoutMs),
                Duration.ofMillis(idleTimeoutMs),
                Duration.ofMillis(answerTimeoutMs),
                defaults.maxPipelined());
        QueryCaps caps = new QueryCaps(
                maxQueryResults,
                maxQueryBytes > 0
                        ? maxQueryBytes
                        : QueryCaps.forCache(cacheBytes).maxBytes());
        SearchLimits search = new SearchLimits(maxQueries, maxExpensive, maxPerClient, trustedProxies, caps);
        FrontendServer server =
                new FrontendServer(fanOut, search, new QueryCache(data, cacheBytes, minFreeBytes), limits);
        server.pollStatusEvery(Duration.ofMillis(statusPollMs));
        if (warmupMs > 0) {
            server.holdReadinessForWarmUp();
        }
        InetSocketAddress address = server.start(bind, port);
        if (warmupMs > 0) {
            Thread warm = new Thread(
                    () -> {
                        try {
                            while (!server.backendsReady()) {
                                Thread.sleep(BACKEND_POLL_MILLIS);
                            }
                        } catch (InterruptedException e) {
                            server.skipWarmUp();
                            return;
                        }
                        server.warmUp(Duration.ofMillis(warmupMs), System.err);
                    },
                    "trigrep-warmup");
            warm.setDaemon(true);
            warm.start();
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            server.close();
                            fanOut.close();
                            stopped.countDown();
                        },
                        "trigrep-frontend-shutdown"));
        System.out.println("frontend listening on http://" + address.getHostString() + ":" + address.getPort() + "/ ("
                + topology.shards().size() + " shards, " + addresses.size() + " backends"
                + (tls.enabled() ? ", mutual TLS" : "") + ")");
        System.out.flush();
        stopped.await();
        return 0;
    }

    public static void main(String[] args) {
        CommandLine line = new CommandLine(new FrontendCommand()).setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 2;
        });
        System.exit(line.execute(args));
    }
}
