package io.trigrep.indexer.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
                secret = Files.readAllLines(Path.of(tokenFile), StandardCharsets.UTF_8).stream()
                        .findFirst()
                        .orElse("")
                        .strip();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the token file " + tokenFile, e);
            }
        }
        if (secret == null || secret.isEmpty()) {
            return null;
        }
        return new UsernamePasswordCredentialsProvider(user == null || user.isEmpty() ? "git" : user, secret);
    }
}
