package io.trigrep.indexer.corpus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Finds the packages among the indexer's inputs. A folder input is a mirror: each sub-folder is a
 * package, each {@code .dsc} a Debian source package (its tarballs are not indexed again), each
 * other archive a package. A file input is one {@code .dsc} or one archive. Packages are returned
 * sorted by name, so a build's order does not depend on the file system's.
 */
public final class Corpus {
    private Corpus() {}

    /** Discovers packages; problems with an input are reported to {@code errors} and that input is skipped. */
    public static List<PackageSource> discover(List<Path> inputs, Path scratch, Consumer<String> errors) {
        TreeMap<String, PackageSource> packages = new TreeMap<>();
        for (Path input : inputs) {
            try {
                if (Files.isDirectory(input)) {
                    mirror(input, scratch, packages, errors);
                } else if (Files.isRegularFile(input)) {
                    add(single(input, scratch), packages, errors);
                } else {
                    errors.accept(input + ": no such file or folder");
                }
            } catch (IOException e) {
                errors.accept(e.getMessage());
            }
        }
        return new ArrayList<>(packages.values());
    }

    private static PackageSource single(Path file, Path scratch) throws IOException {
        String name = file.getFileName().toString();
        if (name.endsWith(".dsc")) {
            return DscPackage.parse(file, scratch);
        }
        if (ArchivePackage.isArchive(name)) {
            return ArchivePackage.of(file);
        }
        throw new IOException(file + ": neither a folder, a .dsc nor a supported archive "
                + "(.tar.gz .tgz .tar.xz .tar.bz2 .tar .zip .jar)");
    }

    private static void mirror(
            Path folder, Path scratch, NavigableMap<String, PackageSource> packages, Consumer<String> errors)
            throws IOException {
        List<Path> entries;
        try (Stream<Path> list = Files.list(folder)) {
            entries = list.sorted().toList();
        }
        Set<Path> consumed = new HashSet<>();
        for (Path entry : entries) {
            if (entry.getFileName().toString().endsWith(".dsc") && Files.isRegularFile(entry)) {
                try {
                    DscPackage dsc = DscPackage.parse(entry, scratch);
                    consumed.addAll(dsc.files());
                    add(dsc, packages, errors);
                } catch (IOException e) {
                    errors.accept(e.getMessage());
                }
            }
        }
        for (Path entry : entries) {
            String name = entry.getFileName().toString();
            if (name.startsWith(".") || consumed.contains(entry) || name.endsWith(".dsc")) {
                continue;
            }
            if (Files.isDirectory(entry, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                add(new FolderPackage(name, entry), packages, errors);
            } else if (Files.isRegularFile(entry) && ArchivePackage.isArchive(name)) {
                add(ArchivePackage.of(entry), packages, errors);
            }
        }
    }

    private static void add(
            PackageSource source, NavigableMap<String, PackageSource> packages, Consumer<String> errors) {
        PackageSource previous = packages.putIfAbsent(source.name(), source);
        if (previous != null) {
            errors.accept("package " + source.name() + " appears twice in the input; the second copy is ignored");
        }
    }
}
