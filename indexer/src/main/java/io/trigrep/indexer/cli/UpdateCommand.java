package io.trigrep.indexer.cli;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.IndexUpdater;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.corpus.GitMirror;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import java.io.PrintStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./trigrep update}: adds, replaces and removes packages of an index, as one new generation. */
@Command(
        name = "update",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Add, replace or remove packages of an index without rebuilding it. New packages go to the lightest"
                    + " shards, as a new segment each; a package whose source name the index holds (zlib for"
                    + " zlib_1.3-1) replaces it. The change is committed at once, as the index's next generation:"
                    + " backends serving it switch to it while serving, and update returns once they have (no answer"
                    + " after it holds what it removed). Before that, small segments are merged as the"
                    + " tiered policy says (unless --no-merge)."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:done",
            "1:done, but some input could not be read (its older version, if any, stays)",
            "2:bad usage, a --remove of a package the index does not hold, or nothing could be changed",
            "3:done, but a backend serving the index did not switch to it within --wait-for-backends"
        })
public final class UpdateCommand implements Callable<Integer> {
    @Mixin
    IndexOption folder;

    @Option(
            names = "--add",
            arity = "1..*",
            paramLabel = "INPUT",
            description = "packages, folders of packages, .dsc files or archives, as index takes them")
    List<String> add = new ArrayList<>();

    @Option(
            names = "--remove",
            arity = "1..*",
            paramLabel = "PACKAGE",
            description = "packages to remove: a source name (zlib) or a full name (zlib_1.2.13.dfsg-1); a name the"
                    + " index does not hold fails the update, nothing changed")
    List<String> remove = new ArrayList<>();

    @Option(names = "--no-merge", description = "do not merge segments after the update")
    boolean noMerge;

    @Mixin
    BuildOptions build;

    @Mixin
    GitOptions git;

    @Mixin
    BackendsOption backends;

    @Override
    public Integer call() throws Exception {
        PrintStream err = System.err;
        if (add.isEmpty() && remove.isEmpty()) {
            err.println("error: nothing to do: give --add INPUT... or --remove PACKAGE...");
            return 2;
        }
        String holder = Corpus.holdingIndex(add, folder.index);
        if (holder != null) {
            err.println("error: --index " + folder.index + " lies inside the input " + holder
                    + ", which would take in the index's own files: move the index or give the packages one by one");
            return 2;
        }
        Generation before = IndexFolder.current(folder.index);
        IndexBuilder.Options options = build.options(before.shards().size(), err);
        if (options == null) {
            return 2;
        }
        int[] inputErrors = {0};
        List<PackageSource> packages = add.isEmpty()
                ? List.of()
                : Corpus.discoverInputs(add, folder.index, git.mirror(), message -> {
                    inputErrors[0]++;
                    err.println("error: " + message);
                });
        if (!add.isEmpty() && packages.isEmpty()) {
            err.println("error: no packages found in " + GitMirror.redact(add.toString()));
            return 2;
        }
        IndexUpdater.Result r;
        long start = System.nanoTime();
        try {
            r = new IndexUpdater(options, Clock.systemUTC())
                    .update(folder.index, packages, remove, !noMerge, message -> err.println("error: " + message));
        } catch (IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return 2;
        }
        PrintStream out = System.out;
        out.println("generation " + r.fromGeneration() + " -> " + r.toGeneration());
        out.println("added      " + r.added().size() + (r.added().isEmpty() ? "" : "  " + String.join(" ", r.added())));
        out.println("replaced   " + r.replaced().size()
                + (r.replaced().isEmpty() ? "" : "  " + String.join(" ", r.replaced())));
        out.println("removed    " + r.removed().size()
                + (r.removed().isEmpty() ? "" : "  " + String.join(" ", r.removed())));
        if (!r.unchanged().isEmpty()) {
            out.println("unchanged  " + r.unchanged().size() + "  " + String.join(" ", r.unchanged()));
        }
        r.moved().forEach((name, paths) -> out.println("moved      " + name + "  " + paths + " changed paths re-read"));
        if (r.merged() > 0) {
            out.println("merged     " + r.merged() + " segments into " + r.mergedInto());
        }
        // As the index command's time line: the change itself, once its inputs are found.
        out.printf("time       %.2f s%n", (System.nanoTime() - start) / 1e9);
        boolean switched = backends.await(folder.index, r.toGeneration(), out, err);
        return inputErrors[0] + r.errors().size() > 0 ? 1 : switched ? 0 : BackendsOption.BEHIND;
    }

    public static void main(String[] args) {
        System.exit(Cli.run(new UpdateCommand(), args));
    }
}
