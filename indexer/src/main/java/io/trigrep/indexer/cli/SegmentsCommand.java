package io.trigrep.indexer.cli;

import io.trigrep.indexer.segments.Generation;
import io.trigrep.indexer.segments.IndexFolder;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code ./trigrep segments}: what an index's current generation holds, shard by shard. */
@Command(
        name = "segments",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description =
                "Show an index's generation and, per shard, its segments and deleted files (or, with --packages, the packages it holds).")
public final class SegmentsCommand implements Callable<Integer> {
    @Mixin
    IndexOption folder;

    @Option(names = "--packages", description = "print the packages the index holds, one full name per line, sorted")
    boolean packages;

    @Override
    public Integer call() throws Exception {
        Generation g = IndexFolder.current(folder.index);
        PrintStream out = System.out;
        if (packages) {
            for (Generation.PackageEntry p : g.packages()) {
                out.println(p.name());
            }
            return 0;
        }
        out.println("generation " + g.number() + (g.number() == 0 ? " (plain shards: no update has run)" : "") + ", "
                + g.packages().size() + " packages, symbols " + (g.symbols() ? "yes" : "no"));
        out.printf("%-10s %8s %10s %10s %14s%n", "shard", "segments", "files", "deleted", "bytes");
        for (Generation.ShardEntry s : g.shards()) {
            out.printf(
                    "%-10s %8d %,10d %,10d %,14d%n",
                    s.name(), s.segments().size(), s.liveDocs(), s.deleted(), s.liveBytes());
            for (Generation.SegmentEntry e : s.segments()) {
                out.printf(
                        "  %-8s %8s %,10d %,10d %,14d%n",
                        e.id() == 0 ? "base" : "seg-" + e.id(), "", e.docs() - e.deleted(), e.deleted(), e.liveBytes());
            }
        }
        return 0;
    }

    public static void main(String[] args) {
        System.exit(Cli.run(new SegmentsCommand(), args));
    }
}
