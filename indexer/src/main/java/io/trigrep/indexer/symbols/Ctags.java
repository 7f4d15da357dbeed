package io.trigrep.indexer.symbols;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One long-lived {@code ctags --_interactive} process fed file contents over its stdin: per file a
 * JSON command line {@code {"command":"generate-tags","filename":…,"size":N}} and N bytes, or,
 * without the size, the name of a file under its working directory for it to read; answered by
 * JSON tag lines and a {@code "completed"} line. A file that takes longer
 * than the time bound gets the process killed (by a task on {@code timer}); a file it fails on
 * leaves the process to be started again for the next. Not thread-safe: one caller at a time.
 */
final class Ctags implements Closeable {
    /**
     * Language maps changed from ctags' defaults. {@code *.d} is not D here: in Debian's sources the
     * .d files are make dependency lists and binutils' expected-output dumps (10,259 of them), which
     * ctags' D parser turned into 900,000 "variables", half the symbols of 31 packages and none of
     * them a definition. D sources keep {@code *.di}.
     */
    static final List<String> MAPS = List.of("--map-D=-.d");

    /** Options after the program: no user or project option files, the maps, JSON out, the fields kept. */
    static final List<String> OPTIONS = Stream.concat(
                    java.util.stream.Stream.of("--options=NONE"),
                    Stream.concat(
                            MAPS.stream(),
                            Stream.of("--_interactive", "--output-format=json", "--fields=NnKls", "-o", "-")))
            .toList();

    /** Why ctags gave no tags for one file. */
    static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String reason) {
            super(reason);
        }
    }

    /** The least time ctags gets to start and greet, whatever the per-file bound. */
    static final long START_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final String program;
    private final long limitNanos;
    private final ScheduledExecutorService timer;
    private final Path directory;
    private final TagLine parsed = new TagLine();
    private final HashMap<String, String> labels = new HashMap<>();
    private final ByteArrayOutputStream lineBuffer = new ByteArrayOutputStream(256);
    private Process process;
    private OutputStream in;
    private InputStream out;
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private int limit;
    private volatile boolean killed;
    /** The file being tagged, as the timer's alarm knows it; guarded by this. */
    private Object current;

    /** A process started in {@code directory}, where the files {@link #tagsOfFile} names are. */
    Ctags(String program, long limitNanos, ScheduledExecutorService timer, Path directory) {
        this.program = program;
        this.limitNanos = limitNanos;
        this.timer = timer;
        this.directory = directory;
    }

    /** The tags ctags finds in {@code content[0, length)}, a file named {@code fileName} (the name picks the language). */
    List<Tag> tags(String fileName, byte[] content, int length) throws Failure, IOException {
        return request(
                "{\"command\":\"generate-tags\",\"filename\":" + jsonString(fileName) + ",\"size\":" + length + "}\n",
                content,
                length);
    }

    /**
     * The tags ctags finds in the file {@code fileName}, relative to the process's directory: read
     * from disk, ctags may pick the language by the content too, which it does not for bytes sent.
     */
    List<Tag> tagsOfFile(String fileName) throws Failure, IOException {
        return request("{\"command\":\"generate-tags\",\"filename\":" + jsonString(fileName) + "}\n", null, 0);
    }

    /** Sends one command line and {@code content[0, length)} (none when null), and reads the tags answered. */
    private List<Tag> request(String command, byte[] content, int length) throws Failure, IOException {
        if (process == null) {
            start();
        }
        Object file = new Object();
        synchronized (this) {
            killed = false;
            current = file;
        }
        Process running = process;
        ScheduledFuture<?> alarm = timer.schedule(
                () -> {
                    // Only while this file is still being tagged: a late alarm must not kill the next file's process.
                    synchronized (this) {
                        if (current == file) {
                            killed = true;
                            running.destroyForcibly();
                        }
                    }
                },
                limitNanos,
                TimeUnit.NANOSECONDS);
        List<Tag> tags = new ArrayList<>();
        try {
            in.write(command.getBytes(StandardCharsets.UTF_8));
            if (content != null) {
                in.write(content, 0, length);
            }
            in.flush();
            while (true) {
                String line = readLine();
                if (line == null) {
                    throw new Failure(ended());
                }
                if (!line.startsWith("{")) {
                    continue;
                }
                TagLine t = parsed.parse(line);
                if ("completed".equals(t.type)) {
                    break;
                }
                if ("error".equals(t.type)) {
                    // Non-fatal "errors" are ctags' warnings ("ignoring null tag in …"): the file keeps
                    // the tags it has. A fatal one ends the process.
                    if (t.fatal) {
                        stop();
                        throw new Failure("ctags: " + t.message);
                    }
                } else if ("tag".equals(t.type) && t.name != null && t.line >= 1 && t.line <= Integer.MAX_VALUE) {
                    tags.add(new Tag(
                            t.name, (int) t.line, shared(t.kind), shared(t.language), t.scope == null ? "" : t.scope));
                }
            }
        } catch (IOException e) {
            // a broken pipe: the process died (or was killed) while taking the file
            throw new Failure(ended());
        } catch (IllegalArgumentException e) {
            stop();
            throw new Failure(e.getMessage());
        } finally {
            alarm.cancel(false);
            synchronized (this) {
                current = null;
            }
        }
        if (killed) {
            stop();
            throw new Failure(timedOut());
        }
        return tags;
    }

    private String timedOut() {
        return "ctags took over " + TimeUnit.NANOSECONDS.toMillis(limitNanos) + " ms (killed)";
    }

    private String ended() {
        if (killed) {
            stop();
            return timedOut();
        }
        Process p = process;
        stop();
        try {
            return p != null && p.waitFor(1, TimeUnit.SECONDS)
                    ? "ctags exited with status " + p.exitValue() + " on this file"
                    : "ctags stopped answering";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted while ctags ended";
        }
    }

    /**
     * One String per distinct kind and language (ctags has a few hundred), so that a caller may
     * key them by identity.
     */
    private String shared(String s) {
        if (s == null) {
            return "";
        }
        String known = labels.putIfAbsent(s, s);
        if (known == null && labels.size() > 100_000) {
            labels.clear();
        }
        return known == null ? s : known;
    }

    /** The next output line without its newline; null at the end of the output. */
    private String readLine() throws IOException {
        lineBuffer.reset();
        while (true) {
            if (position == limit) {
                limit = out.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return lineBuffer.size() == 0 ? null : lineBuffer.toString(StandardCharsets.UTF_8);
                }
            }
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            lineBuffer.write(buffer, start, position - start);
            if (position < limit) {
                position++;
                return lineBuffer.toString(StandardCharsets.UTF_8);
            }
        }
    }

    /**
     * Starts ctags and waits for its greeting (the {@code "program"} line interactive mode prints
     * first) under a bound of its own, at least {@link #START_NANOS}: on a loaded machine a
     * process can take longer to start than a file may take, and the file after a start (the
     * first, and each one after a kill) must not be charged for it.
     */
    private void start() throws Failure, IOException {
        List<String> command = new ArrayList<>();
        command.add(program);
        command.addAll(OPTIONS);
        Process started = new ProcessBuilder(command)
                .directory(directory.toFile())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        process = started;
        in = new BufferedOutputStream(started.getOutputStream(), 1 << 16);
        out = started.getInputStream();
        position = limit = 0;
        long bound = Math.max(limitNanos, START_NANOS);
        ScheduledFuture<?> alarm = timer.schedule(started::destroyForcibly, bound, TimeUnit.NANOSECONDS);
        try {
            while (true) {
                String line = readLine();
                if (line == null) {
                    break;
                }
                if (line.startsWith("{") && "program".equals(parsed.parse(line).type)) {
                    return;
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // killed by the alarm, or not ctags' interactive protocol: said below
        } finally {
            alarm.cancel(false);
        }
        stop();
        throw new Failure("ctags did not start: no greeting within " + TimeUnit.NANOSECONDS.toMillis(bound) + " ms");
    }

    private void stop() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.getOutputStream().close();
            } catch (IOException e) {
                // the pipe is broken already; the process is being killed anyway
            }
            process = null;
        }
    }

    static String jsonString(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** Ends the process: stdin closed, so ctags exits; killed if it does not within a second. */
    @Override
    public void close() {
        if (process == null) {
            return;
        }
        Process p = process;
        process = null;
        try {
            in.close();
            if (!p.waitFor(1, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (IOException e) {
            p.destroyForcibly();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
