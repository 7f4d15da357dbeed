package io.trigrep.indexer.cli;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.IndexUpdater;
import io.trigrep.indexer.segments.IndexFolder;
import java.io.PrintStream;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./trigrep merge}: folds each shard's segments into one, dropping deleted files. */
@Command(
        name = "merge",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Fold each shard's segments into one, dropping the files updates deleted (with --tiered, only what the"
                    + " tiered policy picks, as update does after each change). Committed as the index's next"
                    + " generation; backends switch to it while serving, and merge returns once they have."
        },
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {
            "0:merged, or nothing to merge",
            "2:bad usage or the merge failed (nothing was changed)",
            "3:merged, but a backend serving the index did not switch to it within --wait-for-backends"
        })
public final class MergeCommand implements Callable<Integer> {
    @Mixin
    IndexOption folder;

    @Option(names = "--tiered", description = "merge only what the tiered policy picks, not everything")
    boolean tiered;

    @Option(
            names = "--rebalance",
            description =
                    "re-place every package over the shards as a fresh build would, balancing shards that removals left"
                            + " uneven (a package that moves may show twice, or not at all, while the backends switch)")
    boolean rebalance;

    @Mixin
    BuildOptions build;

    @Mixin
    BackendsOption backends;

    @Override
    public Integer call() throws Exception {
        PrintStream err = System.err;
        IndexBuilder.Options options =
                build.options(IndexFolder.current(folder.index).shards().size(), err);
        if (options == null) {
            return 2;
        }
        if (tiered && rebalance) {
            err.println("error: --tiered and --rebalance exclude each other");
            return 2;
        }
        IndexUpdater updater = new IndexUpdater(options, Clock.systemUTC());
        IndexUpdater.Result r = rebalance
                ? updater.rebalance(folder.index, message -> err.println("error: " + message))
                : updater.merge(folder.index, !tiered, message -> err.println("error: " + message));
        if (r.merged() == 0) {
            System.out.println("nothing to merge: generation " + r.fromGeneration() + " stays");
        } else {
            System.out.println("generation " + r.fromGeneration() + " -> " + r.toGeneration() + ": merged " + r.merged()
                    + " segments into " + r.mergedInto());
            if (!backends.await(folder.index, r.toGeneration(), System.out, err)) {
                return BackendsOption.BEHIND;
            }
        }
        return 0;
    }

    public static void main(String[] args) {
        System.exit(Cli.run(new MergeCommand(), args));
    }
}
