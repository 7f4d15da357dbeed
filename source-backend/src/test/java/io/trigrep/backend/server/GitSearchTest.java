package io.trigrep.backend.server;

import static io.trigrep.indexer.corpus.GitFixture.bytes;
import static io.trigrep.indexer.corpus.GitFixture.file;
import static io.trigrep.indexer.corpus.GitFixture.link;
import static io.trigrep.indexer.corpus.GitFixture.submodule;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.backend.StreamClient;
import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.build.IndexUpdater;
import io.trigrep.indexer.build.SymbolChoice;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.corpus.GitFixture;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.proto.GitRef;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Tls;
import io.trigrep.re2j.Pattern;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 63 through the backend: a real repository built with JGit, indexed at several branches,
 * then changed (a commit, a rename, a force-push, a deleted branch, the repository removed) and
 * re-indexed with updates. After each change every query's answer over the shards equals a
 * brute-force scan of the indexed commits' trees: each line of each distinct file content, with
 * the branches that hold it and the first one's commit.
 */
@Tag("integration")
class GitSearchTest {
    @TempDir
    Path dir;

    /** Queries: a regex, with branch:, -branch:, repo: and path: filters. */
    private static final List<String> QUERIES = List.of(
            "renamed_function",
            "util",
            "return [0-9]",
            "only on",
            "branch:dev util",
            "branch:main return",
            "-branch:dev readme",
            "repo:proj util",
            "repo:^other util",
            "branch:nosuch util",
            "path:^new/ renamed",
            "int");

    private static final IndexBuilder.Options OPTIONS =
            IndexBuilder.Options.defaults(2).withSymbols(SymbolChoice.none("test"));

    private static Map<String, GitFixture.Entry> mainTree() {
        Map<String, GitFixture.Entry> t = new LinkedHashMap<>();
        t.put("README", file("a readme\n"));
        t.put("src/util.c", file("int util(void) { return 1; }\nint other;\n"));
        t.put("old/name.c", file("int renamed_function(void);\n"));
        t.put("data.bin", bytes(new byte[] {'u', 't', 'i', 'l', 0, 2}));
        t.put("link", link("src/util.c"));
        t.put("vendor/lib", submodule("0123456789abcdef0123456789abcdef01234567"));
        return t;
    }

    private static Map<String, GitFixture.Entry> devTree() {
        Map<String, GitFixture.Entry> t = mainTree();
        t.put("src/util.c", file("int util(void) { return 2; }\nint other;\n"));
        t.remove("old/name.c");
        t.put("new/name.c", file("int renamed_function(void);\n"));
        t.put("dev.txt", file("only on dev\nutil\n"));
        return t;
    }

    @Test
    void answersEqualABruteForceScanOfTheIndexedCommitsAfterEveryChange() throws Exception {
        Path index = dir.resolve("index");
        IndexUpdater updater = new IndexUpdater(OPTIONS, Clock.systemUTC());
        try (GitFixture repo = GitFixture.bare(dir.resolve("proj.git"))) {
            repo.commit("main", mainTree());
            repo.commit("dev", devTree());
            repo.headAt("main");
            String input = repo.folder() + "@main,dev";
            List<String> errors = new ArrayList<>();
            new IndexBuilder(OPTIONS, Clock.systemUTC()).build(discover(input, errors), index, errors::add);
            assertThat(errors).isEmpty();
            check(index, repo, List.of("main", "dev"), "first build");

            // A commit on dev touching one file.
            Map<String, GitFixture.Entry> dev2 = devTree();
            dev2.put("dev.txt", file("only on dev, again\n"));
            repo.commit("dev", dev2);
            updater.update(index, discover(input, errors), List.of(), true, errors::add);
            assertThat(errors).isEmpty();
            check(index, repo, List.of("main", "dev"), "after a commit on dev");

            // A force-push rewrites main: README gone, a new file.
            Map<String, GitFixture.Entry> forced = mainTree();
            forced.remove("README");
            forced.put("src/forced.c", file("int util_forced = 3; /* return 3 */\n"));
            repo.forcePush("main", forced);
            updater.update(index, discover(input, errors), List.of(), true, errors::add);
            assertThat(errors).isEmpty();
            check(index, repo, List.of("main", "dev"), "after a force-push of main");

            // dev is deleted: the repository is indexed at main alone.
            repo.deleteBranch("dev");
            updater.update(index, discover(repo.folder() + "@main", errors), List.of(), true, errors::add);
            assertThat(errors).isEmpty();
            check(index, repo, List.of("main"), "after dev was deleted");

            // The repository is removed.
            updater.update(index, List.of(), List.of("proj"), true, errors::add);
            assertThat(errors).isEmpty();
            check(index, repo, List.of(), "after the repository was removed");
        }
    }

    private List<PackageSource> discover(String input, List<String> errors) {
        List<PackageSource> sources = Corpus.discoverInputs(List.of(input), dir, null, errors::add);
        assertThat(errors).isEmpty();
        return sources;
    }

    private void check(Path index, GitFixture repo, List<String> branches, String what) throws Exception {
        Map<String, String> commits = new LinkedHashMap<>();
        for (String b : branches) {
            commits.put(b, repo.head(b));
        }
        Map<String, List<String>> truth = truth(repo, commits);
        for (String query : QUERIES) {
            assertThat(answers(index, query)).as("%s: %s", what, query).isEqualTo(expected(truth, commits, query));
        }
    }

    /** "path\0content" to the branches holding it, in the order indexed. */
    private static Map<String, List<String>> truth(GitFixture repo, Map<String, String> commits) throws Exception {
        Map<String, List<String>> out = new TreeMap<>();
        for (Map.Entry<String, String> b : commits.entrySet()) {
            for (Map.Entry<String, byte[]> f : repo.files(b.getValue()).entrySet()) {
                out.computeIfAbsent(
                                f.getKey() + "\0" + new String(f.getValue(), StandardCharsets.UTF_8),
                                x -> new ArrayList<>())
                        .add(b.getKey());
            }
        }
        return out;
    }

    /** The brute force: every line of every distinct content that passes the query, as the backend would name it. */
    private static List<String> expected(Map<String, List<String>> truth, Map<String, String> commits, String query) {
        String pattern = null;
        List<String[]> filters = new ArrayList<>();
        for (String term : query.split(" ")) {
            int colon = term.indexOf(':');
            if (colon > 0) {
                filters.add(new String[] {term.substring(0, colon), term.substring(colon + 1)});
            } else {
                pattern = pattern == null ? term : pattern + " " + term;
            }
        }
        Pattern regex = Pattern.compile(pattern);
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : truth.entrySet()) {
            String path = e.getKey().substring(0, e.getKey().indexOf('\0'));
            String content = e.getKey().substring(e.getKey().indexOf('\0') + 1);
            List<String> on = e.getValue();
            if (content.indexOf('\0') >= 0 || !passes(filters, path, on)) {
                continue;
            }
            String[] lines = content.split("\n", -1);
            for (int i = 0; i < lines.length; i++) {
                if (!(i == lines.length - 1 && lines[i].isEmpty())
                        && regex.matcher(lines[i]).find()) {
                    out.add("proj/" + path + ":" + (i + 1) + " " + on + " " + commits.get(on.get(0)));
                }
            }
        }
        out.sort(null);
        return out;
    }

    private static boolean passes(List<String[]> filters, String path, List<String> on) {
        for (String[] f : filters) {
            boolean ok = switch (f[0]) {
                case "branch" -> on.contains(f[1]);
                case "-branch" -> !on.contains(f[1]);
                case "repo" -> Pattern.compile(f[1]).matcher("proj").find();
                case "path" -> Pattern.compile(f[1]).matcher(path).find();
                default -> throw new IllegalArgumentException(f[0]);
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    /** Every shard's results, as "package/path:line [branches] commit", sorted. */
    private static List<String> answers(Path index, String query) throws Exception {
        List<String> all = new ArrayList<>();
        for (int k = 0; k < 2; k++) {
            BackendServer server =
                    BackendServer.open(index.resolve("shard-" + k), BackendConfig.defaults(), Tls.PLAIN, false, false);
            try {
                InetSocketAddress at = server.start("127.0.0.1", 0);
                MessageBuilder request = Messages.newBuilder();
                request.initRoot(Request.factory).initSearch().setQuery(query);
                StreamClient.exchange(at, request, r -> {
                    switch (r.which()) {
                        case RESULT -> {
                            var result = r.getResult();
                            assertThat(result.hasGit()).isTrue();
                            all.add(result.getPackage() + "/" + result.getPath() + ":" + result.getLine() + " "
                                    + git(result.getGit()));
                        }
                        case ERROR ->
                            throw new AssertionError("error: " + r.getError().getMessage());
                        default -> {}
                    }
                });
            } finally {
                server.close();
            }
        }
        all.sort(null);
        return all;
    }

    private static String git(GitRef.Reader git) {
        List<String> branches = new ArrayList<>();
        for (int i = 0; i < git.getBranches().size(); i++) {
            branches.add(git.getBranches().get(i).toString());
        }
        return branches + " " + git.getCommit();
    }
}
