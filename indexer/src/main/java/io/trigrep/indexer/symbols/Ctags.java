package io.trigrep.indexer.symbols;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 *
 * <p>A sandboxed process takes file contents only: it may open no file, not even the scratch file
 * plain interactive mode writes each file's tags to before it answers.
 */
final class Ctags implements Closeable {
    /**
     * Language maps changed from ctags' defaults. {@code *.d} is not D here: in Debian's sources the
     * .d files are make dependency lists and binutils' expected-output dumps (10,259 of them), which
     * ctags' D parser turned into 900,000 "variables", half the symbols of 31 packages and none of
     * them a definition. D sources keep {@code *.di}.
     */
    static final List<String> MAPS = List.of("--map-D=-.d");

    /**
     * Options after the program: no user or project option files, the maps, interactive mode
     * ({@code sandbox}: one that may open no file), JSON out, the fields kept.
     */
    static List<String> options(boolean sandbox) {
        return Stream.of(
                        Stream.of("--options=NONE"),
                        MAPS.stream(),
                        Stream.of(
                                sandbox ? "--_interactive=sandbox" : "--_interactive",
                                "--output-format=json",
                                "--fields=NnKls",
                                "-o",
                                "-"))
                .flatMap(o -> o)
                .toList();
    }

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
    private final boolean sandbox;
    private final TagLine parsed = new TagLine();
    private final HashMap<String, String> labels = new HashMap<>();
    /** A line longer than what is left of the read buffer, copied. */
    private byte[] longLine = new byte[256];
    /** The line {@link #nextLine} read: {@code lineBytes[lineStart, lineEnd)}. */
    private byte[] lineBytes;

    private int lineStart;
    private int lineEnd;
    private Process process;
    private OutputStream in;
    private InputStream out;
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private int limit;
    private volatile boolean killed;
    /** The file being tagged, as the timer's alarm knows it; guarded by this. */
    private Object current;

    /**
     * A process started in {@code directory}, where the files {@link #tagsOfFile} names are;
     * {@code sandbox}: one that takes only {@link #tags} (ctags has the "sandbox" feature).
     */
    Ctags(String program, long limitNanos, ScheduledExecutorService timer, Path directory, boolean sandbox) {
        this.program = program;
        this.limitNanos = limitNanos;
        this.timer = timer;
        this.directory = directory;
        this.sandbox = sandbox;
    }

    /** Receives a file's tags in ctags' order; name and scope are UTF-8, valid until the call returns. */
    interface Sink {
        /** Kind and language are one String per distinct label (keyed by identity is fine); the scope is empty when ctags gives none. */
        void tag(int line, byte[] name, int nameLength, byte[] scope, int scopeLength, String kind, String language);
    }

    /**
     * Hands {@code sink} the tags ctags finds in {@code content[0, length)}, a file named {@code
     * fileName} (the name picks the language); on a failure the sink may have had some of them.
     */
    void tags(String fileName, byte[] content, int length, Sink sink) throws Failure, IOException {
        request(
                "{\"command\":\"generate-tags\",\"filename\":" + jsonString(fileName) + ",\"size\":" + length + "}\n",
                content,
                length,
                sink);
    }

    /**
     * Hands {@code sink} the tags ctags finds in the file {@code fileName}, relative to the
     * process's directory: read from disk, ctags may pick the language by the content too, which
     * it does not for bytes sent.
     */
    void tagsOfFile(String fileName, Sink sink) throws Failure, IOException {
        if (sandbox) {
            throw new IllegalStateException("a sandboxed ctags reads no file");
        }
        request("{\"command\":\"generate-tags\",\"filename\":" + jsonString(fileName) + "}\n", null, 0, sink);
    }

    /** Sends one command line and {@code content[0, length)} (none when null), and hands the tags answered to {@code sink}. */
    private void request(String command, byte[] content, int length, Sink sink) throws Failure, IOException {
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
        try {
            in.write(command.getBytes(StandardCharsets.UTF_8));
            if (content != null) {
                in.write(content, 0, length);
            }
            in.flush();
            while (true) {
                if (!nextLine()) {
                    throw new Failure(ended());
                }
                if (lineEnd == lineStart || lineBytes[lineStart] != '{') {
                    continue;
                }
                TagLine t = parsed.parse(lineBytes, lineStart, lineEnd);
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
                } else if ("tag".equals(t.type) && t.nameLength >= 0 && t.line >= 1 && t.line <= Integer.MAX_VALUE) {
                    sink.tag(
                            (int) t.line,
                            t.nameBytes,
                            t.nameLength,
                            t.scopeBytes,
                            Math.max(0, t.scopeLength),
                            shared(t.kind),
                            shared(t.language));
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

    /**
     * Reads the next output line, without its newline, into {@code lineBytes[lineStart, lineEnd)}:
     * in place in the read buffer when it fits there, else copied. False at the end of the output.
     */
    private boolean nextLine() throws IOException {
        int copied = 0;
        while (true) {
            if (position == limit) {
                limit = out.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return copied > 0 && line(longLine, 0, copied);
                }
            }
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            if (position < limit && copied == 0) {
                return line(buffer, start, position++);
            }
            if (longLine.length < copied + position - start) {
                longLine = Arrays.copyOf(longLine, Math.max(copied + position - start, 2 * longLine.length));
            }
            System.arraycopy(buffer, start, longLine, copied, position - start);
            copied += position - start;
            if (position < limit) {
                position++;
                return line(longLine, 0, copied);
            }
        }
    }

    private boolean line(byte[] bytes, int start, int end) {
        lineBytes = bytes;
        lineStart = start;
        lineEnd = end;
        return true;
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
        command.addAll(options(sandbox));
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
            while (nextLine()) {
                if (lineEnd > lineStart
                        && lineBytes[lineStart] == '{'
                        && "program".equals(parsed.parse(lineBytes, lineStart, lineEnd).type)) {
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
