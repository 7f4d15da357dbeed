package io.trigrep.frontend.cli;

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
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * queries it over HTTP, stops it with SIGTERM and checks nothing is left running or listening.
 */
@Tag("external") // drives the launcher, which runs Maven
class DemoTest {
    static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    static final Path CORPUS = ROOT.resolve("source-backend/src/test/resources/corpus");
    static final Pattern URL = Pattern.compile("open (http://127\\.0\\.0\\.1:(\\d+)/)");
    /** The last line the demo prints once everything is up. */
    static final String READY = "Ctrl-C stops everything.";

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

    @Test
    void indexesServesAndStopsCleanlyOnSigterm() throws Exception {
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
        assertThat(all).contains("indexing " + CORPUS + " into 3 shards");
        assertThat(Files.list(data.resolve("shards"))
                        .filter(p -> Files.isDirectory(p)
                                && p.getFileName().toString().startsWith("shard-"))
                        .count())
                .isEqualTo(3);

        List<ProcessHandle> children = demo.descendants()
                .filter(p -> p.info().command().orElse("").endsWith("java"))
                .collect(Collectors.toList());
        assertThat(children).as("3 backends and a frontend").hasSize(4);

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
        assertThat(demo.waitFor(30, TimeUnit.SECONDS)).as("the demo exits").isTrue();
        reader.join(5_000);
        assertThat(demo.exitValue()).as(text(output)).isZero();
        for (ProcessHandle child : children) {
            child.onExit().get(5, TimeUnit.SECONDS);
            assertThat(child.isAlive()).as("pid " + child.pid()).isFalse();
        }
        for (int port : listening) {
            assertThat(refused(port)).as("port " + port + " closed").isTrue();
        }
        reader.join(5_000);
        assertThat(text(output)).contains("trigrep demo: stopping 4 processes");
    }

    @Test
    void aSecondRunReusesTheShards() throws Exception {
        List<String> output = new ArrayList<>();
        awaitLine(start(output), output, READY);
        demo.toHandle().destroy();
        assertThat(demo.waitFor(30, TimeUnit.SECONDS)).isTrue();
        long built =
                Files.getLastModifiedTime(data.resolve("shards/corpus.txt")).toMillis();

        List<String> again = new ArrayList<>();
        awaitLine(start(again), again, READY);
        assertThat(text(again)).contains("reusing the shards").doesNotContain("indexing ");
        assertThat(Files.getLastModifiedTime(data.resolve("shards/corpus.txt")).toMillis())
                .isEqualTo(built);
        demo.toHandle().destroy();
        assertThat(demo.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    /** Issue 17 item 6: a stack not ready in time is a failure, said and exited with, never "ready". */
    @Test
    void aStackNotReadyInTimeFailsLoudlyAndStopsItsChildren() throws Exception {
        List<String> output = new ArrayList<>();
        // 0 s: the frontend cannot have answered /readyz before the deadline.
        start(output, "--ready-seconds", "0");
        assertThat(demo.waitFor(120, TimeUnit.SECONDS)).as("the demo exits").isTrue();
        reader.join(5_000);
        String all = text(output);
        assertThat(demo.exitValue()).as(all).isEqualTo(1);
        assertThat(all)
                .contains("trigrep demo: not ready after 0 s")
                .contains("trigrep demo: stopping 4 processes")
                .doesNotContain("ready in")
                .doesNotContain(READY);
        assertThat(demo.descendants().count()).as("children left running").isZero();
        for (int port : javaPorts(all)) {
            assertThat(refused(port)).as("port " + port + " closed").isTrue();
        }
    }

    /** Issue 17 item 6: a closed terminal (SIGHUP) stops the children as Ctrl-C does. */
    @Test
    void sighupStopsEveryChild() throws Exception {
        List<String> output = new ArrayList<>();
        // A terminal's shell leaves SIGHUP at its default; a suite run under nohup would pass it on
        // ignored, and a shell cannot trap a signal ignored when it started.
        awaitLine(start(List.of("env", "--default-signal=HUP"), output), output, READY);
        List<ProcessHandle> children = demo.descendants()
                .filter(p -> p.info().command().orElse("").endsWith("java"))
                .collect(Collectors.toList());
        assertThat(children).hasSize(4);
        seenChildren.addAll(children);
        Process kill = new ProcessBuilder("kill", "-HUP", Long.toString(demo.pid()))
                .inheritIO()
                .start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS) && kill.exitValue() == 0).isTrue();
        assertThat(demo.waitFor(30, TimeUnit.SECONDS)).as("the demo exits").isTrue();
        reader.join(5_000);
        assertThat(demo.exitValue()).as(text(output)).isEqualTo(129);
        for (ProcessHandle child : children) {
            child.onExit().get(15, TimeUnit.SECONDS);
            assertThat(child.isAlive()).as("pid " + child.pid()).isFalse();
        }
        assertThat(text(output)).contains("trigrep demo: stopping 4 processes");
    }

    /** The ports the backends logged they listen on ("listening on 127.0.0.1:P"), from the demo's log folder. */
    private List<Integer> javaPorts(String output) throws IOException {
        List<Integer> ports = new ArrayList<>();
        Pattern listening = Pattern.compile("listening on (?:http://)?127\\.0\\.0\\.1:(\\d+)");
        try (var logs = Files.list(data.resolve("logs"))) {
            for (Path log : logs.collect(Collectors.toList())) {
                Matcher m = listening.matcher(Files.readString(log));
                while (m.find()) {
                    ports.add(Integer.parseInt(m.group(1)));
                }
            }
        }
        assertThat(ports).as("ports in the logs; the demo said:\n" + output).hasSize(4);
        return ports;
    }

    @Test
    void anUnknownOptionIsAUsageError() throws Exception {
        Process p = new ProcessBuilder(ROOT.resolve("trigrep").toString(), "demo", "--frobnicate")
                .redirectErrorStream(true)
                .start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(text).contains("unknown option '--frobnicate'").contains("usage: ./trigrep demo");
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

    private String awaitLine(BlockingQueue<String> lines, List<String> output, String prefix)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(500, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
            if (line == null && !demo.isAlive()) {
                break;
            }
        }
        throw new AssertionError("no '" + prefix + "' line; the demo said:\n" + text(output));
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
