package io.trigrep.indexer.symbols;

import io.trigrep.indexer.format.MappedFile;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Extracts a shard's definitions with universal-ctags and writes its {@code symbols.tgs}: one
 * long-lived ctags process per worker, each taking the next doc whose name ctags has a parser for
 * and reading its bytes over a pipe. A file ctags fails on or takes too long over (its process is
 * killed and started again) is a {@link Failure}, never fatal to the build; that file just has no
 * symbols.
 */
public final class SymbolExtractor {
    /**
     * How to run ctags: the program ("ctags" is looked up on PATH), how many processes at once, how
     * long one file may take, and how much one shard's definitions may cost in memory ({@link
     * SymbolBudget}: the files with the most definitions go first when a shard's exceed it).
     */
    public record Config(String program, int processes, Duration perFileLimit, long budgetBytes) {
        /**
         * The default budget: a shard's definitions in memory stay a fraction of the indexer's
         * smallest default heap (768 MiB), and Debian's 31 packages (941,196 definitions) fit in
         * one shard whole.
         */
        public static final long DEFAULT_BUDGET_BYTES = 192L << 20;

        public Config(String program, int processes, Duration perFileLimit) {
            this(program, processes, perFileLimit, DEFAULT_BUDGET_BYTES);
        }

        public Config {
            if (program == null || program.isEmpty()) {
                throw new IllegalArgumentException("program must name the ctags executable, got " + program);
            }
            if (processes < 1) {
                throw new IllegalArgumentException("processes must be >= 1, got " + processes);
            }
            if (perFileLimit.isNegative() || perFileLimit.isZero()) {
                throw new IllegalArgumentException("perFileLimit must be > 0, got " + perFileLimit);
            }
            if (budgetBytes < 1) {
                throw new IllegalArgumentException("budgetBytes must be >= 1, got " + budgetBytes);
            }
        }

        public static Config defaults() {
            return new Config("ctags", Runtime.getRuntime().availableProcessors(), Duration.ofSeconds(10));
        }
    }

    /** The docs of a shard, as the extractor reads them. Called from several threads at once. */
    public interface Docs {
        int count();

        /**
         * The doc's name, {@code package/path}, '/'-separated: its last segment picks ctags'
         * parser, and ctags names anonymous scopes ({@code __anon8c697b42010a}) by a hash of it.
         */
        String path(int doc);

        int length(int doc);

        /** Reads the doc's {@code length(doc)} bytes into {@code into[0, length)}. */
        void read(int doc, byte[] into) throws IOException;
    }

    /** A file ctags gave no symbols for, and why. */
    public record Failure(int doc, String reason) {}

    /**
     * What extraction wrote: symbols, files sent to ctags, failures in doc order, and the files
     * whose definitions the budget left out (doc order, with their definition counts).
     */
    public record Result(int symbols, int files, List<Failure> failures, List<OverBudget> overBudget) {}

    /** A file whose {@code definitions} the shard's budget left out. */
    public record OverBudget(int doc, int definitions) {}

    private final Config config;
    private final CtagsLanguages languages;

    private SymbolExtractor(Config config, CtagsLanguages languages) {
        this.config = config;
        this.languages = languages;
    }

    /**
     * An extractor running {@code config.program()}, or an {@link IOException} saying why it
     * cannot (not installed, not universal-ctags, no interactive mode): the reason a shard then
     * records for having no symbols.
     */
    public static SymbolExtractor start(Config config) throws IOException {
        String version = run(config.program(), "--version");
        if (!version.contains("Universal Ctags")) {
            throw new IOException(config.program() + " is not universal-ctags (" + firstLine(version) + ")");
        }
        String features = run(config.program(), "--list-features");
        if (!features.lines().anyMatch(l -> l.startsWith("interactive"))) {
            throw new IOException(config.program() + " has no interactive mode (" + firstLine(version) + ")");
        }
        return new SymbolExtractor(config, CtagsLanguages.of(config.program()));
    }

    private static String firstLine(String text) {
        return text.lines().findFirst().orElse("").trim();
    }

    private static String run(String program, String option) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(program, "--options=NONE", option)
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new IOException("ctags not found: cannot run " + program + " (install universal-ctags)", e);
        }
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(program + " " + option + " did not answer within 10 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while running " + program);
        }
        return out;
    }

    /** Whether a file at {@code path} (its last '/'-separated segment is its name) goes through ctags. */
    public boolean wants(String path) {
        return languages.knows(path.substring(path.lastIndexOf('/') + 1));
    }

    /** Runs ctags over every doc it has a parser for and writes {@code out}. */
    public Result extract(Docs docs, Path out) throws IOException, InterruptedException {
        int count = docs.count();
        int[] wanted = new int[count];
        int n = 0;
        for (int doc = 0; doc < count; doc++) {
            if (wants(docs.path(doc))) {
                wanted[n++] = doc;
            }
        }
        Tag[][] byDoc = new Tag[count][];
        SymbolBudget budget = new SymbolBudget(config.budgetBytes(), byDoc);
        List<Failure> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean stop = new AtomicBoolean();
        int files = n;
        int processes = Math.min(config.processes(), Math.max(1, files));
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "trigrep-ctags-timer");
            t.setDaemon(true);
            return t;
        });
        List<Thread> workers = new ArrayList<>();
        IOException[] broken = new IOException[1];
        try {
            for (int w = 0; w < processes; w++) {
                int first = w;
                Thread t = new Thread(
                        () -> {
                            byte[] buffer = new byte[1 << 16];
                            try (Ctags ctags = new Ctags(
                                    config.program(), config.perFileLimit().toNanos(), timer)) {
                                // Every n-th file, not the next free one: ctags keeps some state from one file
                                // to the next (its TeX parser carries a \part into the next file's scopes), so
                                // each process must see the same files in the same order in every build, or
                                // two builds of the same input would differ.
                                for (int i = first; i < files && !stop.get(); i += processes) {
                                    int doc = wanted[i];
                                    int length = docs.length(doc);
                                    if (buffer.length < length) {
                                        buffer = new byte[Math.max(length, 2 * buffer.length)];
                                    }
                                    docs.read(doc, buffer);
                                    try {
                                        List<Tag> tags = ctags.tags(docs.path(doc), buffer, length);
                                        budget.keep(doc, sortedByLine(tags));
                                    } catch (Ctags.Failure f) {
                                        failures.add(new Failure(doc, f.getMessage()));
                                    }
                                }
                            } catch (IOException | RuntimeException e) {
                                synchronized (broken) {
                                    broken[0] = broken[0] != null
                                            ? broken[0]
                                            : e instanceof IOException io ? io : new IOException(e);
                                }
                                stop.set(true);
                            }
                        },
                        "trigrep-ctags-" + w);
                t.setDaemon(true);
                t.start();
                workers.add(t);
            }
            for (Thread t : workers) {
                t.join();
            }
        } finally {
            for (Thread t : workers) {
                t.interrupt();
            }
            timer.shutdownNow();
        }
        if (broken[0] != null) {
            throw new IOException("symbol extraction failed: " + broken[0].getMessage(), broken[0]);
        }
        budget.fitTables(MappedFile.DEFAULT_MAX_SPAN);
        int symbols = SymbolsWriter.write(out, byDoc);
        List<Failure> sorted = new ArrayList<>(failures);
        sorted.sort((a, b) -> Integer.compare(a.doc(), b.doc()));
        List<OverBudget> over = new ArrayList<>(budget.dropped());
        over.sort((a, b) -> Integer.compare(a.doc(), b.doc()));
        return new Result(symbols, files, List.copyOf(sorted), List.copyOf(over));
    }

    /** ctags' order, made stable by line (it may report a scope's members after the scope's end). */
    private static Tag[] sortedByLine(List<Tag> tags) {
        Tag[] array = tags.toArray(new Tag[0]);
        java.util.Arrays.sort(array, (a, b) -> Integer.compare(a.line(), b.line()));
        return array;
    }
}
