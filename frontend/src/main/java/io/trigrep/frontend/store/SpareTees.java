package io.trigrep.frontend.store;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Tee files done with, kept for the next queries to write over instead of being removed: a file
 * written over keeps its page-cache pages, where a new file takes free memory. On a virtual
 * machine whose balloon reports free memory to the host (free page reporting), memory freed a few
 * seconds earlier comes back only through the host's page faults: here a new 600 MB file took 0.9
 * to 1.0 s to write after 20 s of idle, and 41 to 50 ms written over an old one; a frontend's
 * first Linux {@code struct} query after ready (a 249 MB tee) spent 230 ms of CPU in its tee writes
 * against 30 in the next ones (BENCHMARKS.md). Direct writes bypass the page cache, so a tee that
 * uses them is not kept.
 *
 * <p>At most {@code maxFiles} files and {@code maxBytes} bytes are kept, in the folder the tees
 * are in, named {@code spare-N.tee}; the most recently kept is taken first (its pages are the
 * likeliest still cached). Those a frontend left behind when it stopped are removed when the next
 * one starts. A taken file is longer than the tee about to write over it, mostly: a tee reads only
 * the bytes it appended.
 *
 * <p>A frontend starts with none but the one its warm-up's last large answer leaves, so its warm-up
 * ends by writing one ({@link #prime}): the first large answer after ready then writes over cached
 * pages, as later ones do.
 */
public final class SpareTees {
    private static final String PREFIX = "spare-";
    private static final String SUFFIX = ".tee";

    private record Spare(Path path, long bytes) {}

    private final Path folder;
    private final int maxFiles;
    private final long maxBytes;
    private final Deque<Spare> kept = new ArrayDeque<>();
    private long keptBytes;
    private long names;

    /** Removes the spares an earlier frontend left in {@code folder}. */
    public SpareTees(Path folder, int maxFiles, long maxBytes) throws IOException {
        if (maxFiles < 0 || maxBytes < 0) {
            throw new IllegalArgumentException("maxFiles and maxBytes must be at least 0");
        }
        this.folder = folder;
        this.maxFiles = maxFiles;
        this.maxBytes = maxBytes;
        try (DirectoryStream<Path> left = Files.newDirectoryStream(folder, PREFIX + "*" + SUFFIX)) {
            for (Path p : left) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Puts the most recently kept spare at {@code path}, in place of the file there if any. False
     * when none is kept, or when that file could not be removed (the spare is then gone): {@code
     * path} is left as it was. True when {@code path} names another file now, to be opened again:
     * the spare, or a new empty file when the move failed (the spare is then gone).
     *
     * <p>The file at {@code path} is removed before the move, so that the move never renames over
     * an existing file: ext4 then first writes out the moved file's pages not yet on disk (its
     * {@code auto_da_alloc} heuristic for a file replaced by a rename), in the query's ingest. On
     * this project's VM a file of 256 MiB (a primed spare's size) written 0 to 20 s before took 40
     * to 55 ms to move over an empty file and 0.12 ms once that file was removed; in the first
     * large answer after ready, that wait put the query's ingest past its quantum, at a lower OS
     * priority ({@code SerialExecutor}) than in the answers after it (BENCHMARKS.md).
     */
    boolean takeInto(Path path) throws IOException {
        Spare spare;
        synchronized (this) {
            spare = kept.pollFirst();
            if (spare == null) {
                return false;
            }
            keptBytes -= spare.bytes();
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            deleteQuietly(spare.path());
            return false; // path is as it was
        }
        try {
            Files.move(spare.path(), path, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            deleteQuietly(spare.path());
            Files.newByteChannel(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE)
                    .close();
        }
        return true;
    }

    /**
     * Keeps the closed tee file at {@code path} for a later query when there is room, making room
     * by letting the oldest spare go; returns the file the caller is to remove: null when {@code
     * path} was kept and nothing let go, that spare when one was, {@code path} itself when it was
     * not kept.
     */
    Path keep(Path path) {
        long bytes;
        try {
            bytes = Files.size(path);
        } catch (IOException e) {
            return path;
        }
        synchronized (this) {
            if (bytes > maxBytes || maxFiles == 0) {
                return path;
            }
            Spare oldest = null;
            if (kept.size() >= maxFiles || keptBytes + bytes > maxBytes) {
                oldest = kept.peekLast();
                if (kept.size() - 1 >= maxFiles || keptBytes - oldest.bytes() + bytes > maxBytes) {
                    return path; // one let go would not make room
                }
            }
            Path name = folder.resolve(PREFIX + names++ + SUFFIX);
            try {
                Files.move(path, name, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                return path;
            }
            if (oldest != null) {
                kept.pollLast();
                keptBytes -= oldest.bytes();
            }
            kept.addFirst(new Spare(name, bytes));
            keptBytes += bytes;
            return oldest == null ? null : oldest.path();
        }
    }

    /**
     * Writes a spare of {@code bytes} zeros (whole buffers of {@link TeeBuffers#BUFFER_BYTES}),
     * for the first large answer after start to write over, as the answers of a frontend that
     * has run a while write over those before them; returns the bytes written. Writes nothing
     * when the most recently kept spare is that long already, when the bounds would not keep it,
     * or when the folder's disk would be left with less than {@code minFreeAfter} bytes free.
     * Blocks while it writes: call it while the frontend warms up, before it is ready.
     */
    public long prime(long bytes, long minFreeAfter) throws IOException {
        long length = bytes / TeeBuffers.BUFFER_BYTES * TeeBuffers.BUFFER_BYTES;
        synchronized (this) {
            Spare newest = kept.peekFirst();
            if (length == 0 || length > maxBytes || maxFiles == 0 || (newest != null && newest.bytes() >= length)) {
                return 0;
            }
        }
        if (Files.getFileStore(folder).getUsableSpace() - length < minFreeAfter) {
            return 0;
        }
        Path written = folder.resolve(PREFIX + "priming" + SUFFIX);
        ByteBuffer zeros = ByteBuffer.allocateDirect(TeeBuffers.BUFFER_BYTES);
        try (FileChannel out = FileChannel.open(
                written, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            for (long at = 0; at < length; at += zeros.capacity()) {
                zeros.clear();
                while (zeros.hasRemaining()) {
                    out.write(zeros, at + zeros.position());
                }
            }
        } catch (IOException e) {
            deleteQuietly(written);
            throw e;
        }
        Path remove = keep(written);
        // A spare let go, or the primed file itself, is as large as a heavy answer's tee: cut down
        // in steps as a tee is, not unlinked at once.
        TeeFile.remove(remove);
        return remove == written ? 0 : length;
    }

    /** Files kept now. */
    synchronized int files() {
        return kept.size();
    }

    /** Bytes kept now. */
    synchronized long bytes() {
        return keptBytes;
    }

    private static void deleteQuietly(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            // A spare that cannot be removed is left behind; the next start removes it.
        }
    }
}
