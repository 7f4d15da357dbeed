package io.trigrep.indexer.segments;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The backends serving an index folder, as each says in a file of the folder's {@code serving/}
 * subfolder: which generation it serves, once every frontend that pings it has learnt that
 * generation. An update waits on these files ({@link #await}) so that it returns only when no
 * answer can still come from the generation it replaced.
 *
 * <h2>Format</h2>
 * One file per backend process, named by the backend ({@code [A-Za-z0-9._-]+}, never starting with
 * a dot), holding two lines of UTF-8 text, each ended by {@code '\n'}:
 * <pre>
 * generation N        the generation number it serves (decimal; 0 for shards without generations)
 * address HOST:PORT   where it listens, for messages
 * </pre>
 * A backend writes its file whole to {@code .NAME.tmp} and renames it over {@code NAME}, when it
 * starts, after each switch, and every {@link #HEARTBEAT} in between (the rewrite is the sign of
 * life); it deletes its file when it stops. A file not rewritten for {@link #STALE} belongs to a
 * backend that died or hangs, and is not waited for. Readers skip what does not parse.
 */
public final class ServingBackends {
    /** How often a backend rewrites its file. */
    public static final Duration HEARTBEAT = Duration.ofSeconds(2);
    /** A file older than this is a dead or hung backend's. */
    static final Duration STALE = HEARTBEAT.multipliedBy(4);

    private static final String FOLDER = "serving";

    private ServingBackends() {}

    /** What one backend's file says. */
    public record Entry(String name, long generation, String address) {}

    /** The folder of the files of the backends serving the index in {@code root}. */
    public static Path folder(Path root) {
        return root.resolve(FOLDER);
    }

    /** Writes (or rewrites) backend {@code name}'s file: it serves {@code generation}. */
    public static void write(Path root, String name, long generation, String address) throws IOException {
        if (!name.matches("[A-Za-z0-9_-][A-Za-z0-9._-]*")) {
            throw new IllegalArgumentException("not a backend file name: " + name);
        }
        Path folder = Files.createDirectories(folder(root));
        Path tmp = folder.resolve("." + name + ".tmp");
        Files.writeString(tmp, "generation " + generation + "\naddress " + address + "\n", StandardCharsets.UTF_8);
        try {
            Files.move(tmp, folder.resolve(name), StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, folder.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Deletes backend {@code name}'s file, if it is there. */
    public static void remove(Path root, String name) throws IOException {
        Files.deleteIfExists(folder(root).resolve(name));
    }

    /** The files of the backends alive at {@code now}: rewritten within {@link #STALE}. */
    public static List<Entry> alive(Path root, Instant now) throws IOException {
        List<Entry> alive = new ArrayList<>();
        Path folder = folder(root);
        if (!Files.isDirectory(folder)) {
            return alive;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(folder)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                if (name.startsWith(".")) {
                    continue;
                }
                try {
                    Instant written = Files.getLastModifiedTime(file).toInstant();
                    if (written.isBefore(now.minus(STALE))) {
                        continue;
                    }
                    Entry entry = parse(name, Files.readString(file, StandardCharsets.UTF_8));
                    if (entry != null) {
                        alive.add(entry);
                    }
                } catch (NoSuchFileException e) {
                    // its backend stopped since the listing
                }
            }
        }
        return alive;
    }

    private static Entry parse(String name, String text) {
        String[] lines = text.split("\n", -1);
        if (lines.length != 3 || !lines[0].startsWith("generation ") || !lines[1].startsWith("address ")) {
            return null;
        }
        try {
            long generation = Long.parseLong(lines[0].substring("generation ".length()));
            return generation < 0 ? null : new Entry(name, generation, lines[1].substring("address ".length()));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Waits until every backend alive serving the index in {@code root} serves {@code generation}
     * or a later one, for at most {@code timeout}; returns those that still do not (empty: all
     * do, or none is alive).
     */
    public static List<Entry> await(Path root, long generation, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Entry> behind = new ArrayList<>();
            for (Entry e : alive(root, Instant.now())) {
                if (e.generation() < generation) {
                    behind.add(e);
                }
            }
            if (behind.isEmpty() || System.nanoTime() - deadline >= 0) {
                return behind;
            }
            TimeUnit.MILLISECONDS.sleep(20);
        }
    }
}
