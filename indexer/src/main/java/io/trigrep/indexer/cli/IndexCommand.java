package io.trigrep.indexer.cli;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.IndexStats;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.corpus.GitMirror;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.filter.SkipReason;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.symbols.Symbols;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
            names = "--skipped",
            paramLabel = "FILE",
            defaultValue = "${env:TRIGREP_SKIPPED}",
            description =
                    "write every skipped file to FILE, one per line: reason<TAB>bytes<TAB>package/path (reason as in the summary: binary, too_large, symlink, vcs, unsafe_path, unreadable, generated; a tab, newline or backslash in a path is written as \\t, \\n, \\\\) (env TRIGREP_SKIPPED)")
    Path skippedList;

    /** Removed: long lines and many trigrams no longer keep a file out. Accepted with a warning so old scripts still run. */
    @Option(
            names = {"--max-line-bytes", "--max-trigrams"},
            hidden = true,
            paramLabel = "N")
    List<String> removedOptions;

    @Option(
            names = "--verify",
            defaultValue = "${env:TRIGREP_VERIFY:-false}",
            description = "read every written shard back and check its checksums (env TRIGREP_VERIFY)")
    boolean verify;

    @Mixin
    BuildOptions build;

    @Mixin
    GitOptions git;

    @Parameters(
            arity = "1..*",
            paramLabel = "INPUT",
            description = "a package (a folder with debian/ at its root or named NAME_VERSION; NAME=FOLDER for any"
                    + " folder), a folder of packages, a .dsc file or an archive")
    List<String> inputs;

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
        IndexBuilder.Options options = build.options(shards, err);
        if (options == null) {
            return 2;
        }
        String holder = Corpus.holdingIndex(inputs, out);
        if (holder != null) {
            err.println("error: --out " + out + " lies inside the input " + holder
                    + ", which would take in the index's own files: write the index elsewhere");
            return 2;
        }
        Files.createDirectories(out);
        int[] errorCount = {0};
        List<PackageSource> packages = Corpus.discoverInputs(inputs, out, git.mirror(), message -> {
            errorCount[0]++;
            err.println("error: " + message);
        });
        if (packages.isEmpty()) {
            err.println("error: no packages found in " + GitMirror.redact(inputs.toString()));
            return 2;
        }
        err.println("indexing " + packages.size() + " packages into " + shards + " shard(s) under " + out);
        IndexBuilder builder = new IndexBuilder(options, Clock.systemUTC());
        IndexStats stats = builder.stats();
        IndexBuilder.Report report;
        // A console whatever the streams are since Java 22; isTerminal() says whether they are one.
        // The null check stays for a runtime without a console provider.
        @SuppressWarnings("SystemConsoleNull")
        boolean terminal = System.console() != null && System.console().isTerminal();
        try (ProgressBar bar = new ProgressBar(stats, () -> inputDone(stats), () -> inputTotal(stats), err, terminal)) {
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
        System.exit(Cli.run(new IndexCommand(), args));
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
