package io.trigrep.indexer.cli;

import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.corpus.GitPackage;
import io.trigrep.indexer.files.TextFiles;
import io.trigrep.indexer.segments.PackageKey;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The remotes {@code ./trigrep sync --git FILE} keeps an index in step with. One repository a line:
 *
 * <pre>
 * # URL [BRANCH,BRANCH...] [name=NAME] [links=TEMPLATE] [user=USER] [token-file=PATH]
 * https://github.com/madler/zlib.git  develop,master
 * https://git.example.org/team/tool.git  main  name=tool  links=https://git.example.org/team/tool/src/{commit}/{path}#L{line}
 * </pre>
 *
 * No branches: the branch the remote's HEAD names. {@code name}: the package name (default the
 * URL's last segment without {@code .git}). {@code links}: the code host's link template (default
 * for the common hosts, from the URL). {@code token-file}: a file whose first line is the password
 * or token for this remote, with {@code user} (default {@code git}); without it, the environment's
 * ({@link GitCredentials}). Blank lines and lines starting with {@code #} are skipped.
 */
record GitRemotes(List<Remote> remotes) {
    record Remote(String url, List<String> branches, String name, String links, String user, Path tokenFile) {}

    /** Far more than a list of thousands of remotes takes. */
    static final int MAX_BYTES = 16 << 20;

    static GitRemotes read(Path file) throws IOException {
        List<Remote> remotes = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        int number = 0;
        for (String line : TextFiles.read(file, MAX_BYTES).lines().toList()) {
            number++;
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            String[] words = trimmed.split("\\s+", -1);
            List<String> branches = List.of();
            String name = "";
            String links = "";
            String user = "";
            Path tokenFile = null;
            for (int i = 1; i < words.length; i++) {
                String w = words[i];
                int eq = w.indexOf('=');
                String key = eq > 0 ? w.substring(0, eq) : "";
                String value = eq > 0 ? w.substring(eq + 1) : "";
                switch (key) {
                    case "name" -> name = value;
                    case "links" -> links = value;
                    case "user" -> user = value;
                    case "token-file" -> tokenFile = Path.of(value);
                    case "" -> {
                        if (!branches.isEmpty()) {
                            throw new IOException(file + ":" + number + ": two branch lists; write BRANCH,BRANCH");
                        }
                        branches = List.of(w.split(",", -1));
                        if (branches.contains("")) {
                            throw new IOException(file + ":" + number + ": an empty branch name in " + w);
                        }
                    }
                    default ->
                        throw new IOException(file + ":" + number + ": unknown setting " + key
                                + "= (name=, links=, user=, token-file=)");
                }
            }
            String url = words[0];
            String packageName = name.isEmpty() ? GitPackage.repositoryName(url) : name;
            String bad = Corpus.badName(packageName);
            if (bad != null) {
                throw new IOException(file + ":" + number + ": " + bad);
            }
            // An index holds one package of a key (a name without its _VERSION): two would replace each other.
            String clash = names.putIfAbsent(PackageKey.of(packageName), packageName);
            if (clash != null) {
                throw new IOException(file + ":" + number + ": a second repository named "
                        + (clash.equals(packageName) ? packageName : packageName + ", the same package as " + clash)
                        + "; give one of them name=NAME");
            }
            remotes.add(new Remote(url, branches, packageName, links, user, tokenFile));
        }
        return new GitRemotes(List.copyOf(remotes));
    }
}
