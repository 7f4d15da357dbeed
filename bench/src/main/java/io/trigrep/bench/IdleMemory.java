package io.trigrep.bench;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How much slower memory is to read after it was left untouched for a while, on this machine: maps
 * FILE as a backend maps its shard, reads it whole once, then for each idle time in seconds sleeps
 * that long and reads it whole twice, printing both times and their ratio, and how much of the
 * mapping the kernel maps in 2 MiB entries (FilePmdMapped of /proc/self/smaps). Reads a long per
 * 64-byte line, as a scan does: the time is the memory's, not the arithmetic's. Only the JDK:
 * runs from source ({@code java IdleMemory.java}) with no build.
 *
 * <pre>java bench/src/main/java/io/trigrep/bench/IdleMemory.java FILE IDLE_SECONDS...</pre>
 */
public final class IdleMemory {
    /** The first line of a mapping's entry in smaps: its address range. */
    private static final java.util.regex.Pattern MAPPING = java.util.regex.Pattern.compile("[0-9a-f]+-[0-9a-f]+ ");

    private IdleMemory() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length < 2) {
            System.err.println("usage: java IdleMemory.java FILE IDLE_SECONDS...");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        List<MappedByteBuffer> parts = new ArrayList<>();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = channel.size();
            for (long at = 0; at < size; at += Integer.MAX_VALUE) {
                parts.add(channel.map(FileChannel.MapMode.READ_ONLY, at, Math.min(Integer.MAX_VALUE, size - at)));
            }
        }
        long sink = 0;
        long warm = System.nanoTime();
        sink += read(parts);
        System.out.printf(
                "%s: %d MB, first read %.1f ms, %s%n",
                file, Files.size(file) >> 20, (System.nanoTime() - warm) / 1e6, pmdMapped(file));
        for (int i = 1; i < args.length; i++) {
            int idle = Integer.parseInt(args[i]);
            TimeUnit.SECONDS.sleep(idle);
            long start = System.nanoTime();
            sink += read(parts);
            long first = System.nanoTime() - start;
            start = System.nanoTime();
            sink += read(parts);
            long again = System.nanoTime() - start;
            System.out.printf(
                    "after %3d s idle: read %7.1f ms, again %7.1f ms, ratio %.2f%n",
                    idle, first / 1e6, again / 1e6, (double) first / again);
        }
        System.out.println("(checksum " + (sink & 0xff) + ")");
    }

    private static long read(List<MappedByteBuffer> parts) {
        long sum = 0;
        for (MappedByteBuffer part : parts) {
            int end = part.limit() - Long.BYTES;
            for (int at = 0; at <= end; at += 64) {
                sum += part.getLong(at);
            }
        }
        return sum;
    }

    /** FilePmdMapped of the mappings of {@code file} in /proc/self/smaps, or why it is unknown. */
    private static String pmdMapped(Path file) {
        try {
            String name = file.toRealPath().toString();
            long pmdKb = 0;
            long rssKb = 0;
            boolean ours = false;
            for (String line : Files.readAllLines(Path.of("/proc/self/smaps"))) {
                if (MAPPING.matcher(line).lookingAt()) {
                    ours = line.endsWith(name);
                } else if (ours && line.startsWith("FilePmdMapped:")) {
                    pmdKb += Long.parseLong(line.replaceAll("\\D", ""));
                } else if (ours && line.startsWith("Rss:")) {
                    rssKb += Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
            return String.format("%d of %d MB resident in 2 MiB mappings", pmdKb >> 10, rssKb >> 10);
        } catch (IOException | RuntimeException e) {
            return "2 MiB mappings unknown (" + e + ")";
        }
    }
}
