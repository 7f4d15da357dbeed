package io.trigrep.indexer.cli;

import io.trigrep.indexer.files.IoMessages;
import io.trigrep.indexer.files.TextFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import org.eclipse.jgit.transport.CredentialsProvider;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;

/**
 * Credentials for private remotes, from the environment: {@code TRIGREP_GIT_USER} (default
 * {@code git}) with {@code TRIGREP_GIT_TOKEN}, or with the first line of the file
 * {@code TRIGREP_GIT_TOKEN_FILE} names. Never printed.
 */
final class GitCredentials {
    private GitCredentials() {}

    /** null when the environment gives none. */
    static CredentialsProvider fromEnvironment() {
        return of(
                System.getenv("TRIGREP_GIT_USER"),
                System.getenv("TRIGREP_GIT_TOKEN"),
                System.getenv("TRIGREP_GIT_TOKEN_FILE"));
    }

    static CredentialsProvider of(String user, String token, String tokenFile) {
        String secret = token;
        if ((secret == null || secret.isEmpty()) && tokenFile != null && !tokenFile.isEmpty()) {
            try {
                secret = TextFiles.read(Path.of(tokenFile), 64 << 10)
                        .lines()
                        .findFirst()
                        .orElse("")
                        .strip();
            } catch (IOException e) {
                throw new UncheckedIOException("token file " + IoMessages.describe(e), e);
            }
        }
        if (secret == null || secret.isEmpty()) {
            return null;
        }
        return new UsernamePasswordCredentialsProvider(user == null || user.isEmpty() ? "git" : user, secret);
    }
}
