package io.trigrep.indexer.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code System.out} and {@code System.err} caught while this is open, readable meanwhile from any
 * thread (a command running rounds prints as it goes), and put back on close.
 */
final class CapturedStreams implements AutoCloseable {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream oldOut = System.out;
    private final PrintStream oldErr = System.err;

    CapturedStreams() {
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        System.setOut(oldOut);
        System.setErr(oldErr);
    }
}
