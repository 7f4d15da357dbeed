package io.trigrep.indexer.cli;

import io.trigrep.indexer.corpus.GitMirror;
import java.nio.file.Path;
import org.eclipse.jgit.transport.CredentialsProvider;
import picocli.CommandLine.Option;

/** Where the commands that read inputs keep the mirrors of git URLs. */
final class GitOptions {
    @Option(
            names = "--git-cache",
            paramLabel = "DIR",
            defaultValue = "${env:TRIGREP_GIT_CACHE:-${sys:user.home}/.cache/trigrep/git}",
            description = "bare mirrors of the git URLs given as inputs, one per URL (env TRIGREP_GIT_CACHE; default"
                    + " ${DEFAULT-VALUE})")
    Path cache;

    @Option(
            names = "--git-timeout",
            paramLabel = "SECONDS",
            defaultValue = "${env:TRIGREP_GIT_TIMEOUT:-120}",
            description = "how long a remote may keep a clone or fetch waiting for its next bytes before it fails"
                    + " (env TRIGREP_GIT_TIMEOUT; default ${DEFAULT-VALUE}; 0: for ever)")
    int timeoutSeconds;

    /** A mirror cache with the environment's credentials; warnings go to standard error. */
    GitMirror mirror() {
        return mirror(GitCredentials.fromEnvironment());
    }

    GitMirror mirror(CredentialsProvider credentials) {
        return new GitMirror(cache, credentials, timeoutSeconds, w -> System.err.println("warning: " + w));
    }
}
