package io.trigrep.backend.server;

import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Done;
import io.trigrep.proto.FileMatch;
import io.trigrep.proto.FileResultsIndex;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.Result;
import io.trigrep.proto.Tls;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.capnproto.MessageBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code ./trigrep search}: one query against one backend, printed grep-style; timings on stderr.
 * Given several backends it asks them all at once and counts: how long the backends take to
 * produce a fanned-out query's streams together, the frontend's baseline.
 */
@Command(
        name = "search",
        mixinStandardHelpOptions = true,
        description = "Query one backend and print package/path:line:text for every match.")
public final class SearchCommand implements Callable<Integer> {
    @Option(
            names = "--backend",
            required = true,
            split = ",",
            description = "host:port of a backend; several, comma-separated, are asked at once (implies --count)")
    List<String> backends;

    @Option(names = "--literal", description = "the query is a literal string, not a regex")
    boolean literal;

    @Option(names = "--context", defaultValue = "0", description = "context lines (default ${DEFAULT-VALUE})")
    int context;

    @Option(names = "--max-results", defaultValue = "0", description = "cap (default: the backend's)")
    int maxResults;

    @Option(names = "--count", description = "print only the number of matching lines")
    boolean count;

    @Option(
            names = "--repeat",
            defaultValue = "1",
            description =
                    "run the query this many times after warm-up runs (three at least, a second in all) and print "
                            + "'results median-seconds' (for benchmarks); implies --count")
    int repeat;

    @Option(
            names = "--rounds-on-input",
            description =
                    "after warm-up runs (three at least, a second in all), run the query once for each line read from standard input and "
                            + "print 'results seconds' after each (for benchmarks that time it in turn with other tools); "
                            + "implies --count")
    boolean roundsOnInput;

    @Option(
            names = "--tls-cert",
            defaultValue = "${env:TRIGREP_TLS_CERT}",
            description =
                    "PEM client certificate for backends that require mutual TLS; with --tls-key and --tls-ca (env TRIGREP_TLS_CERT)")
    Path tlsCert;

    @Option(
            names = "--tls-key",
            defaultValue = "${env:TRIGREP_TLS_KEY}",
            description = "PEM PKCS#8 private key of --tls-cert (env TRIGREP_TLS_KEY)")
    Path tlsKey;

    @Option(
            names = "--tls-ca",
            defaultValue = "${env:TRIGREP_TLS_CA}",
            description = "PEM CA certificate the backends' certificates must be signed by (env TRIGREP_TLS_CA)")
    Path tlsCa;

    @Parameters(
            arity = "1",
            paramLabel = "QUERY",
            description = "regex with optional filters, as in Debian Code Search")
    String query;

    /** Where results, counts and timings go, and where --rounds-on-input reads its rounds: the process's own. */
    PrintStream out = System.out;

    InputStream in = System.in;

    @Override
    public Integer call() throws Exception {
        Tls tls = Tls.fromOptions(tlsCert, tlsKey, tlsCa, false);
        List<BackendClient.Connection> connections = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(backends.size());
        try {
            for (String backend : backends) {
                connections.add(new BackendClient.Connection(BackendClient.address(backend), tls));
            }
            count |= connections.size() > 1;
            if (roundsOnInput) {
                return roundsOnInput(connections, pool);
            }
            if (repeat > 1) {
                // Kept-alive connections, as a frontend holds them: warm up, then time each query.
                count = true;
                warmUp(connections, pool);
                double[] seconds = new double[repeat];
                long results = 0;
                for (int i = 0; i < repeat; i++) {
                    long start = System.nanoTime();
                    results = runAll(connections, pool);
                    seconds[i] = (System.nanoTime() - start) / 1e9;
                }
                Arrays.sort(seconds);
                double median =
                        repeat % 2 == 1 ? seconds[repeat / 2] : (seconds[repeat / 2 - 1] + seconds[repeat / 2]) / 2;
                out.printf("%d %.4f%n", results, median);
                return failed ? 1 : 0;
            }
            long results = runAll(connections, pool);
            if (count) {
                out.println(results);
            }
        } finally {
            pool.shutdownNow();
            for (BackendClient.Connection c : connections) {
                c.close();
            }
        }
        return failed ? 1 : 0;
    }

    /**
     * One timed run per line of standard input, on the kept-alive connections, each answered on standard output at
     * once: a benchmark's other tools run between two lines, so this run sees the machine they leave, as a frontend's
     * request timed between them does.
     */
    private int roundsOnInput(List<BackendClient.Connection> connections, ExecutorService pool) throws Exception {
        count = true;
        warmUp(connections, pool);
        BufferedReader rounds = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        while (rounds.readLine() != null) {
            long start = System.nanoTime();
            long results = runAll(connections, pool);
            out.printf("%d %.6f%n", results, (System.nanoTime() - start) / 1e9);
            out.flush();
        }
        return failed ? 1 : 0;
    }

    /** How long the timed modes run the query before timing it, at least {@link #WARM_UP_RUNS} times. */
    static final long WARM_UP_NANOS = 1_000_000_000L;

    static final int WARM_UP_RUNS = 3;

    /**
     * Runs the query untimed for a second at least: the frontend it is compared with has run thousands of queries,
     * while after three runs of a selective one this client's per-search code was still below the JIT's first
     * threshold (200 calls), and interpreted.
     */
    private void warmUp(List<BackendClient.Connection> connections, ExecutorService pool) throws Exception {
        long start = System.nanoTime();
        for (int runs = 0; runs < WARM_UP_RUNS || System.nanoTime() - start < WARM_UP_NANOS; runs++) {
            runAll(connections, pool);
        }
    }

    /** The query on every connection at once; returns the results of all. */
    private long runAll(List<BackendClient.Connection> connections, ExecutorService pool) throws Exception {
        if (connections.size() == 1) {
            return run(connections.get(0));
        }
        List<Future<Long>> answers = new ArrayList<>();
        for (BackendClient.Connection c : connections) {
            answers.add(pool.submit(() -> run(c)));
        }
        long results = 0;
        for (Future<Long> answer : answers) {
            results += answer.get();
        }
        return results;
    }

    private volatile boolean failed;

    /** One query: prints results unless counting, a summary on stderr; returns the result count. */
    private long run(BackendClient.Connection connection) throws Exception {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory)
                .initSearch()
                .setQuery(query)
                .setLiteral(literal)
                .setContextLines(context)
                .setMaxResults(maxResults)
                .setFileResults(true);
        long start = System.nanoTime();
        if (count) {
            return connection.count(request, response -> {
                report(response, start);
                return true;
            });
        }
        long[] results = {0};
        Writer lines = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
        connection.exchange(request, response -> {
            if (response.which() == Response.Which.RESULT) {
                results[0]++;
                Result.Reader r = response.getResult();
                lines.write(r.getPackage() + "/" + r.getPath() + ":" + r.getLine() + ":" + r.getContext() + "\n");
            } else if (response.which() == Response.Which.FILE_RESULTS) {
                // A file's matching lines, each shown line sent once: one line of output per match, as for a Result.
                FileResultsIndex file = new FileResultsIndex(response.getFileResults());
                String name = file.pkg() + "/" + file.path() + ":";
                for (int m = 0; m < file.matches(); m++) {
                    results[0]++;
                    int line = file.match(m).getLine();
                    lines.write(name + file.number(line) + ":" + new String(file.text(line), StandardCharsets.UTF_8)
                            + "\n");
                }
            } else if (response.which() == Response.Which.FILE_MATCH) {
                // A whole file (a file-name query, or a boolean one with no line to show): its name, as find prints
                // one.
                results[0]++;
                FileMatch.Reader f = response.getFileMatch();
                lines.write(f.getPackage() + "/" + f.getPath() + "\n");
            } else {
                report(response, start);
            }
            return true;
        });
        lines.flush();
        return results[0];
    }

    private void report(Response.Reader response, long start) {
        if (response.which() == Response.Which.ERROR) {
            System.err.println("error: " + response.getError().getMessage()
                    + (response.getError().getPosition() > 0
                            ? " (at " + response.getError().getPosition() + ")"
                            : ""));
            failed = true;
        } else if (response.which() == Response.Which.DONE && repeat <= 1) {
            Done.Reader d = response.getDone();
            System.err.printf(
                    "%d results, %d of %d files searched (%d candidates)%s%s, backend %.3f s, total %.3f s%n",
                    d.getResults(),
                    d.getFilesSearched(),
                    d.getTotalFiles(),
                    d.getCandidateFiles(),
                    d.getFullScan() ? ", full scan" : "",
                    d.getTruncation() == Done.Truncation.NONE ? "" : ", truncated: " + d.getTruncation(),
                    d.getElapsedNanos() / 1e9,
                    (System.nanoTime() - start) / 1e9);
        }
    }

    public static void main(String[] args) {
        // One line, not a stack trace: a refused certificate or a backend that is down is the user's to fix.
        CommandLine line = new CommandLine(new SearchCommand()).setExecutionExceptionHandler((e, cmd, parsed) -> {
            String tls = Tls.reason(e);
            cmd.getErr()
                    .println("error: " + (tls != null ? tls : e.getMessage() == null ? e.toString() : e.getMessage()));
            return 2;
        });
        System.exit(line.execute(args));
    }
}
