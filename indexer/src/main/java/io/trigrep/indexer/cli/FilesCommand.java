package io.trigrep.indexer.cli;

import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.segments.LiveShard;
import io.trigrep.indexer.segments.Segment;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code ./trigrep files}: prints package/path of every file shards hold at their index's current
 * generation, segment by segment (oldest first), each in doc-id (rank) order; deleted files are
 * left out.
 */
@Command(name = "files", mixinStandardHelpOptions = true, description = "List the files shards hold, as package/path.")
public final class FilesCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "SHARD", description = "shard folders")
    List<Path> shards;

    @Override
    public Integer call() throws Exception {
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        for (Path folder : shards) {
            try (LiveShard shard = LiveShard.open(folder)) {
                for (Segment segment : shard.segments()) {
                    DocTable docs = segment.shard().docs();
                    for (int doc = 0; doc < docs.docCount(); doc++) {
                        if (segment.live(doc)) {
                            out.write(docs.packageName(docs.packageId(doc)) + "/" + docs.path(doc) + "\n");
                        }
                    }
                }
            }
        }
        out.flush();
        return 0;
    }

    public static void main(String[] args) {
        System.exit(Cli.run(new FilesCommand(), args));
    }
}
