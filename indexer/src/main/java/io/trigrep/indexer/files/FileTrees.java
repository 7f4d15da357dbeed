package io.trigrep.indexer.files;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.stream.Stream;

/** The two file-system chores every writer of an index shares: removing a tree and making a name durable. */
public final class FileTrees {
    private FileTrees() {}

    /** Deletes {@code root} and everything under it, deepest first; nothing when it does not exist. */
    public static void delete(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /**
     * Forces {@code path} to disk: a file's bytes, or a folder's entries (so that a rename into it
     * survives a crash). A file system that refuses to open folders for that is let be: the rename
     * is still atomic; a file that cannot be forced is an error.
     */
    public static void fsync(Path path) throws IOException {
        boolean folder = Files.isDirectory(path);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            if (!folder) {
                throw e;
            }
        }
    }
}
