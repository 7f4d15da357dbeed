package io.trigrep.indexer.corpus;

import io.trigrep.indexer.files.FileTrees;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Consumer;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.NullProgressMonitor;
import org.eclipse.jgit.transport.CredentialsProvider;

/**
 * Bare mirrors of remote repositories in a cache folder, one per URL: cloned on first use, then
 * fetched (every ref, deleted ones pruned, forced updates taken) and repacked when they have
 * gathered many packs (git's {@code gc --auto} rule). The folder is named after the repository
 * and a hash of its URL, so two remotes of one name do not meet.
 */
public final class GitMirror {
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
        GitConfigs.install();
        try {
            if (Files.isDirectory(folder.resolve("objects"))) {
                try (Git git = Git.open(folder.toFile())) {
                    git.fetch()
                            .setRemote("origin")
                            .setRefSpecs("+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*")
                            .setRemoveDeletedRefs(true)
                            .setCredentialsProvider(credentials)
                            .setTimeout(timeoutSeconds)
                            .call();
                    try {
                        git.getRepository().autoGC(NullProgressMonitor.INSTANCE);
                    } catch (RuntimeException e) {
                        // The fetch took: more packs read as well as fewer, and the next fetch tries again.
                        warnings.accept(redact(url) + ": repacking the mirror failed ("
                                + redact(String.valueOf(e.getMessage()))
                                + (e.getCause() == null
                                        ? ""
                                        : ": "
                                                + redact(String.valueOf(
                                                        e.getCause().getMessage())))
                                + "); fetched all the same");
                    }
                }
            } else {
                Files.createDirectories(cache);
                Path partial = Files.createTempDirectory(cache, ".clone-");
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
            }
        } catch (GitAPIException | RuntimeException e) {
            // JGit's messages name the URL as given; a URL with a password in it is not repeated.
            throw new IOException(redact(url) + ": cannot mirror: " + redact(String.valueOf(e.getMessage())), e);
        }
        return folder;
    }

    /** {@code scheme://user:secret@host} with the secret left out. */
    public static String redact(String text) {
        return text.replaceAll("://([^/:@\\s]+):[^@/\\s]+@", "://$1:***@");
    }
}
