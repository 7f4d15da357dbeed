package io.trigrep.indexer.cli;

import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.Shard;
import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ./trigrep files}: prints package/path of every file in shards, in doc-id (rank) order. */
@Command(name = "files", mixinStandardHelpOptions = true, description = "List the files shards hold, as package/path.")
public final class FilesCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "SHARD", description = "shard folders")
    List<Path> shards;

    @Override
    public Integer call() throws Exception {
        Writer out = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), 1 << 16);
        for (Path folder : shards) {
            DocTable docs = Shard.open(folder).docs();
            for (int doc = 0; doc < docs.docCount(); doc++) {
                out.write(docs.packageName(docs.packageId(doc)) + "/" + docs.path(doc) + "\n");
            }
        }
        out.flush();
        return 0;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new FilesCommand()).execute(args));
    }
}
