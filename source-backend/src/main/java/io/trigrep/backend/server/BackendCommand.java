package io.trigrep.backend.server;

import io.trigrep.backend.ops.OpsServer;
import io.trigrep.indexer.segments.LiveShard;
import io.trigrep.indexer.segments.Segment;
import io.trigrep.proto.Tls;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./trigrep backend}: serves one shard until stopped (SIGTERM or Ctrl-C), switching to
 * each newer generation of its index as updates commit them.
 */
@Command(
        name = "backend",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Serve one shard: regex search streamed as Cap'n Proto messages over TCP.")
public final class BackendCommand implements Callable<Integer> {
    @Option(
            names = "--shard",
            required = true,
            defaultValue = "${env:TRIGREP_SHARD}",
            description = "shard folder (env TRIGREP_SHARD)")
    Path shard;

    @Option(
            names = "--port",
            defaultValue = "${env:TRIGREP_PORT:-0}",
            description = "TCP port, 0 for any free one (env TRIGREP_PORT)")
    int port;

    @Option(
            names = "--bind",
            defaultValue = "${env:TRIGREP_BIND:-127.0.0.1}",
            description = "address to listen on (env TRIGREP_BIND; default ${DEFAULT-VALUE})")
    String bind;

    @Option(
            names = "--http-port",
            defaultValue = "${env:TRIGREP_HTTP_PORT:--1}",
            description =
                    "HTTP port for /metrics, /healthz and /readyz, 0 for any free one (env TRIGREP_HTTP_PORT; default: none)")
    int httpPort;

    @Option(
            names = "--threads",
            defaultValue = "${env:TRIGREP_THREADS:-0}",
            description = "search threads (env TRIGREP_THREADS; default one per core)")
    int threads;

    @Option(
            names = "--max-concurrent",
            defaultValue = "${env:TRIGREP_MAX_CONCURRENT:-64}",
            description = "queries at once; more are refused (env TRIGREP_MAX_CONCURRENT; default ${DEFAULT-VALUE})")
    int maxConcurrent;

    @Option(
            names = "--max-results",
            defaultValue = "${env:TRIGREP_MAX_RESULTS:-5000000}",
            description = "results per query at most (env TRIGREP_MAX_RESULTS; default ${DEFAULT-VALUE})")
    int maxResults;

    @Option(
            names = "--deadline-ms",
            defaultValue = "${env:TRIGREP_DEADLINE_MS:-30000}",
            description =
                    "default per-query deadline in milliseconds (env TRIGREP_DEADLINE_MS; default ${DEFAULT-VALUE})")
    long deadlineMs;

    /** When the shard's checksums are read: the port opens first, or after them, or never. */
    enum Verify {
        background,
        startup,
        off
    }

    @Option(
            names = "--verify",
            defaultValue = "${env:TRIGREP_VERIFY:-background}",
            description =
                    "verify every checksum of the shard before serving it: background (the port opens at once and answers "
                            + "'not ready' until verified), startup (before the port opens), off (env TRIGREP_VERIFY; default ${DEFAULT-VALUE})")
    Verify verify;

    @Option(
            names = "--warmup-ms",
            defaultValue = "${env:TRIGREP_WARMUP_MS:-2000}",
            description =
                    "after verification, replay a fixed list of capped query shapes through the own port for up to this long "
                            + "before reporting ready; 0 turns it off (env TRIGREP_WARMUP_MS; default ${DEFAULT-VALUE})")
    long warmupMs;

    @Option(
            names = "--reload-interval-ms",
            defaultValue = "${env:TRIGREP_RELOAD_INTERVAL_MS:-2000}",
            description =
                    "besides watching the index folder for new generations (inotify), look for one this often, for file "
                            + "systems that report no changes (NFS, some container mounts); 0 turns polling off "
                            + "(env TRIGREP_RELOAD_INTERVAL_MS; default ${DEFAULT-VALUE})")
    long reloadIntervalMs;

    @Option(
            names = "--tls-cert",
            defaultValue = "${env:TRIGREP_TLS_CERT}",
            description =
                    "PEM certificate (chain) this backend presents; with --tls-key and --tls-ca it serves only over mutual TLS "
                            + "(env TRIGREP_TLS_CERT; default: plain TCP)")
    Path tlsCert;

    @Option(
            names = "--tls-key",
            defaultValue = "${env:TRIGREP_TLS_KEY}",
            description = "PEM PKCS#8 private key of --tls-cert (env TRIGREP_TLS_KEY)")
    Path tlsKey;

    @Option(
            names = "--tls-ca",
            defaultValue = "${env:TRIGREP_TLS_CA}",
            description =
                    "PEM CA certificate; only clients with a certificate it signed are served (env TRIGREP_TLS_CA)")
    Path tlsCa;

    /** The command line running this command: a usage error is reported on its error stream, with its usage. */
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Tls tls = Tls.fromOptions(tlsCert, tlsKey, tlsCa, true);
        // /readyz pings the search port as a client with the backend's own certificate (which must
        // allow client authentication: deploy/make-certs.sh makes it so).
        Tls selfPing = tls.enabled() ? Tls.client(tlsCert, tlsKey, tlsCa, false) : Tls.PLAIN;
        if (reloadIntervalMs < 0) {
            throw new CommandLine.ParameterException(
                    spec.commandLine(), "--reload-interval-ms must be >= 0, got " + reloadIntervalMs);
        }
        if (warmupMs < 0) {
            // Not "off", as 0 is: a negative budget is a mistake, and the shard would be served cold.
            throw new CommandLine.ParameterException(spec.commandLine(), "--warmup-ms must be >= 0, got " + warmupMs);
        }
        if (verify == Verify.startup) {
            try (LiveShard checked = LiveShard.open(shard)) {
                for (Segment segment : checked.segments()) {
                    segment.verify();
                }
            }
        }
        BackendConfig config = new BackendConfig(
                threads > 0 ? threads : Runtime.getRuntime().availableProcessors(),
                maxConcurrent,
                maxResults,
                Duration.ofMillis(deadlineMs),
                Duration.ofMillis(Math.max(deadlineMs, 300_000)),
                10);
        BackendServer server = BackendServer.open(shard, config, tls, verify == Verify.background, warmupMs > 0);
        InetSocketAddress address = server.start(bind, port);
        server.watch(Duration.ofMillis(reloadIntervalMs));
        if (verify == Verify.background || warmupMs > 0) {
            Thread check = new Thread(
                    () -> {
                        server.verify(System.err);
                        server.warmUp(selfPing, Duration.ofMillis(warmupMs));
                    },
                    "trigrep-verify");
            check.setDaemon(true);
            check.start();
        }
        OpsServer ops = httpPort < 0 ? null : new OpsServer(server.metrics(), address, selfPing);
        InetSocketAddress opsAddress = ops == null ? null : ops.start(bind, httpPort);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            if (ops != null) {
                                ops.close();
                            }
                            server.close();
                            stopped.countDown();
                        },
                        "trigrep-backend-shutdown"));
        System.out.println("backend " + server.name() + " (" + server.files() + " files, generation "
                + server.generation() + ") listening on "
                + address.getHostString() + ":" + address.getPort() + (tls.enabled() ? " (mutual TLS)" : "")
                + (opsAddress == null
                        ? ""
                        : " (metrics and probes on http://" + opsAddress.getHostString() + ":" + opsAddress.getPort()
                                + "/)"));
        System.out.flush();
        stopped.await();
        return 0;
    }

    public static void main(String[] args) {
        CommandLine line = new CommandLine(new BackendCommand()).setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 2;
        });
        System.exit(line.execute(args));
    }
}
