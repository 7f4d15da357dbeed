package io.trigrep.indexer.cli;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.IndexStats;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.filter.SkipReason;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.rank.Popularity;
import io.trigrep.indexer.symbols.SymbolExtractor;
import io.trigrep.indexer.symbols.Symbols;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ./trigrep index}: builds shards from a corpus and prints what it indexed and skipped. */
@Command(
        name = "index",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = "Index a corpus (folders of packages, Debian .dsc files, tarballs, zip/jar) into N shards.",
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:every input indexed",
            "1:some input could not be read (the rest was indexed)",
            "2:bad usage or nothing built"
        })
public final class IndexCommand implements Callable<Integer> {
    @Option(
            names = "--shards",
            defaultValue = "${env:TRIGREP_SHARDS:-1}",
            description = "number of shards (env TRIGREP_SHARDS; default ${DEFAULT-VALUE})")
    int shards;

    @Option(
            names = "--out",
            required = true,
            defaultValue = "${env:TRIGREP_INDEX_DIR}",
            description = "folder that receives shard-0 … shard-N-1 (env TRIGREP_INDEX_DIR)")
    Path out;

    @Option(
            names = "--max-file-bytes",
            defaultValue = "${env:TRIGREP_MAX_FILE_BYTES:-67108864}",
            description =
                    "skip larger files, at most 67108864 (64 MiB, the largest file a shard maps as one span) (env TRIGREP_MAX_FILE_BYTES; default ${DEFAULT-VALUE})")
    long maxFileBytes;

    @Option(
            names = "--skip-generated",
            defaultValue = "${env:TRIGREP_SKIP_GENERATED:-false}",
            description =
                    "also skip well-known generated or minified names (.min.js, package-lock.json, yarn.lock, .pb.go, …); off by default: every file without a NUL byte is indexed (env TRIGREP_SKIP_GENERATED)")
    boolean skipGenerated;

    @Option(
            names = "--skipped",
            paramLabel = "FILE",
            defaultValue = "${env:TRIGREP_SKIPPED}",
            description =
                    "write every skipped file to FILE, one per line: reason<TAB>bytes<TAB>package/path (reason as in the summary: binary, too_large, symlink, vcs, unsafe_path, unreadable, generated; a tab, newline or backslash in a path is written as \\t, \\n, \\\\) (env TRIGREP_SKIPPED)")
    Path skippedList;

    /** Removed in issue 13: long lines and many trigrams no longer keep a file out. Accepted with a warning so old scripts still run. */
    @Option(
            names = {"--max-line-bytes", "--max-trigrams"},
            hidden = true,
            paramLabel = "N")
    List<String> removedOptions;

    @Option(
            names = "--popularity",
            defaultValue = "${env:TRIGREP_POPULARITY}",
            description =
                    "file of 'package count' lines (Debian popcon) weighting packages' rank (env TRIGREP_POPULARITY)")
    Path popularity;

    @Option(
            names = "--threads",
            defaultValue = "${env:TRIGREP_THREADS:-0}",
            description = "worker threads (env TRIGREP_THREADS; default: one per core)")
    int threads;

    @Option(
            names = "--sort-buffer-mb",
            defaultValue = "${env:TRIGREP_SORT_BUFFER_MB:-128}",
            description =
                    "memory for the doc ids of the posting lists being built, per shard being built, besides a 64 MiB count table; at most a quarter of the heap less that table (env TRIGREP_SORT_BUFFER_MB; default ${DEFAULT-VALUE})")
    int sortBufferMb;

    @Option(
            names = "--verify",
            defaultValue = "${env:TRIGREP_VERIFY:-false}",
            description = "read every written shard back and check its checksums (env TRIGREP_VERIFY)")
    boolean verify;

    @Option(
            names = "--no-symbols",
            defaultValue = "${env:TRIGREP_NO_SYMBOLS:-false}",
            description =
                    "do not extract definitions for sym: search (each shard's manifest then says why it has none) (env TRIGREP_NO_SYMBOLS)")
    boolean noSymbols;

    @Option(
            names = "--ctags",
            paramLabel = "PROGRAM",
            defaultValue = "${env:TRIGREP_CTAGS:-ctags}",
            description =
                    "the universal-ctags program that extracts definitions; when it cannot run, shards are built without symbols and say why (env TRIGREP_CTAGS; default ${DEFAULT-VALUE})")
    String ctags;

    @Option(
            names = "--ctags-timeout-ms",
            defaultValue = "${env:TRIGREP_CTAGS_TIMEOUT_MS:-10000}",
            description =
                    "longest ctags may take over one file before it is killed and the file gets no symbols (env TRIGREP_CTAGS_TIMEOUT_MS; default ${DEFAULT-VALUE})")
    long ctagsTimeoutMs;

    @Parameters(arity = "1..*", paramLabel = "INPUT", description = "folders, .dsc files or archives")
    List<Path> inputs;

    /**
     * The buffer asked for, but at most a quarter of the heap less the count table: a small -Xmx
     * must slow the build down (more passes over the trigram spools), not end it with
     * OutOfMemoryError.
     */
    private long sortBufferBytes() {
        long asked = (long) sortBufferMb << 20;
        long cap = Math.max(16L << 20, Runtime.getRuntime().maxMemory() / 4 - (64L << 20));
        if (asked > cap) {
            System.err.printf(
                    "note: posting buffer (--sort-buffer-mb) %d MiB, not %d: the heap (-Xmx) is %d MiB%n",
                    cap >> 20, sortBufferMb, Runtime.getRuntime().maxMemory() >> 20);
        }
        return Math.min(asked, cap);
    }

    /** ctags when it runs, else no symbols and the reason (printed now, recorded in each manifest). */
    private SymbolChoice symbolChoice(int workers, PrintStream err) {
        if (noSymbols) {
            return SymbolChoice.none("built with --no-symbols");
        }
        if (ctagsTimeoutMs < 1) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--ctags-timeout-ms must be >= 1, got " + ctagsTimeoutMs);
        }
        try {
            return SymbolChoice.extract(SymbolExtractor.start(
                    new SymbolExtractor.Config(ctags, workers, Duration.ofMillis(ctagsTimeoutMs))));
        } catch (java.io.IOException e) {
            err.println("note: building without symbols (sym: search will say so): " + e.getMessage());
            return SymbolChoice.none("built without ctags: " + e.getMessage());
        }
    }

    @Override
    @SuppressWarnings(
            "try") // the progress bar draws while the build runs and ends its line when closed: the body never names it
    public Integer call() throws Exception {
        PrintStream err = System.err;
        if (removedOptions != null) {
            err.println(
                    "warning: --max-line-bytes and --max-trigrams are gone and ignored: every file without a NUL byte is indexed,"
                            + " whatever its line lengths or trigrams");
        }
        if (maxFileBytes < 1 || maxFileBytes > FilterLimits.MAX_FILE_BYTES) {
            err.println("error: --max-file-bytes must be in [1, " + FilterLimits.MAX_FILE_BYTES
                    + "] (64 MiB: a file's contents must be one" + " span of a shard's mapping), got " + maxFileBytes);
            return 2;
        }
        int workers = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        IndexBuilder.Options options = new IndexBuilder.Options(
                shards,
                new FilterLimits(maxFileBytes, skipGenerated),
                popularity == null ? Popularity.none() : Popularity.read(popularity),
                workers,
                (int) Math.max(1024, sortBufferBytes() / 4),
                symbolChoice(workers, err));
        Files.createDirectories(out);
        int[] errorCount = {0};
        List<PackageSource> packages = Corpus.discover(inputs, out, message -> {
            errorCount[0]++;
            err.println("error: " + message);
        });
        if (packages.isEmpty()) {
            err.println("error: no packages found in " + inputs);
            return 2;
        }
        err.println("indexing " + packages.size() + " packages into " + shards + " shard(s) under " + out);
        IndexBuilder builder = new IndexBuilder(options, Clock.systemUTC());
        IndexStats stats = builder.stats();
        IndexBuilder.Report report;
        // On the Java 17 this runs on, console() is null exactly when the standard streams are not a terminal.
        try (@SuppressWarnings("SystemConsoleNull")
                ProgressBar bar = new ProgressBar(
                        stats, () -> inputDone(stats), () -> inputTotal(stats), err, System.console() != null)) {
            report = builder.build(packages, out, message -> err.println("\nerror: " + message));
        }
        if (verify) {
            for (int shard = 0; shard < shards; shard++) {
                Shard.open(out.resolve("shard-" + shard)).verify();
                Symbols.open(out.resolve("shard-" + shard)).verify();
            }
        }
        if (skippedList != null) {
            SkippedList.write(report.skipped(), skippedList);
        }
        for (var shard : report.shards()) {
            for (IndexBuilder.SymbolFailure f : shard.symbolFailures()) {
                err.println("warning: no symbols for " + f.packageName() + "/" + f.path() + ": " + f.reason());
            }
        }
        System.out.print(Summary.of(report, verify));
        if (skippedList != null) {
            System.out.println("skipped    " + report.skipped().size() + " files listed in " + skippedList);
        }
        return errorCount[0] + report.errors().size() > 0 ? 1 : 0;
    }

    private static long inputDone(IndexStats stats) {
        return Summary.inputDone(stats);
    }

    private static long inputTotal(IndexStats stats) {
        return Summary.inputTotal(stats);
    }

    public static void main(String[] args) {
        CommandLine line = new CommandLine(new IndexCommand()).setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 2;
        });
        System.exit(line.execute(args));
    }

    static String reasonTable(IndexStats stats) {
        StringBuilder out = new StringBuilder();
        for (SkipReason reason : SkipReason.values()) {
            long files = stats.skippedFiles(reason);
            if (files > 0) {
                out.append(String.format(
                        "  %-18s %,10d files %,14d bytes  (%s)%n",
                        reason.key(), files, stats.skippedBytes(reason), reason.description()));
            }
        }
        return out.toString();
    }
}
