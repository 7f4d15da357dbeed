package io.trigrep.indexer.symbols;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs universal-ctags over a build's files ({@link #begin}: an {@link Extraction} fed as the
 * files are read) or over one set of docs ({@link #extract}). A file ctags fails on or takes too
 * long over (its process is killed and started again) is a {@link Failure}, never fatal to the
 * build; that file just has no symbols.
 */
public final class SymbolExtractor {
    /**
     * How to run ctags: the program ("ctags" is looked up on PATH), how many processes at once, how
     * long one file may take, and how much memory writing one shard's symbols may take before it
     * spills to disk (every definition is kept, whatever the shard's size).
     */
    public record Config(String program, int processes, Duration perFileLimit, long budgetBytes) {
        /** The default memory for writing a shard's symbols: a fraction of the indexer's smallest default heap. */
        public static final long DEFAULT_BUDGET_BYTES = 64L << 20;

        public Config(String program, int processes, Duration perFileLimit) {
            this(program, processes, perFileLimit, DEFAULT_BUDGET_BYTES);
        }

        public Config {
            if (program == null || program.isEmpty()) {
                throw new IllegalArgumentException("program must name the ctags executable, got " + program);
            }
            if (processes < 1 || processes > 1 << 15) {
                throw new IllegalArgumentException("processes must be in [1, 32768], got " + processes);
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

    /** Files as the extractor reads them. Read from several threads at once. */
    public interface Docs {
        int count();

        /**
         * The doc's name, {@code package/path}, '/'-separated: its last segment (or else its
         * content) picks ctags' parser, and ctags names anonymous scopes ({@code __anon8c697b42010a})
         * by a hash of it.
         */
        String path(int doc);

        int length(int doc);

        /** Reads the doc's first {@code length} bytes (at most {@code length(doc)}) into {@code into[0, length)}. */
        void read(int doc, byte[] into, int length) throws IOException;

        /** Called once ctags has had every doc it wants: what reading held can go. */
        default void close() throws IOException {}
    }

    /** A file ctags gave no symbols for, and why. */
    public record Failure(int doc, String reason) {}

    /**
     * What extraction wrote: symbols, files sent to ctags, failures in doc order, and the sorted
     * runs writing them spilled to disk (0 when they fit {@link Config#budgetBytes}).
     */
    public record Result(int symbols, int files, List<Failure> failures, int spilledRuns) {}

    private final Config config;
    private final CtagsLanguages languages;
    private final boolean sandbox;

    private SymbolExtractor(Config config, CtagsLanguages languages, boolean sandbox) {
        this.config = config;
        this.languages = languages;
        this.sandbox = sandbox;
    }

    Config config() {
        return config;
    }

    /** Whether ctags has a sandboxed interactive mode, for the files it is sent the contents of. */
    boolean sandbox() {
        return sandbox;
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
        boolean sandbox = features.lines().anyMatch(l -> l.startsWith("sandbox"));
        return new SymbolExtractor(config, CtagsLanguages.of(config.program()), sandbox);
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
            throw new InterruptedIOException("interrupted while running " + program);
        }
        return out;
    }

    /** Whether a file at {@code path} (its last '/'-separated segment is its name) goes through ctags by its name. */
    public boolean wants(String path) {
        return languages.knows(path.substring(path.lastIndexOf('/') + 1));
    }

    /**
     * Whether a file whose name ctags maps to no language goes to ctags anyway, as an executable
     * file on disk: ctags then reads a language off a first line starting with {@code #!} (the
     * interpreter, or an Emacs mode on the second line); it reads other modelines only under -G.
     */
    static boolean byContent(byte[] content, int length) {
        return length >= 2 && content[0] == '#' && content[1] == '!';
    }

    /** Starts ctags' processes for a build; spools and scratch files go under {@code scratch}, an existing folder. */
    public Extraction begin(Path scratch) throws IOException {
        return new Extraction(this, scratch, false);
    }

    /** Runs ctags over every doc it has a parser for and writes {@code out}, as a build does for one shard. */
    public Result extract(Docs docs, Path out) throws IOException, InterruptedException {
        Path scratch = Files.createTempDirectory(out.toAbsolutePath().getParent(), ".ctags-");
        try (Extraction extraction = new Extraction(this, scratch, true)) {
            Extraction.Batch batch = extraction.add(docs);
            extraction.finish();
            return extraction.write(Extraction.docsOf(batch), out);
        }
    }
}
