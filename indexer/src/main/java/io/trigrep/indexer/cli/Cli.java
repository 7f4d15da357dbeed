package io.trigrep.indexer.cli;

import picocli.CommandLine;

/** Runs one indexer command as {@code main} does: an exception is one line on stderr and exit code 2. */
final class Cli {
    private Cli() {}

    static int run(Object command, String[] args) {
        CommandLine line = new CommandLine(command).setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 2;
        });
        return line.execute(args);
    }
}
