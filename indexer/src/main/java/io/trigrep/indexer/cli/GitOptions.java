package io.trigrep.indexer.cli;

import io.trigrep.indexer.corpus.GitMirror;
import java.nio.file.Path;
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

    GitMirror mirror() {
        return new GitMirror(cache, GitCredentials.fromEnvironment());
    }
}
