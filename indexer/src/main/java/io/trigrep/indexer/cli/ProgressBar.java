package io.trigrep.indexer.cli;

import io.trigrep.indexer.build.IndexStats;
import java.io.PrintStream;
import java.util.function.LongSupplier;

/**
 * The indexer's progress line: files, bytes, MB/s and ETA (from input bytes consumed). Redrawn in
 * place four times a second on a terminal; one line every five seconds when output is a log.
 */
final class ProgressBar implements AutoCloseable {
    private final IndexStats stats;
    private final LongSupplier inputDone;
    private final LongSupplier inputTotal;
    private final PrintStream out;
    private final boolean terminal;
    private final long start = System.nanoTime();
    private final Thread thread;
    private volatile boolean running = true;

    ProgressBar(IndexStats stats, LongSupplier inputDone, LongSupplier inputTotal, PrintStream out, boolean terminal) {
        this.stats = stats;
        this.inputDone = inputDone;
        this.inputTotal = inputTotal;
        this.out = out;
        this.terminal = terminal;
        this.thread = new Thread(this::run, "trigrep-progress");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        long period = terminal ? 250 : 5000;
        while (running) {
            try {
                Thread.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
            draw(false);
        }
    }

    String line() {
        double seconds = Math.max(1e-3, (System.nanoTime() - start) / 1e9);
        double mb = stats.bytes() / 1e6;
        long total = inputTotal.getAsLong();
        long done = Math.min(inputDone.getAsLong(), total);
        double fraction = total > 0 ? (double) done / total : 0;
        String eta = fraction > 0.01 && fraction < 1 ? duration(seconds / fraction - seconds) : "--:--";
        int width = 24;
        int filled = (int) Math.round(fraction * width);
        String line = String.format(
                "[%s%s] %3.0f%%  %,d files  %,.1f MB  %,.1f MB/s  ETA %s",
                "#".repeat(filled), " ".repeat(width - filled), fraction * 100, stats.files(), mb, mb / seconds, eta);
        // Once the input is read, the bar stands still while the shards are built (a minute with
        // ctags on a large corpus): say what is going on instead of a falling MB/s alone.
        String phase = stats.phase();
        return total > 0 && done >= total && phase != null ? line + "  " + phase : line;
    }

    private static String duration(double seconds) {
        long s = Math.round(seconds);
        return String.format("%d:%02d", s / 60, s % 60);
    }

    private synchronized void draw(boolean last) {
        if (terminal) {
            out.print("\r" + line() + (last ? "\n" : ""));
        } else {
            out.println(line());
        }
        out.flush();
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        draw(true);
    }
}
