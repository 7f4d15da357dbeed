package io.trigrep.indexer.cli;

import static io.trigrep.indexer.corpus.GitFixture.file;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.build.IndexUpdater;
import io.trigrep.indexer.corpus.GitFixture;
import io.trigrep.indexer.corpus.GitMirror;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.segments.IndexFolder;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code ./trigrep sync --git FILE} against real remotes (file:// URLs of repositories built in the test). */
@Tag("integration") // runs git
class GitSyncCommandTest {
    @TempDir
    Path dir;

    private static IndexCommandTest.Run run(Object command, String... args) {
        return IndexCommandTest.runCommand(command, args);
    }

    private static Map<String, GitFixture.Entry> tree(String text) {
        Map<String, GitFixture.Entry> t = new LinkedHashMap<>();
        t.put("a.c", file(text));
        return t;
    }

    private IndexCommandTest.Run sync(Path index, Path list, String... more) {
        String[] args = new String[6 + more.length];
        args[0] = "--index";
        args[1] = index.toString();
        args[2] = "--git";
        args[3] = list.toString();
        args[4] = "--git-cache=" + dir.resolve("cache");
        args[5] = "--no-symbols";
        System.arraycopy(more, 0, args, 6, more.length);
        return run(new GitSyncCommand(), args);
    }

    /** An index of one package that is no git repository, other_1.0. */
    private Path indexOfOnePackage() throws Exception {
        Path index = dir.resolve("index");
        Files.createDirectories(dir.resolve("first/other_1.0"));
        Files.writeString(dir.resolve("first/other_1.0/o.c"), "int other;\n");
        IndexCommandTest.build(index, dir.resolve("first"));
        return index;
    }

    @Test
    void aSyncAppliesWhatChangedUpstreamAndOnlyThat() throws Exception {
        Path index = indexOfOnePackage();
        try (GitFixture proj = GitFixture.bare(dir.resolve("remotes/proj.git"));
                GitFixture lib = GitFixture.bare(dir.resolve("remotes/lib.git"))) {
            proj.commit("main", tree("int main_one;\n"));
            proj.commit("dev", tree("int dev_one;\n"));
            proj.headAt("main");
            lib.commit("trunk", tree("int lib_one;\n"));
            lib.headAt("trunk");
            Path list = dir.resolve("repos.txt");
            Files.writeString(dir.resolve("token"), "s3cret-token\n");
            Files.writeString(
                    list,
                    "# remotes\n"
                            + proj.folder().toUri()
                            + " main,dev links=https://example.org/{repo}/{commit}/{path}#L{line}\n"
                            + "\n"
                            + lib.folder().toUri() + " token-file=" + dir.resolve("token") + "\n");
            long generation = IndexFolder.current(index).number();

            IndexCommandTest.Run dry = sync(index, list, "--dry-run");
            assertThat(dry.exit()).as(dry.err()).isZero();
            assertThat(dry.out()).contains("add        proj  main@", "add        lib  trunk@");
            assertThat(IndexFolder.current(index).number())
                    .as("a dry run changes nothing")
                    .isEqualTo(generation);

            IndexCommandTest.Run first = sync(index, list);
            assertThat(first.exit()).as(first.err()).isZero();
            Map<String, GitRefs> held = IndexUpdater.repositories(index);
            assertThat(held.get("proj").branches())
                    .containsExactly(
                            new GitRefs.Branch("main", proj.head("main")), new GitRefs.Branch("dev", proj.head("dev")));
            assertThat(held.get("proj").links()).isEqualTo("https://example.org/{repo}/{commit}/{path}#L{line}");
            assertThat(run(new SegmentsCommand(), "--index", index.toString(), "--packages")
                            .out())
                    .isEqualTo("lib\nother_1.0\nproj\n");

            long synced = IndexFolder.current(index).number();
            IndexCommandTest.Run again = sync(index, list);
            assertThat(again.out()).contains("unchanged  proj", "unchanged  lib");
            assertThat(IndexFolder.current(index).number())
                    .as("nothing moved upstream")
                    .isEqualTo(synced);

            // A commit on dev, a force-push of lib's trunk.
            proj.commit("dev", tree("int dev_two;\n"));
            lib.forcePush("trunk", tree("int lib_rewritten;\n"));
            IndexCommandTest.Run moved = sync(index, list);
            assertThat(moved.exit()).as(moved.err()).isZero();
            assertThat(moved.out()).contains("replace    proj", "replace    lib");
            held = IndexUpdater.repositories(index);
            assertThat(held.get("proj").branches().get(1).commit()).isEqualTo(proj.head("dev"));
            assertThat(held.get("lib").branches().get(0).commit()).isEqualTo(lib.head("trunk"));

            // dev deleted upstream: proj is indexed at main alone.
            proj.deleteBranch("dev");
            IndexCommandTest.Run gone = sync(index, list);
            assertThat(gone.exit()).as(gone.err()).isZero();
            assertThat(IndexUpdater.repositories(index).get("proj").branches())
                    .extracting(GitRefs.Branch::name)
                    .containsExactly("main");

            // lib no longer listed: removed; the package that is not a repository stays.
            Files.writeString(list, proj.folder().toUri() + " main,dev\n");
            IndexCommandTest.Run removed = sync(index, list);
            assertThat(removed.exit()).as(removed.err()).isZero();
            assertThat(run(new SegmentsCommand(), "--index", index.toString(), "--packages")
                            .out())
                    .isEqualTo("other_1.0\nproj\n");

            // A remote renamed to another version of its name replaces itself.
            for (String name : List.of("tool_1", "tool_2")) {
                Files.writeString(
                        list,
                        proj.folder().toUri() + " main,dev\n" + lib.folder().toUri() + " name=" + name + "\n");
                IndexCommandTest.Run renamed = sync(index, list);
                assertThat(renamed.exit()).as(renamed.err()).isZero();
                assertThat(run(new SegmentsCommand(), "--index", index.toString(), "--packages")
                                .out())
                        .isEqualTo("other_1.0\nproj\n" + name + "\n");
            }
            Files.writeString(list, proj.folder().toUri() + " main,dev\n");
            assertThat(sync(index, list).exit()).isZero();

            // An empty list would remove every repository: refused.
            Files.writeString(list, "# nothing here\n");
            IndexCommandTest.Run empty = sync(index, list);
            assertThat(empty.exit()).isEqualTo(2);
            assertThat(empty.err()).contains("names no remote");
            assertThat(IndexUpdater.repositories(index)).containsOnlyKeys("proj");

            // A remote named as a package that is no repository of the list would replace it: left out.
            Files.writeString(
                    list, proj.folder().toUri() + " main,dev\n" + lib.folder().toUri() + " name=other\n");
            IndexCommandTest.Run clash = sync(index, list);
            assertThat(clash.exit()).isEqualTo(1);
            assertThat(clash.err()).contains("the index holds other_1.0");
            assertThat(run(new SegmentsCommand(), "--index", index.toString(), "--packages")
                            .out())
                    .isEqualTo("other_1.0\nproj\n");

            for (IndexCommandTest.Run r : List.of(dry, first, again, moved, gone, removed, clash)) {
                assertThat(r.out() + r.err()).doesNotContain("s3cret-token");
            }
        }
    }

    /**
     * Remotes are fetched several at a time, each URL once; what a sync prints and does follows the
     * list's order, and a remote that cannot be fetched leaves the others applied.
     */
    @Test
    void remotesFetchedAtOnceApplyInListOrder() throws Exception {
        Path index = indexOfOnePackage();
        StringBuilder list = new StringBuilder();
        List<GitFixture> remotes = new ArrayList<>();
        try {
            for (int r = 0; r < 6; r++) {
                GitFixture remote = GitFixture.bare(dir.resolve("remotes/r" + r + ".git"));
                remotes.add(remote);
                remote.commit("main", tree("int r" + r + ";\n"));
                remote.headAt("main");
                list.append(remote.folder().toUri()).append('\n');
                if (r == 2) {
                    list.append(dir.resolve("remotes/missing.git").toUri()).append('\n');
                    list.append(remote.folder().toUri()).append(" name=again\n");
                }
            }
            Path file = dir.resolve("repos.txt");
            Files.writeString(file, list.toString());

            IndexCommandTest.Run synced = sync(index, file, "--git-jobs", "3");
            assertThat(synced.exit()).as(synced.err()).isEqualTo(1);
            assertThat(synced.err()).contains("missing.git: cannot mirror");
            assertThat(synced.out().lines().filter(l -> l.startsWith("add")).map(l -> l.split("\\s+")[1]))
                    .containsExactly("r0", "r1", "r2", "again", "r3", "r4", "r5");
            assertThat(run(new SegmentsCommand(), "--index", index.toString(), "--packages")
                            .out())
                    .isEqualTo("again\nother_1.0\nr0\nr1\nr2\nr3\nr4\nr5\n");
            assertThat(sync(index, file, "--git-jobs", "0").err()).contains("--git-jobs must be >= 1");
        } finally {
            for (GitFixture remote : remotes) {
                remote.close();
            }
        }
    }

    @Test
    void twoSyncsDoNotRunAtOnce() throws Exception {
        Path index = indexOfOnePackage();
        Path list = dir.resolve("repos.txt");
        Files.writeString(list, "");
        Files.createDirectories(dir.resolve("cache"));
        try (FileChannel channel = FileChannel.open(
                        dir.resolve("cache").resolve(GitSyncCommand.LOCK),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.WRITE);
                FileLock held = channel.lock()) {
            assertThat(held.isValid()).isTrue();
            assertThat(sync(index, list).exit()).isEqualTo(4);
        }
        assertThat(sync(index, list).exit()).isZero();
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void aResidentSyncAppliesEachPushInARoundAndOutlivesAFailedRound() throws Exception {
        Path index = indexOfOnePackage();
        Path list = dir.resolve("repos.txt");
        Files.writeString(list, "https://example.org/a.git main colour=blue\n");
        assertThat(sync(index, list, "--every", "1").exit())
                .as("a first round that cannot read its list ends the process")
                .isEqualTo(2);
        for (String[] bad : new String[][] {
            {"--every", "-1"}, {"--every", "1", "--git-timeout", "-1"}, {"--every", "1", "--dry-run"}
        }) {
            IndexCommandTest.Run refused = sync(index, list, bad);
            assertThat(refused.exit()).as(String.join(" ", bad)).isEqualTo(2);
            assertThat(refused.err()).as(String.join(" ", bad)).startsWith("error: ");
        }

        try (GitFixture proj = GitFixture.bare(dir.resolve("remotes/proj.git"));
                GitFixture lib = GitFixture.bare(dir.resolve("remotes/lib.git"))) {
            String one = proj.commit("main", tree("int main_one;\n"));
            proj.headAt("main");
            String good = proj.folder().toUri() + " main\n";
            Files.writeString(list, good);
            GitSyncCommand command = new GitSyncCommand();
            String[] args = {
                "--index",
                index.toString(),
                "--git",
                list.toString(),
                "--git-cache=" + dir.resolve("cache"),
                "--no-symbols",
                "--every",
                "1"
            };
            AtomicInteger exit = new AtomicInteger(-1);
            String said;
            String printed;
            // The rounds print as they go: their streams are read while they run.
            try (CapturedStreams streams = new CapturedStreams()) {
                Thread rounds = new Thread(() -> exit.set(new CommandLine(command).execute(args)));
                rounds.start();
                try {
                    awaitIndexed(index, one);
                    // Once a round failed on the bad list, every later one reads it too: the push waits.
                    Files.writeString(list, "https://example.org/a.git main colour=blue\n");
                    await("a round that fails on the list", () -> failedRounds(streams) >= 1);
                    String two = proj.commit("main", tree("int main_two;\n"));
                    await("a second round that fails on the list", () -> failedRounds(streams) >= 2);
                    assertThat(IndexUpdater.repositories(index)
                                    .get("proj")
                                    .branches()
                                    .get(0)
                                    .commit())
                            .as("a failed round changes nothing")
                            .isEqualTo(one);
                    Files.writeString(list, good);
                    awaitIndexed(index, two);

                    // An edit of the list applies from the second round that reads it: the first notes it.
                    lib.commit("trunk", tree("int lib_one;\n"));
                    lib.headAt("trunk");
                    Files.writeString(list, lib.folder().toUri() + "\n");
                    await("proj removed, lib added", () -> {
                        Map<String, GitRefs> held = IndexUpdater.repositories(index);
                        return held.containsKey("lib") && !held.containsKey("proj");
                    });
                    assertThat(streams.err()).contains("repos.txt changed since the last round");
                } catch (AssertionError e) {
                    throw new AssertionError(
                            e.getMessage() + "\nthe rounds said:\n" + streams.out() + streams.err(), e);
                } finally {
                    command.stop();
                    rounds.join(TimeUnit.MINUTES.toMillis(2));
                }
                assertThat(rounds.isAlive()).isFalse();
                said = streams.err();
                printed = streams.out();
            }
            assertThat(exit.get()).as(said).isZero();
            assertThat(said).contains("sync: round 1 took", "repos.txt:1");
            assertThat(printed)
                    .contains("add        proj  main@", "replace    proj  main@", "remove     proj  (no longer listed)")
                    .doesNotContain("unchanged  ");
        }
    }

    private static long failedRounds(CapturedStreams streams) {
        return streams.err().lines().filter(l -> l.endsWith("exit code 2")).count();
    }

    /** Waits, up to a minute, for the index to hold proj's main at {@code commit}. */
    private static void awaitIndexed(Path index, String commit) throws Exception {
        await("proj at " + commit, () -> {
            GitRefs refs = IndexUpdater.repositories(index).get("proj");
            return refs != null && refs.branches().get(0).commit().equals(commit);
        });
    }

    /** Waits, up to a minute, for {@code condition}. */
    private static void await(String what, Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!condition.call()) {
            assertThat(System.nanoTime()).as(what + " within a minute").isLessThan(deadline);
            Thread.sleep(20);
        }
    }

    @Test
    void aBadListIsRefusedWithItsLine() throws Exception {
        Path list = dir.resolve("repos.txt");
        Files.writeString(list, "https://example.org/a.git main colour=blue\n");
        Files.createDirectories(dir.resolve("index"));
        IndexCommandTest.Run r = sync(dir.resolve("index"), list);
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("repos.txt:1");

        for (String name : List.of("..", ".", "a/b")) {
            Files.writeString(list, "# remotes\nhttps://example.org/a.git main name=" + name + "\n");
            IndexCommandTest.Run bad = sync(dir.resolve("index"), list);
            assertThat(bad.exit()).as(name).isEqualTo(2);
            assertThat(bad.err()).as(name).contains("repos.txt:2", "a package name");
        }

        // Two names of one package (tool and tool_2) would replace each other at every round.
        Files.writeString(list, "https://example.org/tool.git\nhttps://example.org/other.git name=tool_2\n");
        IndexCommandTest.Run twice = sync(dir.resolve("index"), list);
        assertThat(twice.exit()).isEqualTo(2);
        assertThat(twice.err()).contains("repos.txt:2", "tool_2, the same package as tool");
    }

    @Test
    void aSecretInAUrlIsNotRepeated() {
        assertThat(GitMirror.redact("https://me:hunter2@example.org/a.git: not found"))
                .isEqualTo("https://me:***@example.org/a.git: not found");
        assertThat(GitMirror.redact("http://user:S3C@RETD@127.0.0.1:9/rd.git: refused"))
                .isEqualTo("http://user:***@127.0.0.1:9/rd.git: refused");
        assertThat(GitMirror.redact("cannot mirror: HTTPS://ghp_T0KEN@example.org/a.git, http://T0KEN@h/b"))
                .isEqualTo("cannot mirror: HTTPS://***@example.org/a.git, http://***@h/b");
        assertThat(GitMirror.redact("ssh://git@example.org/a.git and git@example.org:a.git"))
                .as("an ssh user is no secret")
                .isEqualTo("ssh://git@example.org/a.git and git@example.org:a.git");
    }
}
