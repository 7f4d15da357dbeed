package io.trigrep.indexer.cli;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.rank.Popularity;
import io.trigrep.indexer.symbols.SymbolExtractor;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/**
 * The options of everything that builds shards or segments ({@code index}, {@code update},
 * {@code merge}): file limits, ranking, threads, memory and symbols, one definition for all.
 */
final class BuildOptions {
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

    @Option(
            names = "--symbol-budget-mb",
            defaultValue = "${env:TRIGREP_SYMBOL_BUDGET_MB:-64}",
            description =
                    "memory writing definitions may take (shards written at once share it); past it they are sorted in runs on disk, none is left out"
                            + " (env TRIGREP_SYMBOL_BUDGET_MB; default ${DEFAULT-VALUE})")
    long symbolBudgetMb;

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
        if (symbolBudgetMb < 1 || symbolBudgetMb > 1L << 20) {
            throw new CommandLine.ParameterException(
                    new CommandLine(this), "--symbol-budget-mb must be in [1, 1048576], got " + symbolBudgetMb);
        }
        try {
            return SymbolChoice.extract(SymbolExtractor.start(new SymbolExtractor.Config(
                    ctags, workers, Duration.ofMillis(ctagsTimeoutMs), symbolBudgetMb << 20)));
        } catch (IOException e) {
            err.println("note: building without symbols (sym: search will say so): " + e.getMessage());
            return SymbolChoice.none("built without ctags: " + e.getMessage());
        }
    }

    /** The build options these flags say, for {@code shards} shards; null (after a message on {@code err}) when a flag is out of range. */
    IndexBuilder.Options options(int shards, PrintStream err) throws IOException {
        if (maxFileBytes < 1 || maxFileBytes > FilterLimits.MAX_FILE_BYTES) {
            err.println("error: --max-file-bytes must be in [1, " + FilterLimits.MAX_FILE_BYTES
                    + "] (64 MiB: a file's contents must be one" + " span of a shard's mapping), got " + maxFileBytes);
            return null;
        }
        int workers = threads > 0 ? threads : Runtime.getRuntime().availableProcessors();
        return new IndexBuilder.Options(
                shards,
                new FilterLimits(maxFileBytes, skipGenerated),
                popularity == null ? Popularity.none() : Popularity.read(popularity),
                workers,
                (int) Math.max(1024, sortBufferBytes() / 4),
                symbolChoice(workers, err));
    }
}
