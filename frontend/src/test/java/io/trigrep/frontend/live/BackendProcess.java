package io.trigrep.frontend.live;

import io.trigrep.backend.server.BackendCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A backend in a child JVM of the test's class path, on a free loopback port. */
final class BackendProcess {
    private static final Pattern LISTENING = Pattern.compile("listening on ([0-9.]+):(\\d+)");

    private BackendProcess() {}

    /** Starts a backend of {@code shard} with {@code extra} options (a 128 MiB heap). */
    static Process start(Path shard, String... extra) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-cp",
                System.getProperty("java.class.path"),
                BackendCommand.class.getName(),
                "--shard",
                shard.toString(),
                "--port",
                "0"));
        command.addAll(List.of(extra));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** Where {@code p} listens, once it says so; its output is drained from then on. */
    static InetSocketAddress listening(Process p) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = out.readLine()) != null; ) {
            Matcher m = LISTENING.matcher(line);
            if (m.find()) {
                Thread drain = new Thread(() -> {
                    try {
                        while (out.readLine() != null) {
                            // keep the pipe from filling
                        }
                    } catch (IOException e) {
                        // the backend is gone
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return new InetSocketAddress(m.group(1), Integer.parseInt(m.group(2)));
            }
        }
        throw new AssertionError("the backend exited before listening");
    }
}
