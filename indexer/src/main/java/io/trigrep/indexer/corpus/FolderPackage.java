package io.trigrep.indexer.corpus;

import io.trigrep.indexer.filter.ContentFilter;
import io.trigrep.indexer.filter.SkipReason;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** A package that is an unpacked folder (Debian Code Search's mirror layout). Symbolic links are never followed. */
public final class FolderPackage implements PackageSource {
    private final String name;
    private final Path root;

    public FolderPackage(String name, Path root) {
        this.name = name;
        this.root = root;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long inputBytes() {
        // One stat per entry, the walk's own: this sum only sizes the progress bar, and a stat per
        // question (is it a file? how large?) made the walks of a corpus cost several per file.
        long[] total = {0};
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    if (attributes.isRegularFile()) {
                        total[0] += attributes.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException e) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | UncheckedIOException e) {
            return total[0];
        }
        return total[0];
    }

    @Override
    public void read(FileVisitor visitor) throws IOException {
        ByteBuffer[] buffer = {ByteBuffer.allocate(64 << 10)};
        walk(entries(root), "", visitor, buffer);
    }

    /** A folder's entries by name. */
    private static List<Path> entries(Path dir) throws IOException {
        List<Path> entries = new ArrayList<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.forEach(entries::add);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        entries.sort(
                (a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()));
        return entries;
    }

    /** Hands {@code visitor} the files under a folder of {@code entries}; a sub-folder that cannot be listed is skipped, as a file that cannot be read is. */
    private void walk(List<Path> entries, String prefix, FileVisitor visitor, ByteBuffer[] buffer) throws IOException {
        for (Path entry : entries) {
            String path = prefix + entry.getFileName();
            BasicFileAttributes attributes =
                    Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (attributes.isSymbolicLink()) {
                visitor.skipped(path, SkipReason.SYMLINK, 0);
            } else if (attributes.isDirectory()) {
                if (ContentFilter.isVcsFolder(entry.getFileName().toString())) {
                    visitor.skipped(path + "/", SkipReason.VCS, 0);
                } else {
                    List<Path> children;
                    try {
                        children = entries(entry);
                    } catch (IOException e) {
                        visitor.skipped(path + "/", SkipReason.UNREADABLE, 0);
                        continue;
                    }
                    walk(children, path + "/", visitor, buffer);
                }
            } else if (attributes.isRegularFile()) {
                long size = attributes.size();
                if (size > visitor.maxFileBytes()) {
                    visitor.skipped(path, SkipReason.TOO_LARGE, size);
                    continue;
                }
                try {
                    visitor.file(path, readFile(entry, (int) size, buffer));
                } catch (IOException e) {
                    visitor.skipped(path, SkipReason.UNREADABLE, size);
                }
            }
        }
    }

    private static ByteBuffer readFile(Path file, int size, ByteBuffer[] buffer) throws IOException {
        if (buffer[0].capacity() < size) {
            buffer[0] = ByteBuffer.allocate(Math.max(size, buffer[0].capacity() * 2));
        }
        ByteBuffer b = buffer[0].clear().limit(size);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            // At most 1 MiB per read: the JDK reads into a heap buffer through a cached direct one as large as the
            // read.
            while (b.hasRemaining()) {
                int limit = b.limit();
                b.limit(Math.min(limit, b.position() + (1 << 20)));
                int n = channel.read(b);
                b.limit(limit);
                if (n < 0) {
                    break; // a file that shrank underneath us just ends early
                }
            }
        }
        return b.flip();
    }
}
