package io.trigrep.indexer.cli;

import io.trigrep.indexer.files.IoMessages;
import picocli.CommandLine;

/** Runs one indexer command as {@code main} does: an exception is one line on stderr and exit code 2. */
final class Cli {
    private Cli() {}

    static int run(Object command, String[] args) {
        CommandLine line = new CommandLine(command).setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + IoMessages.describe(e));
            return 2;
        });
        return line.execute(args);
    }
}
