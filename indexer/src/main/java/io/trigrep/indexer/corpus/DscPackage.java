package io.trigrep.indexer.corpus;

import io.trigrep.indexer.files.FileTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Debian source package: a {@code .dsc} and the tarballs it lists. With {@code dpkg-source} on
 * the machine the package is unpacked exactly as Debian does (patches applied) into a scratch
 * folder and read from there; without it, the upstream tarball is read (its top folder stripped)
 * and then the {@code debian} tarball, each as a stream.
 */
public final class DscPackage implements PackageSource {
    private final Path dsc;
    private final String name;
    private final List<Path> files;
    private final Path scratch;

    private DscPackage(Path dsc, String name, List<Path> files, Path scratch) {
        this.dsc = dsc;
        this.name = name;
        this.files = files;
        this.scratch = scratch;
    }

    /** Parses the .dsc; {@code scratch} is where dpkg-source may unpack (deleted again after reading). */
    public static DscPackage parse(Path dsc, Path scratch) throws IOException {
        String source = null;
        String version = null;
        List<Path> files = new ArrayList<>();
        boolean inFiles = false;
        for (String line : Files.readAllLines(dsc, StandardCharsets.UTF_8)) {
            if (line.startsWith("Source:")) {
                source = line.substring(7).trim();
            } else if (line.startsWith("Version:")) {
                version = line.substring(8).trim();
            }
            if (line.startsWith("Files:")) {
                inFiles = true;
                continue;
            }
            if (inFiles) {
                if (!line.startsWith(" ")) {
                    inFiles = false;
                    continue;
                }
                String[] fields = line.trim().split("\\s+", -1);
                if (fields.length == 3) {
                    files.add(dsc.resolveSibling(fields[2]));
                }
            }
        }
        if (source == null || version == null) {
            throw new IOException(dsc + ": not a Debian source control file (no Source: or Version: field)");
        }
        // The epoch ("1:") is not part of file or package names on the mirror.
        int colon = version.indexOf(':');
        String plainVersion = colon >= 0 ? version.substring(colon + 1) : version;
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                throw new IOException(dsc + ": lists " + file.getFileName() + ", which is missing");
            }
        }
        return new DscPackage(dsc, source + "_" + plainVersion, files, scratch);
    }

    /** The tarballs this .dsc consumes, so a folder scan does not index them a second time. */
    public List<Path> files() {
        return files;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long inputBytes() {
        long total = 0;
        for (Path file : files) {
            try {
                total += Files.size(file);
            } catch (IOException e) {
                // counted as zero: progress only
            }
        }
        return total;
    }

    @Override
    public void read(FileVisitor visitor) throws IOException {
        read(visitor, dpkgSourceAvailable());
    }

    void read(FileVisitor visitor, boolean useDpkgSource) throws IOException {
        if (useDpkgSource) {
            Path out = Files.createTempDirectory(scratch, "dsc-");
            Path unpacked = out.resolve("src");
            try {
                Process process = new ProcessBuilder(
                                "dpkg-source", "--no-check", "--no-copy", "-x", dsc.toString(), unpacked.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                if (!process.waitFor(30, TimeUnit.MINUTES) || process.exitValue() != 0) {
                    process.destroyForcibly();
                    throw new IOException(dsc + ": dpkg-source -x failed (exit " + process.exitValue() + ")");
                }
                new FolderPackage(name, unpacked).read(visitor);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(dsc + ": interrupted while unpacking", e);
            } finally {
                FileTrees.delete(out);
            }
            return;
        }
        for (Path file : files) {
            String fileName = file.getFileName().toString();
            if (!ArchivePackage.isArchive(fileName)) {
                continue;
            }
            boolean debian = fileName.contains(".debian.tar.");
            new ArchivePackage(name, file, "", !debian).read(visitor);
        }
    }

    static boolean dpkgSourceAvailable() {
        // An empty entry, trailing ones too, is the current folder, as the shell reads PATH.
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":", -1)) {
            if (Files.isExecutable(Path.of(dir, "dpkg-source"))) {
                return true;
            }
        }
        return false;
    }
}
