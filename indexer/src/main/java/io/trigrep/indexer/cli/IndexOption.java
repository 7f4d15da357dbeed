package io.trigrep.indexer.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --index DIR}: the index folder every command that changes or reads a whole index takes. */
final class IndexOption {
    @Option(
            names = "--index",
            required = true,
            defaultValue = "${env:TRIGREP_INDEX_DIR}",
            description = "the index folder, holding shard-0 … and its generation (env TRIGREP_INDEX_DIR)")
    Path index;
}
