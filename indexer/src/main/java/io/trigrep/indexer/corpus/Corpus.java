package io.trigrep.indexer.corpus;

import io.trigrep.indexer.segments.PackageKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
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
 * Finds the packages among the indexer's inputs; each input says what it is. A folder that is itself
 * a package (a git repository, a folder with {@code debian/} at its root, a folder named
 * {@code NAME_VERSION}) is one package; {@code NAME=FOLDER} makes any folder one package named NAME;
 * another folder is a mirror, whose sub-folders are packages, each {@code .dsc} a Debian source
 * package (its tarballs are not indexed again), each other archive a package. A folder that is
 * neither (files at its root besides archives and .dsc files, and sub-folders that are not
 * packages by their looks) is refused, saying how to write it. A
 * file input is one {@code .dsc} or one archive. Packages are returned sorted by name, so a build's
 * order does not depend on the file system's.
 */
public final class Corpus {
    private Corpus() {}

    /** {@link #discoverInputs} over paths. */
    public static List<PackageSource> discover(List<Path> inputs, Path scratch, Consumer<String> errors) {
        return discoverInputs(inputs.stream().map(Path::toString).toList(), scratch, null, errors);
    }

    /**
     * Discovers packages; problems with an input are reported to {@code errors} and that input is
     * skipped. A git input is a repository's folder or a URL (mirrored into {@code mirrors} first;
     * null: URLs are refused), optionally followed by {@code @BRANCH,BRANCH…}.
     */
    public static List<PackageSource> discoverInputs(
            List<String> inputs, Path scratch, GitMirror mirrors, Consumer<String> errors) {
        TreeMap<String, PackageSource> packages = new TreeMap<>();
        for (String input : inputs) {
            try {
                Path path = GitMirror.isUrl(input) ? null : Path.of(input);
                GitPackage git = path != null && Files.exists(path) ? null : git(input, mirrors);
                if (git != null) {
                    add(git, packages, errors);
                } else if (path == null) {
                    errors.accept(input + ": not a repository URL this reads");
                } else if (Files.isDirectory(path)) {
                    folder(path, scratch, packages, errors);
                } else if (Files.isRegularFile(path)) {
                    add(single(path, scratch), packages, errors);
                } else if (named(input) != null) {
                    String name = named(input);
                    Path dir = Path.of(input.substring(name.length() + 1));
                    add(new FolderPackage(name, dir), packages, errors);
                } else {
                    errors.accept(input + ": no such file or folder");
                }
            } catch (IOException | InvalidPathException e) {
                errors.accept(e.getMessage());
            }
        }
        return new ArrayList<>(packages.values());
    }

    /**
     * The repository {@code input} names: {@code FOLDER@BRANCHES}, a URL, or {@code URL@BRANCHES};
     * null when it names none.
     */
    private static GitPackage git(String input, GitMirror mirrors) throws IOException {
        String target = input;
        List<String> branches = List.of();
        int at = input.lastIndexOf('@');
        if (at > 0
                && !input.substring(at + 1).contains("/")
                && !input.substring(at + 1).contains(":")) {
            String left = input.substring(0, at);
            if (GitMirror.isUrl(left) || (Files.isDirectory(Path.of(left)) && isGitRepository(Path.of(left)))) {
                target = left;
                branches = List.of(input.substring(at + 1).split(",", -1));
                if (branches.stream().anyMatch(String::isEmpty)) {
                    throw new IOException(input + ": an empty branch name; write REPO@BRANCH,BRANCH");
                }
            }
        }
        if (GitMirror.isUrl(target)) {
            if (mirrors == null) {
                throw new IOException(input + ": a URL needs a mirror cache (--git-cache)");
            }
            Path folder = mirrors.update(target);
            return GitPackage.open(
                    folder, branches, GitPackage.repositoryName(target), LinkTemplates.forRemote(target));
        }
        if (!branches.isEmpty()) {
            return GitPackage.open(Path.of(target), branches, "", "");
        }
        return null;
    }

    /**
     * The input folder (a folder, or the FOLDER of NAME=FOLDER) that holds {@code index}, whose
     * packages would then take in the index's own files, or null when none does. Links are
     * resolved on both sides.
     */
    public static String holdingIndex(List<String> inputs, Path index) throws IOException {
        Path inside = index.toAbsolutePath().normalize();
        Path existing = inside;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing != null) {
            inside = existing.toRealPath().resolve(existing.relativize(inside));
        }
        for (String input : inputs) {
            try {
                // As discoverInputs reads it: a folder, else the FOLDER of NAME=FOLDER.
                Path folder = Path.of(input);
                if (!Files.isDirectory(folder)) {
                    folder = Path.of(input.substring(input.indexOf('=') + 1));
                }
                if (Files.isDirectory(folder) && inside.startsWith(folder.toRealPath())) {
                    return input;
                }
            } catch (InvalidPathException e) {
                // not a path: a URL, read elsewhere
            }
        }
        return null;
    }

    /**
     * NAME of a {@code NAME=FOLDER} input whose FOLDER is a folder, or null; a folder given with a
     * name no package may have is refused ({@link #badName}).
     */
    private static String named(String input) throws IOException {
        int eq = input.indexOf('=');
        if (eq <= 0 || eq == input.length() - 1 || input.substring(0, eq).contains("/")) {
            return null;
        }
        if (!Files.isDirectory(Path.of(input.substring(eq + 1)))) {
            return null;
        }
        String name = input.substring(0, eq);
        String bad = badName(name);
        if (bad != null) {
            throw new IOException(input + ": " + bad);
        }
        return name;
    }

    /**
     * Why {@code name} cannot name a package (it is a path's first folder in results and file
     * views, one line in listings), or null when it can.
     */
    public static String badName(String name) {
        if (name.isEmpty() || name.equals(".") || name.equals("..")) {
            return "a package name must not be empty, . or ..";
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/'
                    || c == '\\'
                    || Character.isWhitespace(c)
                    || Character.isSpaceChar(c)
                    || Character.isISOControl(c)) {
                return "a package name holds no /, \\, blank or control character: " + name.strip();
            }
        }
        return null;
    }

    /** What a folder input is. */
    enum FolderKind {
        GIT,
        DEBIAN,
        VERSIONED,
        MIRROR
    }

    static FolderKind kind(Path folder) {
        if (isGitRepository(folder)) {
            return FolderKind.GIT;
        }
        if (Files.isDirectory(folder.resolve("debian"), LinkOption.NOFOLLOW_LINKS)) {
            return FolderKind.DEBIAN;
        }
        String name = name(folder);
        return PackageKey.of(name).equals(name) ? FolderKind.MIRROR : FolderKind.VERSIONED;
    }

    /**
     * A work tree (a {@code .git} folder with a {@code HEAD}, or a {@code .git} file naming one) or a
     * bare repository ({@code HEAD}, {@code objects/}, {@code refs/}). A stray {@code .git} folder
     * without {@code HEAD} leaves a folder what it otherwise is.
     */
    public static boolean isGitRepository(Path folder) {
        Path dotGit = folder.resolve(".git");
        return Files.isRegularFile(dotGit.resolve("HEAD"))
                || Files.isRegularFile(dotGit, LinkOption.NOFOLLOW_LINKS)
                || (Files.isRegularFile(folder.resolve("HEAD"))
                        && Files.isDirectory(folder.resolve("objects"))
                        && Files.isDirectory(folder.resolve("refs")));
    }

    private static String name(Path folder) {
        Path abs = folder.toAbsolutePath().normalize();
        return abs.getFileName() == null ? "" : abs.getFileName().toString();
    }

    private static void folder(
            Path folder, Path scratch, NavigableMap<String, PackageSource> packages, Consumer<String> errors)
            throws IOException {
        FolderKind kind = kind(folder);
        if (kind == FolderKind.GIT) {
            add(GitPackage.open(folder, List.of(), "", ""), packages, errors);
            return;
        }
        if (kind != FolderKind.MIRROR) {
            add(new FolderPackage(name(folder), folder), packages, errors);
            return;
        }
        mirror(folder, scratch, packages, errors);
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
        List<DscPackage> dscs = new ArrayList<>();
        for (Path entry : entries) {
            if (entry.getFileName().toString().endsWith(".dsc") && Files.isRegularFile(entry)) {
                try {
                    DscPackage dsc = DscPackage.parse(entry, scratch);
                    consumed.addAll(dsc.files());
                    dscs.add(dsc);
                } catch (IOException e) {
                    errors.accept(e.getMessage());
                }
            }
        }
        // Loose files beside sub-folders that are not packages by their looks (src/, doc/) are what a
        // package holds; beside package folders (a mirror's NOTICE) they are left out, as before.
        List<String> plain = new ArrayList<>();
        for (Path entry : entries) {
            String name = entry.getFileName().toString();
            if (!name.startsWith(".")
                    && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)
                    && kind(entry) == FolderKind.MIRROR) {
                plain.add(name + "/");
            }
        }
        List<String> loose = new ArrayList<>();
        for (Path entry : entries) {
            String name = entry.getFileName().toString();
            if (!name.startsWith(".")
                    && !consumed.contains(entry)
                    && !name.endsWith(".dsc")
                    && !ArchivePackage.isArchive(name)
                    && Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS)) {
                loose.add(name);
            }
        }
        if (!loose.isEmpty() && !plain.isEmpty()) {
            throw new IOException(folder + ": is it one package or a folder of packages? It holds files at its root ("
                    + String.join(", ", loose.subList(0, Math.min(3, loose.size())))
                    + (loose.size() > 3 ? ", …" : "")
                    + ") and folders that are not packages by their names ("
                    + String.join(", ", plain.subList(0, Math.min(3, plain.size())))
                    + (plain.size() > 3 ? ", …" : "")
                    + "), as a package does, but no .git, no debian/ and no NAME_VERSION name. Write "
                    + name(folder) + "=" + folder
                    + " to index it as one package named " + name(folder)
                    + "; a folder of packages holds package folders (NAME_VERSION, a git repository or debian/ inside),"
                    + " archives and .dsc files");
        }
        for (DscPackage dsc : dscs) {
            add(dsc, packages, errors);
        }
        for (Path entry : entries) {
            String name = entry.getFileName().toString();
            if (name.startsWith(".") || consumed.contains(entry) || name.endsWith(".dsc")) {
                continue;
            }
            if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) && isGitRepository(entry)) {
                try {
                    add(GitPackage.open(entry, List.of(), "", ""), packages, errors);
                } catch (IOException e) {
                    errors.accept(e.getMessage());
                }
            } else if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
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
