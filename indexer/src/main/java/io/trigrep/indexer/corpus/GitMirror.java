package io.trigrep.indexer.corpus;

import io.trigrep.indexer.files.FileTrees;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.FetchResult;

/**
 * Bare mirrors of remote repositories in a cache folder, one per URL: cloned on first use, then
 * fetched (every ref, deleted ones pruned, forced updates taken) and repacked when they have
 * gathered many packs (git's {@code gc --auto} rule). The folder is named after the repository
 * and a hash of its URL, so two remotes of one name do not meet.
 */
public final class GitMirror {
    private static final String CLONE_PREFIX = ".clone-";

    private final Path cache;
    private final CredentialsProvider credentials;
    private final int timeoutSeconds;
    private final Consumer<String> warnings;

    /**
     * {@code credentials} null: anonymous; {@code timeoutSeconds}: how long a remote may keep a
     * clone or fetch waiting for its next bytes (0: for ever); {@code warnings}: what went wrong
     * without failing the update.
     */
    public GitMirror(Path cache, CredentialsProvider credentials, int timeoutSeconds, Consumer<String> warnings) {
        if (timeoutSeconds < 0) {
            throw new IllegalArgumentException("--git-timeout must be >= 0, got " + timeoutSeconds);
        }
        this.cache = cache;
        this.credentials = credentials;
        this.timeoutSeconds = timeoutSeconds;
        this.warnings = warnings;
    }

    /** A URL as this reads it: a scheme ({@code https://}, {@code ssh://}, {@code file://}…) or scp-like {@code user@host:path}. */
    public static boolean isUrl(String input) {
        return input.matches("^[a-z][a-z0-9+.-]*://.+") || input.matches("^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:.+");
    }

    /** Where the mirror of {@code url} lives. */
    public Path folder(String url) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(url.getBytes(StandardCharsets.UTF_8));
            return cache.resolve(
                    GitPackage.repositoryName(url) + "-" + HexFormat.of().formatHex(hash, 0, 6) + ".git");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** Clones or fetches the mirror of {@code url}; returns its folder. */
    public Path update(String url) throws IOException {
        Path folder = folder(url);
        Path local = localPath(url);
        if (local != null && !Files.isDirectory(local)) {
            // JGit would say "Invalid remote: origin".
            throw new IOException(redact(url) + ": cannot mirror: no repository at " + local);
        }
        GitConfigs.install();
        try {
            if (Files.isDirectory(folder.resolve("objects"))) {
                fetch(folder, url);
            } else {
                Files.createDirectories(cache);
                clearKilledClones();
                cloneInto(folder, url);
            }
        } catch (GitAPIException | RuntimeException e) {
            // JGit's messages name the URL as given; a URL with a password in it is not repeated.
            throw new IOException(redact(url) + ": cannot mirror: " + redact(String.valueOf(e.getMessage())), e);
        }
        return folder;
    }

    /** The folder a {@code file://} URL names; null for other URLs, or one that is no plain path. */
    private static Path localPath(String url) {
        if (!url.startsWith("file:")) {
            return null;
        }
        try {
            return Path.of(URI.create(url));
        } catch (IllegalArgumentException | FileSystemNotFoundException e) {
            return null;
        }
    }

    private void fetch(Path folder, String url) throws IOException, GitAPIException {
        try (Repository repo = GitPackage.openRepository(folder)) {
            Git git = Git.wrap(repo);
            FetchResult result = git.fetch()
                    .setRemote("origin")
                    .setRefSpecs("+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*")
                    .setRemoveDeletedRefs(true)
                    .setCredentialsProvider(credentials)
                    .setTimeout(timeoutSeconds)
                    .call();
            followHead(repo, result);
            try {
                repo.autoGC(NullProgressMonitor.INSTANCE);
            } catch (RuntimeException e) {
                // The fetch took: more packs read as well as fewer, and the next fetch tries again.
                Throwable cause = e.getCause() == null ? e : e.getCause();
                warnings.accept(redact(url) + ": repacking the mirror failed ("
                        + redact(String.valueOf(cause.getMessage())) + "); fetched all the same");
            }
        }
    }

    /**
     * Points the mirror's HEAD at the branch the remote's HEAD names, as a fresh clone would: a
     * remote may change its default branch. A remote that does not say which branch its HEAD is
     * leaves it as it is.
     */
    private static void followHead(Repository repo, FetchResult result) throws IOException {
        Ref head = result.getAdvertisedRef(Constants.HEAD);
        if (head == null || !head.isSymbolic()) {
            return;
        }
        String target = head.getTarget().getName();
        Ref current = repo.exactRef(Constants.HEAD);
        if (!target.startsWith(Constants.R_HEADS)
                || (current != null
                        && current.isSymbolic()
                        && current.getTarget().getName().equals(target))) {
            return;
        }
        RefUpdate.Result linked = repo.updateRef(Constants.HEAD).link(target);
        if (linked != RefUpdate.Result.NEW
                && linked != RefUpdate.Result.FORCED
                && linked != RefUpdate.Result.NO_CHANGE) {
            throw new IOException("cannot point HEAD at " + target + ": " + linked);
        }
    }

    /**
     * Clones into a partial folder beside the mirror's, moved into place once complete. While it
     * clones, the process holds a lock on the partial folder's {@code .lock} file, made before
     * the folder: a partial folder whose lock nobody holds is what a killed clone left.
     */
    private void cloneInto(Path folder, String url) throws IOException, GitAPIException {
        Path lockFile = Files.createTempFile(cache, CLONE_PREFIX, ".lock");
        String name = lockFile.getFileName().toString();
        Path partial = cache.resolve(name.substring(0, name.length() - ".lock".length()));
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE)) {
            channel.lock(); // released as the channel closes
            Files.createDirectory(partial);
            try {
                Git.cloneRepository()
                        .setURI(url)
                        .setDirectory(partial.toFile())
                        .setMirror(true)
                        .setCredentialsProvider(credentials)
                        .setTimeout(timeoutSeconds)
                        .call()
                        .close();
                Files.move(partial, folder);
            } catch (GitAPIException | IOException | RuntimeException e) {
                // A clone that failed leaves nothing behind.
                try {
                    FileTrees.delete(partial);
                } catch (IOException | RuntimeException cleanup) {
                    e.addSuppressed(cleanup);
                }
                throw e;
            }
        } finally {
            Files.deleteIfExists(lockFile);
        }
    }

    /** Deletes the partial clones of killed processes: those whose lock no process holds, or that have none. */
    private void clearKilledClones() throws IOException {
        List<Path> partials = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(cache, CLONE_PREFIX + "*")) {
            for (Path p : entries) {
                if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                    partials.add(p);
                }
            }
        }
        for (Path partial : partials) {
            Path lockFile = partial.resolveSibling(partial.getFileName() + ".lock");
            if (!Files.exists(lockFile)) {
                FileTrees.delete(partial);
                continue;
            }
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
                    FileLock lock = channel.tryLock()) {
                if (lock != null) {
                    FileTrees.delete(partial);
                    Files.deleteIfExists(lockFile);
                }
            } catch (OverlappingFileLockException | NoSuchFileException e) {
                // cloning in this process, or finished (and cleared) meanwhile
            }
        }
    }

    /**
     * URLs in {@code text} with their secrets left out: the password of {@code scheme://user:secret@host}
     * (up to the last {@code @} before the path, so one with an {@code @} in it goes whole), and the
     * user of {@code http(s)://user@host}, where a token often stands as the user name.
     */
    public static String redact(String text) {
        return text.replaceAll("://([^/:@\\s]+):[^/\\s]*@", "://$1:***@")
                .replaceAll("(?i)(https?://)[^/:@\\s]+@", "$1***@");
    }
}
