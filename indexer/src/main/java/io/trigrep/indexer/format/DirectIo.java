package io.trigrep.indexer.format;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Direct I/O ({@code O_DIRECT}) for writes of many bytes that nobody reads back soon: the indexer's
 * contents file and the frontend's tee files. Both write block-aligned runs from aligned buffers
 * and fall back to the page cache where the file system refuses.
 */
public final class DirectIo {
    /**
     * {@code ExtendedOpenOption.DIRECT}, looked up by name: it lives in {@code jdk.unsupported},
     * which javac flags as proprietary wherever it is named; null on a JDK without it.
     */
    private static final OpenOption DIRECT = directOption();

    private DirectIo() {}

    private static OpenOption directOption() {
        try {
            for (Object option :
                    Class.forName("com.sun.nio.file.ExtendedOpenOption").getEnumConstants()) {
                if (((Enum<?>) option).name().equals("DIRECT")) {
                    return (OpenOption) option;
                }
            }
        } catch (ClassNotFoundException e) {
            // no direct I/O on this JDK
        }
        return null;
    }

    /**
     * The alignment direct writes need in {@code folder}: its file system's block size when that is
     * a power of two in [4096, {@code max}], else 4096, a multiple of every logical block size Linux
     * uses.
     */
    public static int alignment(Path folder, int max) {
        try {
            long size = Files.getFileStore(folder).getBlockSize();
            if (size >= 4096 && size <= max && Long.bitCount(size) == 1) {
                return (int) size;
            }
        } catch (IOException | UnsupportedOperationException e) {
            // fall through to the safe default
        }
        return 4096;
    }

    /**
     * A second, write-only channel on an existing file that bypasses the page cache; null where
     * the file system refuses {@code O_DIRECT} (tmpfs on older kernels, some network and overlay
     * file systems).
     */
    public static FileChannel openForWrites(Path file) {
        if (DIRECT == null) {
            return null;
        }
        try {
            return FileChannel.open(file, StandardOpenOption.WRITE, DIRECT);
        } catch (IOException | UnsupportedOperationException e) {
            return null;
        }
    }
}
