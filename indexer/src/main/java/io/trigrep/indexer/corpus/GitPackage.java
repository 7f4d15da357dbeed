package io.trigrep.indexer.corpus;

import io.trigrep.indexer.filter.SkipReason;
import io.trigrep.indexer.format.GitRefs;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.errors.RepositoryNotFoundException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.RepositoryCache;
import org.eclipse.jgit.lib.RepositoryCacheConfig;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.treewalk.AbstractTreeIterator;
import org.eclipse.jgit.treewalk.CanonicalTreeParser;
import org.eclipse.jgit.treewalk.EmptyTreeIterator;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.eclipse.jgit.treewalk.filter.TreeFilter;
import org.eclipse.jgit.util.FS;

/**
 * A git repository as one package: the trees of some branches or tags at their commits, read from
 * the object database (no checkout). A path whose content is the same on several branches is one
 * file with those branches in its mask, as Zoekt's branch masks do; a path whose content differs
 * is one file per distinct content. Symbolic links and submodule entries are skipped and counted
 * (submodules as {@code vcs}). Files come in path order, then branch order. An update of a
 * repository whose branches moved reads only the paths {@link #changedSince} the indexed commits
 * ({@link #only}).
 */
public final class GitPackage implements PackageSource {
    private final String name;
    private final Path folder;
    private final GitRefs refs;
    /** The only paths read; null: every path. */
    private final Set<String> paths;

    private GitPackage(String name, Path folder, GitRefs refs, Set<String> paths) {
        this.name = name;
        this.folder = folder;
        this.refs = refs;
        this.paths = paths == null ? null : Set.copyOf(paths);
    }

    /** This repository read only at {@code paths} (each a file's whole path): a partial re-read. */
    public GitPackage only(Set<String> paths) {
        return new GitPackage(name, folder, refs, paths);
    }

    /** This repository read at {@code other} branches and commits. */
    public GitPackage at(GitRefs other) {
        return new GitPackage(name, folder, other, paths);
    }

    /** The paths this package reads; null when it reads every path. */
    public Set<String> paths() {
        return paths;
    }

    /**
     * The paths whose entry (blob or mode) differs on some branch between {@code indexed} (the
     * branches an index holds this repository at) and this package's branches: a moved branch's
     * tree diffed against its old one, an added or deleted branch's whole tree. Every other path
     * holds the same contents on the same branches, so its files and their branch masks stand. Null
     * when the change cannot be worked out that way (an indexed commit is gone from the object
     * database, or the branches common to both come in another order): read everything.
     */
    public Set<String> changedSince(GitRefs indexed) throws IOException {
        List<String> common = new ArrayList<>();
        for (GitRefs.Branch b : refs.branches()) {
            if (indexed.commit(b.name()) != null) {
                common.add(b.name());
            }
        }
        List<String> before = new ArrayList<>();
        for (GitRefs.Branch b : indexed.branches()) {
            if (refs.commit(b.name()) != null) {
                before.add(b.name());
            }
        }
        if (!common.equals(before)) {
            return null; // masks count branches in order: a reordered list is read afresh
        }
        Set<String> names = new TreeSet<>();
        indexed.branches().forEach(b -> names.add(b.name()));
        refs.branches().forEach(b -> names.add(b.name()));
        Set<String> changed = new TreeSet<>();
        try (Repository repo = openRepository(folder);
                ObjectReader reader = repo.newObjectReader();
                RevWalk walk = new RevWalk(reader)) {
            for (String branch : names) {
                String was = indexed.commit(branch);
                String now = refs.commit(branch);
                if (was != null && was.equals(now)) {
                    continue;
                }
                try (TreeWalk diff = new TreeWalk(reader)) {
                    diff.addTree(treeOf(walk, reader, was));
                    diff.addTree(treeOf(walk, reader, now));
                    diff.setRecursive(true);
                    diff.setFilter(TreeFilter.ANY_DIFF);
                    while (diff.next()) {
                        changed.add(diff.getPathString());
                    }
                }
            }
        } catch (MissingObjectException e) {
            return null;
        } catch (IllegalArgumentException e) {
            throw new IOException(folder + ": " + e.getMessage(), e);
        }
        return changed;
    }

    private static AbstractTreeIterator treeOf(RevWalk walk, ObjectReader reader, String commit) throws IOException {
        if (commit == null) {
            return new EmptyTreeIterator();
        }
        CanonicalTreeParser tree = new CanonicalTreeParser();
        tree.reset(reader, walk.parseCommit(ObjectId.fromString(commit)).getTree());
        return tree;
    }

    /**
     * Opens the repository at {@code folder} (a work tree or a bare repository) and resolves
     * {@code branches} (branch or tag names; none: the branch HEAD names) to their commits.
     * {@code name} empty: the folder's name without {@code .git}. {@code links}: the link template,
     * empty for the one {@link LinkTemplates} derives from the remote {@code origin}, if any.
     */
    public static GitPackage open(Path folder, List<String> branches, String name, String links) throws IOException {
        try (Repository repo = openRepository(folder);
                RevWalk walk = new RevWalk(repo)) {
            List<GitRefs.Branch> resolved = new ArrayList<>();
            if (branches.isEmpty()) {
                Ref head = repo.exactRef(Constants.HEAD);
                if (head == null || head.getObjectId() == null) {
                    throw new IOException(
                            folder + ": the repository has no commit at HEAD; name a branch (" + folder + "@BRANCH)");
                }
                String branch = head.isSymbolic()
                        ? Repository.shortenRefName(head.getTarget().getName())
                        : "HEAD";
                resolved.add(new GitRefs.Branch(
                        branch, walk.parseCommit(head.getObjectId()).name()));
            }
            for (String b : branches) {
                Ref ref = null;
                for (String prefix :
                        new String[] {Constants.R_HEADS, Constants.R_TAGS, Constants.R_REMOTES + "origin/"}) {
                    ref = ref != null ? ref : repo.exactRef(prefix + b);
                }
                if (ref == null || ref.getObjectId() == null) {
                    throw new IOException(folder + ": no branch or tag named " + b);
                }
                if (resolved.stream().anyMatch(r -> r.name().equals(b))) {
                    throw new IOException(folder + ": branch " + b + " named twice");
                }
                resolved.add(new GitRefs.Branch(
                        b, walk.parseCommit(ref.getObjectId()).name()));
            }
            String template = links.isEmpty()
                    ? LinkTemplates.forRemote(repo.getConfig().getString("remote", "origin", "url"))
                    : links;
            return new GitPackage(
                    name.isEmpty() ? repositoryName(folder.toString()) : name,
                    folder,
                    new GitRefs(resolved, template),
                    null);
        } catch (IllegalArgumentException e) {
            throw new IOException(folder + ": " + e.getMessage(), e);
        }
    }

    /** Which of {@code branches} (branch or tag names) the repository at {@code folder} has. */
    public static List<String> existing(Path folder, List<String> branches) throws IOException {
        List<String> out = new ArrayList<>();
        try (Repository repo = openRepository(folder)) {
            for (String b : branches) {
                if (repo.exactRef(Constants.R_HEADS + b) != null
                        || repo.exactRef(Constants.R_TAGS + b) != null
                        || repo.exactRef(Constants.R_REMOTES + "origin/" + b) != null) {
                    out.add(b);
                }
            }
        }
        return out;
    }

    /**
     * How long JGit's cache keeps a repository open after its last use, not its default hour: long
     * enough for the reads of one update to share it, short enough that a sync of many
     * repositories holds only those of its last two seconds (their pack indexes in memory), and a
     * deleted repository's files are closed soon after.
     */
    static final long CACHED_MILLIS = 2_000;

    static {
        RepositoryCacheConfig cache = new RepositoryCacheConfig();
        cache.setExpireAfter(CACHED_MILLIS);
        cache.install();
    }

    /**
     * Opens the repository at {@code folder} (a bare repository, or a work tree with its {@code .git}
     * folder) from JGit's cache of open repositories, so that the reads of one update (its refs,
     * the changed paths, the files before and after) and the fetch before them load the pack
     * indexes once. A work tree whose {@code .git} is a file (a linked work tree, a submodule) is
     * opened on its own.
     */
    static Repository openRepository(Path folder) throws IOException {
        GitConfigs.install();
        Path dotGit = folder.resolve(".git");
        try {
            if (Files.exists(dotGit, LinkOption.NOFOLLOW_LINKS)
                    && !Files.isDirectory(dotGit, LinkOption.NOFOLLOW_LINKS)) {
                return new FileRepositoryBuilder()
                        .setMustExist(true)
                        .setWorkTree(folder.toFile())
                        .build();
            }
            File gitDir = Files.isDirectory(dotGit, LinkOption.NOFOLLOW_LINKS) ? dotGit.toFile() : folder.toFile();
            if (!RepositoryCache.FileKey.isGitRepository(gitDir, FS.DETECTED)) {
                throw new RepositoryNotFoundException(gitDir); // a cached entry would not look again
            }
            return RepositoryCache.open(RepositoryCache.FileKey.exact(gitDir, FS.DETECTED), true);
        } catch (IOException e) {
            throw new IOException(folder + ": not a git repository (" + e.getMessage() + ")", e);
        }
    }

    /** The last segment of a path or URL, without {@code .git}: {@code https://host/a/zlib.git} is {@code zlib}. */
    public static String repositoryName(String pathOrUrl) {
        String s = pathOrUrl;
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        if (s.endsWith("/.git")) {
            s = s.substring(0, s.length() - 5);
        }
        int cut = Math.max(s.lastIndexOf('/'), s.lastIndexOf(':'));
        s = s.substring(cut + 1);
        return s.endsWith(".git") ? s.substring(0, s.length() - 4) : s;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public GitRefs refs() {
        return refs;
    }

    /** The repository's pack and loose objects' bytes: progress only. */
    @Override
    public long inputBytes() {
        Path objects =
                Files.isDirectory(folder.resolve(".git")) ? folder.resolve(".git/objects") : folder.resolve("objects");
        long total = 0;
        try (Stream<Path> walk = Files.walk(objects)) {
            for (Path p : walk.filter(Files::isRegularFile).toList()) {
                total += Files.size(p);
            }
        } catch (IOException | UncheckedIOException e) {
            return total;
        }
        return total;
    }

    /** A path's distinct contents, each with the mask of the branches that hold it, in branch order. */
    private record Entries(Map<String, Map<ObjectId, long[]>> files, Map<String, SkipReason> skipped) {}

    @Override
    public void read(FileVisitor visitor) throws IOException {
        try (Repository repo = openRepository(folder);
                ObjectReader reader = repo.newObjectReader();
                RevWalk walk = new RevWalk(reader)) {
            Entries entries = new Entries(new TreeMap<>(), new TreeMap<>());
            List<GitRefs.Branch> branches = refs.branches();
            for (int b = 0; b < branches.size(); b++) {
                RevCommit commit =
                        walk.parseCommit(ObjectId.fromString(branches.get(b).commit()));
                collect(reader, commit, 1L << b, entries);
            }
            for (Map.Entry<String, SkipReason> s : entries.skipped().entrySet()) {
                visitor.skipped(s.getKey(), s.getValue(), 0);
            }
            for (Map.Entry<String, Map<ObjectId, long[]>> f : entries.files().entrySet()) {
                String path = f.getKey();
                for (Map.Entry<ObjectId, long[]> blob : f.getValue().entrySet()) {
                    long size = reader.getObjectSize(blob.getKey(), Constants.OBJ_BLOB);
                    if (size > visitor.maxFileBytes()) {
                        visitor.skipped(path, SkipReason.TOO_LARGE, size);
                        continue;
                    }
                    visitor.file(
                            path,
                            ByteBuffer.wrap(bytes(reader.open(blob.getKey(), Constants.OBJ_BLOB))),
                            blob.getValue()[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            throw new IOException(
                    folder + ": " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()), e);
        }
    }

    private void collect(ObjectReader reader, RevCommit commit, long bit, Entries entries) throws IOException {
        if (paths != null && paths.isEmpty()) {
            return;
        }
        try (TreeWalk tree = new TreeWalk(reader)) {
            tree.addTree(commit.getTree());
            tree.setRecursive(true);
            if (paths != null) {
                tree.setFilter(new DecodedPaths(paths));
            }
            while (tree.next()) {
                FileMode mode = tree.getFileMode(0);
                String path = tree.getPathString();
                if (mode == FileMode.GITLINK) {
                    entries.skipped().putIfAbsent(path, SkipReason.VCS);
                } else if (mode == FileMode.SYMLINK) {
                    entries.skipped().putIfAbsent(path, SkipReason.SYMLINK);
                } else if (mode == FileMode.REGULAR_FILE || mode == FileMode.EXECUTABLE_FILE) {
                    entries.files()
                            .computeIfAbsent(path, p -> new LinkedHashMap<>())
                            .computeIfAbsent(tree.getObjectId(0), id -> new long[1])[0] |= bit;
                }
            }
        }
    }

    private static byte[] bytes(ObjectLoader loader) throws IOException {
        if (!loader.isLarge()) {
            return loader.getCachedBytes();
        }
        try (InputStream in = loader.openStream()) {
            return in.readAllBytes();
        }
    }
}
