package io.trigrep.indexer.corpus;

import io.trigrep.indexer.filter.ContentFilter;
import io.trigrep.indexer.filter.SkipReason;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import org.apache.commons.compress.archivers.ArchiveEntry;
import org.apache.commons.compress.archivers.ArchiveInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveInputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorInputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorInputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorInputStream;

/**
 * A package that is one archive: tar (plain, gzip, xz, bzip2) or zip/jar, read as a stream
 * without unpacking to disk. Tarballs usually hold one top-level folder ({@code zlib-1.2.13/});
 * {@code stripTopFolder} removes it from every path when every entry shares it.
 */
public final class ArchivePackage implements PackageSource {
    private static final String[] SUFFIXES = {
        ".tar.gz", ".tgz", ".tar.xz", ".txz", ".tar.bz2", ".tbz2", ".tar", ".zip", ".jar"
    };

    private final String name;
    private final Path archive;
    private final String pathPrefix;
    private final boolean stripTopFolder;

    public ArchivePackage(String name, Path archive, String pathPrefix, boolean stripTopFolder) {
        this.name = name;
        this.archive = archive;
        this.pathPrefix = pathPrefix;
        this.stripTopFolder = stripTopFolder;
    }

    /** An archive on its own: its package name is the file name without the archive suffix. */
    public static ArchivePackage of(Path archive) {
        String file = archive.getFileName().toString();
        boolean tar = !isZip(file);
        return new ArchivePackage(baseName(file), archive, "", tar);
    }

    public static boolean isArchive(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        for (String suffix : SUFFIXES) {
            if (lower.endsWith(suffix)) {
                return true;
            }
        }
        return false;
    }

    static boolean isZip(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        return lower.endsWith(".zip") || lower.endsWith(".jar");
    }

    static String baseName(String fileName) {
        String lower = fileName.toLowerCase(Locale.ROOT);
        for (String suffix : SUFFIXES) {
            if (lower.endsWith(suffix)) {
                return fileName.substring(0, fileName.length() - suffix.length());
            }
        }
        return fileName;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long inputBytes() {
        try {
            return Files.size(archive);
        } catch (IOException e) {
            return 0;
        }
    }

    @Override
    public void read(FileVisitor visitor) throws IOException {
        String top = stripTopFolder ? commonTopFolder() : null;
        try (ArchiveInputStream<? extends ArchiveEntry> in = open()) {
            byte[] buffer = new byte[64 << 10];
            for (ArchiveEntry entry; (entry = in.getNextEntry()) != null; ) {
                if (entry.isDirectory()) {
                    continue;
                }
                String path = Paths2.normalize(entry.getName());
                if (top != null && path.startsWith(top)) {
                    path = path.substring(top.length());
                }
                path = pathPrefix + path;
                if (isLink(entry)) {
                    visitor.skipped(path, SkipReason.SYMLINK, 0);
                    continue;
                }
                SkipReason unsafe = ContentFilter.checkPath(path);
                if (unsafe == SkipReason.UNSAFE_PATH) {
                    visitor.skipped(path, unsafe, Math.max(0, entry.getSize()));
                    continue;
                }
                long size = entry.getSize();
                if (size > visitor.maxFileBytes()) {
                    visitor.skipped(path, SkipReason.TOO_LARGE, size);
                    continue;
                }
                if (!in.canReadEntryData(entry)) {
                    visitor.skipped(path, SkipReason.UNREADABLE, Math.max(0, size));
                    continue;
                }
                int length = 0;
                long cap = visitor.maxFileBytes() + 1;
                while (true) {
                    if (length == buffer.length) {
                        if (length >= cap) {
                            break;
                        }
                        buffer = Arrays.copyOf(buffer, (int) Math.min(cap, 2L * buffer.length));
                    }
                    int n = in.read(buffer, length, buffer.length - length);
                    if (n < 0) {
                        break;
                    }
                    length += n;
                }
                if (length > visitor.maxFileBytes()) {
                    visitor.skipped(path, SkipReason.TOO_LARGE, length);
                    continue;
                }
                visitor.file(path, ByteBuffer.wrap(buffer, 0, length));
            }
        } catch (IOException | RuntimeException e) {
            throw new IOException(
                    archive + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
    }

    private static boolean isLink(ArchiveEntry entry) {
        if (entry instanceof TarArchiveEntry tar) {
            return tar.isSymbolicLink() || tar.isLink() || !tar.isFile();
        }
        if (entry instanceof ZipArchiveEntry zip) {
            return zip.isUnixSymlink();
        }
        return false;
    }

    /** The single top-level folder every entry is under ("zlib-1.2.13/"), or null. Costs one extra pass over the archive. */
    private String commonTopFolder() throws IOException {
        String top = null;
        try (ArchiveInputStream<? extends ArchiveEntry> in = open()) {
            for (ArchiveEntry entry; (entry = in.getNextEntry()) != null; ) {
                String path = Paths2.normalize(entry.getName());
                int slash = path.indexOf('/');
                if (slash <= 0) {
                    if (entry.isDirectory() && top == null) {
                        top = path + "/";
                        continue;
                    }
                    if (entry.isDirectory() && (path + "/").equals(top)) {
                        continue;
                    }
                    return null;
                }
                String first = path.substring(0, slash + 1);
                if (top == null) {
                    top = first;
                } else if (!top.equals(first)) {
                    return null;
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new IOException(
                    archive + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
        return top;
    }

    private ArchiveInputStream<? extends ArchiveEntry> open() throws IOException {
        String file = archive.getFileName().toString().toLowerCase(Locale.ROOT);
        InputStream raw = new BufferedInputStream(Files.newInputStream(archive), 1 << 16);
        try {
            if (isZip(file)) {
                return new ZipArchiveInputStream(raw, "UTF-8", true, true);
            }
            InputStream decompressed;
            if (file.endsWith(".gz") || file.endsWith(".tgz")) {
                decompressed = GzipCompressorInputStream.builder()
                        .setInputStream(raw)
                        .setDecompressConcatenated(true)
                        .get();
            } else if (file.endsWith(".xz") || file.endsWith(".txz")) {
                decompressed = XZCompressorInputStream.builder()
                        .setInputStream(raw)
                        .setDecompressConcatenated(true)
                        .get();
            } else if (file.endsWith(".bz2") || file.endsWith(".tbz2")) {
                decompressed = new BZip2CompressorInputStream(raw, true);
            } else {
                decompressed = raw;
            }
            return new TarArchiveInputStream(decompressed, "UTF-8");
        } catch (IOException | RuntimeException e) {
            raw.close();
            throw e;
        }
    }
}
