package io.trigrep.frontend.cli;

import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./trigrep demo} as a user runs it: the launcher as a child process indexes a small real
 * corpus into 3 shards and starts 3 backends and the frontend as its own children; the test
 * queries it over HTTP, stops it with SIGTERM or SIGHUP and checks nothing is left running or
 * listening.
 */
@Tag("external") // drives the launcher, which runs Maven
@Tag("integration")
class DemoTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path CORPUS = ROOT.resolve("source-backend/src/test/resources/corpus");
    static final Pattern URL = Pattern.compile("open (http://127\\.0\\.0\\.1:(\\d+)/)");
    /** The last line the demo prints once everything is up: the end of what it shows its user. */
    static final String READY = "Ctrl-C stops everything.";
    /** Indexing the test corpus and starting four JVMs, on a busy machine. */
    static final Duration DEMO = Duration.ofSeconds(120);
    /** The demo's grace for its children (10 s) and its own exit. */
    static final Duration STOPS = Duration.ofSeconds(30);

    static final Pattern PORTS = Pattern.compile("ports +frontend (\\d+), backends (\\S+)");

    @TempDir
    Path data;

    Process demo;
    Thread reader;

    /** The demo's children as last seen: a broken demo that dies without stopping them leaves them to the tear-down. */
    List<ProcessHandle> seenChildren = new ArrayList<>();

    @AfterEach
    void tearDown() {
        if (demo != null && demo.isAlive()) {
            demo.descendants().forEach(ProcessHandle::destroyForcibly);
            demo.destroyForcibly();
        }
        seenChildren.forEach(ProcessHandle::destroyForcibly);
    }

    /**
     * One user's two runs: the first indexes, serves and stops on SIGTERM leaving nothing running;
     * the second reuses the shards and stops on SIGHUP, as when its terminal closes.
     */
    @Test
    void indexesServesStopsOnSigtermThenReusesTheShardsAndStopsOnSighup() throws Exception {
        List<String> output = new ArrayList<>();
        BlockingQueue<String> lines = start(output);
        awaitLine(lines, output, READY);
        String all = text(output);
        Matcher url = URL.matcher(all);
        Matcher ports = PORTS.matcher(all);
        assertThat(url.find()).as(all).isTrue();
        assertThat(ports.find()).as(all).isTrue();
        List<Integer> listening = new ArrayList<>();
        listening.add(Integer.parseInt(ports.group(1)));
        for (String backend : ports.group(2).split(",")) {
            listening.add(Integer.parseInt(backend.substring(backend.lastIndexOf(':') + 1)));
        }
        assertThat(listening).hasSize(4);
        assertThat(Files.list(data.resolve("shards"))
                        .filter(p -> Files.isDirectory(p)
                                && p.getFileName().toString().startsWith("shard-"))
                        .count())
                .isEqualTo(3);

        List<ProcessHandle> children = javaChildren();
        assertThat(children).as("3 backends and a frontend").hasSize(4);
        seenChildren.addAll(children);
        assertThat(startedFrom(data))
                .as("the demo's processes, found by their command lines")
                .hasSizeGreaterThan(4);

        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> answer = http.send(
                HttpRequest.newBuilder(URI.create(url.group(1) + "api/v1/search?q=adler32&per_page=3"))
                        .timeout(Duration.ofSeconds(60))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        JsonNode json = new ObjectMapper().readTree(answer.body());
        assertThat(json.path("shards").path("successful").asInt()).isEqualTo(3);
        assertThat(json.path("total_results").asInt()).isPositive();
        assertThat(json.path("results").get(0).path("context").asText()).contains("adler32");

        // SIGTERM through the handle: Process.destroy() would also close the pipe the demo writes its goodbye to
        demo.toHandle().destroy();
        assertThat(demo.waitFor(STOPS.toSeconds(), TimeUnit.SECONDS))
                .as("the demo exits")
                .isTrue();
        reader.join(STOPS.toMillis());
        assertThat(demo.exitValue()).as(text(output)).isZero();
        assertStopped(children);
        for (int port : listening) {
            assertThat(refused(port)).as("port " + port + " closed").isTrue();
        }
        assertThat(startedFrom(data)).as("processes of this demo left running").isEmpty();

        long built =
                Files.getLastModifiedTime(data.resolve("shards/corpus.txt")).toMillis();
        Path manifest = data.resolve("shards/shard-0/manifest.json");
        FileTime shardBuilt = Files.getLastModifiedTime(manifest);
        List<String> again = new ArrayList<>();
        // A terminal's shell leaves SIGHUP at its default; a suite run under nohup would pass it on
        // ignored, and a shell cannot trap a signal ignored when it started.
        awaitLine(start(List.of("env", "--default-signal=HUP"), again), again, READY);
        assertThat(Files.getLastModifiedTime(data.resolve("shards/corpus.txt")).toMillis())
                .isEqualTo(built);
        assertThat(Files.getLastModifiedTime(manifest))
                .as("shard-0, not built again")
                .isEqualTo(shardBuilt);
        children = javaChildren();
        assertThat(children).hasSize(4);
        seenChildren.addAll(children);
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(demo.pid()))
                .inheritIO()
                .start();
        assertThat(kill.waitFor(STOPS.toSeconds(), TimeUnit.SECONDS) && kill.exitValue() == 0)
                .isTrue();
        assertThat(demo.waitFor(STOPS.toSeconds(), TimeUnit.SECONDS))
                .as("the demo exits")
                .isTrue();
        reader.join(STOPS.toMillis());
        assertThat(demo.exitValue()).as(text(again)).isEqualTo(129);
        assertStopped(children);
        assertThat(startedFrom(data)).as("processes of this demo left running").isEmpty();
    }

    private List<ProcessHandle> javaChildren() {
        return demo.descendants()
                .filter(p -> p.info().command().orElse("").endsWith("java"))
                .collect(Collectors.toList());
    }

    private static void assertStopped(List<ProcessHandle> children) throws Exception {
        for (ProcessHandle child : children) {
            child.onExit().get(STOPS.toSeconds(), TimeUnit.SECONDS);
            assertThat(child.isAlive()).as("pid " + child.pid()).isFalse();
        }
    }

    /** A stack not ready in time is a failure, said and exited with, never "ready". */
    @Test
    void aStackNotReadyInTimeFailsLoudlyAndStopsItsChildren() throws Exception {
        List<String> output = new ArrayList<>();
        // 0 s: the frontend cannot have answered /readyz before the deadline.
        start(output, "--ready-seconds", "0");
        assertThat(demo.waitFor(DEMO.toSeconds(), TimeUnit.SECONDS))
                .as("the demo exits")
                .isTrue();
        reader.join(STOPS.toMillis());
        String all = text(output);
        assertThat(demo.exitValue()).as(all).isEqualTo(1);
        // What its usage promises: it says the stack was not ready, and never that it was.
        assertThat(all).contains("not ready after 0 s").doesNotContain(READY);
        // It had started all four (each logs to a file of its own), and none is left running.
        try (var logs = Files.list(data.resolve("logs"))) {
            assertThat(logs.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("backend-0.log", "backend-1.log", "backend-2.log", "frontend.log");
        }
        assertThat(demo.descendants().count()).as("children left running").isZero();
        assertThat(startedFrom(data)).as("processes of this demo left running").isEmpty();
    }

    /**
     * The processes alive whose command line names {@code folder} (a demo's children name its data
     * folder), read from /proc: ProcessHandle cuts a JVM's long command line before its arguments.
     */
    private static List<String> startedFrom(Path folder) throws IOException {
        List<String> found = new ArrayList<>();
        try (var procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                String commandLine;
                try {
                    commandLine = new String(Files.readAllBytes(proc.resolve("cmdline")), StandardCharsets.UTF_8)
                            .replace('\0', ' ');
                } catch (IOException ended) {
                    continue;
                }
                if (commandLine.contains(folder.toString())) {
                    found.add(proc.getFileName() + " " + commandLine.substring(0, Math.min(200, commandLine.length())));
                }
            }
        }
        return found;
    }

    @Test
    void anUnknownOptionIsAUsageError() throws Exception {
        Process p = new ProcessBuilder(ROOT.resolve("trigrep").toString(), "demo", "--frobnicate")
                .redirectErrorStream(true)
                .start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(STOPS.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        // A usage error, for the user to read: it names the option refused and shows the usage.
        assertThat(text).contains("'--frobnicate'").contains("usage: ./trigrep demo");
    }

    /** Starts the demo on the test corpus; its output lines arrive on the returned queue. */
    private BlockingQueue<String> start(List<String> output, String... options) throws IOException {
        return start(List.of(), output, options);
    }

    /** As {@link #start(List, String...)}, run through {@code prefix} (a command that runs the rest). */
    private BlockingQueue<String> start(List<String> prefix, List<String> output, String... options)
            throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(
                ROOT.resolve("trigrep").toString(),
                "demo",
                "--corpus",
                CORPUS.toString(),
                "--data",
                data.toString(),
                "--port",
                "0"));
        command.addAll(List.of(options));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // The reactor running this test has built every module already; a nested Maven would race it.
        builder.environment().put("TRIGREP_SKIP_BUILD", "1");
        builder.environment().put("TRIGREP_JAVA_OPTS", "-Xmx256m");
        demo = builder.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        reader = new Thread(
                () -> {
                    try (BufferedReader in =
                            new BufferedReader(new InputStreamReader(demo.getInputStream(), StandardCharsets.UTF_8))) {
                        for (String line; (line = in.readLine()) != null; ) {
                            synchronized (output) {
                                output.add(line);
                            }
                            lines.add(line);
                        }
                    } catch (IOException ignored) {
                        // the process ended
                    }
                },
                "demo-output");
        reader.setDaemon(true);
        reader.start();
        return lines;
    }

    /** Waits for the demo's line that starts with {@code prefix}; fails once its output has ended without one. */
    private String awaitLine(BlockingQueue<String> lines, List<String> output, String prefix)
            throws InterruptedException {
        Optional<String> line;
        try {
            line = eventuallyGet("the demo's '" + prefix + "' line", DEMO, () -> {
                boolean ended = !reader.isAlive();
                for (String l; (l = lines.poll()) != null; ) {
                    if (l.startsWith(prefix)) {
                        return Optional.of(l);
                    }
                }
                return ended ? Optional.empty() : null;
            });
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the demo said:\n" + text(output), e);
        }
        assertThat(line)
                .as("a '%s' line; the demo said:\n%s", prefix, text(output))
                .isPresent();
        return line.get();
    }

    private static String text(List<String> output) {
        synchronized (output) {
            return String.join("\n", output);
        }
    }

    private static boolean refused(int port) throws IOException {
        try (Socket ignored = new Socket("127.0.0.1", port)) {
            return false;
        } catch (ConnectException expected) {
            return true;
        }
    }
}
