package io.trigrep.indexer.cli;

import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventually;
import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.format.ShardFiles;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The index command as users run it: exit codes, summary, determinism, and an interrupted run. */
@Tag("integration")
class IndexCommandTest {
    static final Path CORPUS = Path.of("src/test/resources/golden/corpus");

    record Run(int exit, String out, String err) {}

    static Run run(String... args) {
        return runCommand(new IndexCommand(), args);
    }

    /** Runs one of the indexer's commands (a picocli command object) with stdout and stderr caught. */
    static Run runCommand(Object command, String... args) {
        try (CapturedStreams streams = new CapturedStreams()) {
            int exit = new CommandLine(command).execute(args);
            return new Run(exit, streams.out(), streams.err());
        }
    }

    /** Builds {@code index} of the packages in {@code corpus}, without symbols ({@code more}: further flags). */
    static void build(Path index, Path corpus, String... more) {
        List<String> args = new ArrayList<>(List.of("--no-symbols", "--out", index.toString()));
        args.addAll(List.of(more));
        args.add(corpus.toString());
        Run built = run(args.toArray(String[]::new));
        assertThat(built.exit()).as(built.err()).isZero();
    }

    @Test
    void summaryCountsIndexedAndSkippedFiles(@TempDir Path out) {
        Run r = run("--shards", "2", "--out", out.toString(), "--verify", CORPUS.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("packages   3 indexed, 0 failed")
                .contains("files      5 indexed")
                .contains("binary                      1 files")
                .contains("(checksums verified)")
                .containsPattern("index +[0-9,]+ bytes without contents");
    }

    @Test
    void rerunningGivesByteIdenticalShards(@TempDir Path dir) throws Exception {
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        assertThat(run("--shards", "2", "--out", a.toString(), CORPUS.toString())
                        .exit())
                .isZero();
        assertThat(run("--shards", "2", "--out", b.toString(), CORPUS.toString())
                        .exit())
                .isZero();
        // And once more into the same folder: the old shards are replaced in place.
        assertThat(run("--shards", "2", "--out", b.toString(), CORPUS.toString())
                        .exit())
                .isZero();
        for (String shard : List.of("shard-0", "shard-1")) {
            for (String file : List.of(ShardFiles.TRIGRAMS, ShardFiles.DOCS, ShardFiles.CONTENTS)) {
                assertThat(Files.readAllBytes(a.resolve(shard).resolve(file)))
                        .as("%s/%s", shard, file)
                        .isEqualTo(Files.readAllBytes(b.resolve(shard).resolve(file)));
            }
        }
        try (Stream<Path> left = Files.list(b)) {
            // The shards, the generation the last build committed (its number the build's time), the update lock.
            long generation = io.trigrep.indexer.segments.IndexFolder.latest(b)
                    .orElseThrow()
                    .number();
            assertThat(left.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("shard-0", "shard-1", "gen-" + generation + ".json", ".update.lock");
        }
    }

    @Test
    void badInputsAreNamedAndTheRestIsIndexed(@TempDir Path dir) throws Exception {
        Path broken = dir.resolve("broken_1.0.tar.gz");
        Files.write(broken, new byte[] {0x1f, (byte) 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3});
        Run r = run(
                "--out",
                dir.resolve("out").toString(),
                CORPUS.toString(),
                dir.resolve("missing").toString(),
                broken.toString());
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err())
                .contains(dir.resolve("missing") + ": no such file or folder")
                .contains("broken_1.0");
        assertThat(r.out()).contains("packages   3 indexed, 1 failed");
        assertThat(dir.resolve("out/shard-0/manifest.json")).exists();
    }

    /** A build with fewer shards into the same folder leaves no shard of the earlier build behind. */
    @Test
    void fewerShardsReplaceTheFolderWhole(@TempDir Path dir) throws Exception {
        for (int i = 1; i <= 6; i++) {
            Path f = dir.resolve("many/p" + i + "_1.0/f.txt");
            Files.createDirectories(f.getParent());
            Files.writeString(f, "MANY_" + i + "\n");
        }
        Path out = dir.resolve("out");
        assertThat(run(
                                "--shards",
                                "3",
                                "--out",
                                out.toString(),
                                dir.resolve("many").toString())
                        .exit())
                .isZero();
        assertThat(out.resolve("shard-2")).isDirectory();
        Run fewer = run(
                "--shards",
                "1",
                "--out",
                out.toString(),
                dir.resolve("many/p1_1.0").toString());
        assertThat(fewer.exit()).as(fewer.err()).isZero();
        assertThat(out.resolve("shard-0")).isDirectory();
        assertThat(out.resolve("shard-1")).doesNotExist();
        assertThat(out.resolve("shard-2")).doesNotExist();
    }

    /** NAME=FOLDER: an empty folder is no folder (not the working one), and a name no package may have is refused. */
    @Test
    void aNamedFolderNeedsAFolderAndAName(@TempDir Path dir) throws Exception {
        Path src = dir.resolve("src/f.txt");
        Files.createDirectories(src.getParent());
        Files.writeString(src, "x\n");
        for (String input :
                List.of("proj=", "..=" + src.getParent(), ".=" + src.getParent(), "evil\nname=" + src.getParent())) {
            Run r = run("--out", dir.resolve("out").toString(), input);
            assertThat(r.exit()).as(input).isEqualTo(2);
            assertThat(r.err()).as(input).contains("no packages found");
            assertThat(r.err()).as(input).containsAnyOf("no such file or folder", "a package name");
        }
        Run good = run("--out", dir.resolve("out").toString(), "proj=" + src.getParent());
        assertThat(good.exit()).as(good.err()).isZero();
    }

    /** An index written inside the folder it indexes would take in its own files: refused before anything is written. */
    @Test
    void theIndexMayNotLieInsideItsInput(@TempDir Path dir) throws Exception {
        Path pkg = dir.resolve("many/p1_1.0/f.txt");
        Files.createDirectories(pkg.getParent());
        Files.writeString(pkg, "x\n");
        Run r = run(
                "--out", dir.resolve("many/idx").toString(), dir.resolve("many").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("lies inside the input");
        assertThat(dir.resolve("many/idx")).doesNotExist();
        // Through a link to the input, and as the FOLDER of NAME=FOLDER.
        Files.createSymbolicLink(dir.resolve("link"), dir.resolve("many"));
        Run linked = run(
                "--out", dir.resolve("link/idx").toString(), dir.resolve("many").toString());
        assertThat(linked.err()).contains("lies inside the input");
        Run named = run("--out", dir.resolve("many/p1_1.0/idx").toString(), "proj=" + dir.resolve("many/p1_1.0"));
        assertThat(named.err()).contains("lies inside the input");
        assertThat(List.of(linked.exit(), named.exit())).containsOnly(2);
    }

    /** A loopback port nothing listens on: one just bound and let go. */
    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void nothingToIndexIsAnError(@TempDir Path dir) throws Exception {
        Run r = run(
                "--out", dir.resolve("out").toString(), dir.resolve("missing").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("no packages found");

        // A remote that cannot be mirrored: its password is masked in every line, the last one too.
        Run secret = run(
                "--out",
                dir.resolve("out").toString(),
                "--git-cache",
                dir.resolve("cache").toString(),
                "http://alice:hunter2@127.0.0.1:" + closedPort() + "/team/repo.git@main");
        assertThat(secret.exit()).isEqualTo(2);
        assertThat(secret.err()).contains("no packages found", "alice:***@").doesNotContain("hunter2");
        try (Stream<Path> left = Files.list(dir.resolve("cache"))) {
            assertThat(left).as("a failed clone leaves nothing in the cache").isEmpty();
        }
    }

    @Test
    void interruptedRunLeavesNoHalfWrittenShard(@TempDir Path dir) throws Exception {
        // A corpus big enough that the run is still going when it is killed.
        Path corpus = dir.resolve("corpus");
        for (int p = 0; p < 40; p++) {
            Path pkg = corpus.resolve("pkg" + p);
            Files.createDirectories(pkg);
            for (int f = 0; f < 50; f++) {
                StringBuilder text = new StringBuilder();
                for (int line = 0; line < 400; line++) {
                    text.append("line ").append(p * 100_000 + f * 1000 + line).append(" of some source text\n");
                }
                Files.writeString(pkg.resolve("f" + f + ".c"), text);
            }
        }
        Path out = dir.resolve("out");
        String classpath = System.getProperty("java.class.path");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                classpath,
                IndexCommand.class.getName(),
                "--shards",
                "2",
                "--threads",
                "1",
                "--out",
                out.toString(),
                corpus.toString()));
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        // Wait until it has started writing (or has ended), then interrupt it as Ctrl-C would.
        eventually(
                "the index command writing a build folder",
                PATIENCE,
                () -> assertThat(hasBuildFolder(out) || !process.isAlive()).isTrue());
        process.destroy(); // SIGTERM: runs shutdown hooks, like SIGINT
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        try (Stream<Path> left = Files.exists(out) ? Files.list(out) : Stream.empty()) {
            for (Path p : left.toList()) {
                String name = p.getFileName().toString();
                if (name.equals(".update.lock")) {
                    continue;
                }
                if (name.startsWith("gen-")) {
                    // committed by one rename, so complete whenever it exists
                    assertThat(io.trigrep.indexer.segments.IndexFolder.latest(out))
                            .isPresent();
                    continue;
                }
                assertThat(name).as("leftover %s", name).startsWith("shard-");
                assertThat(p.resolve(ShardFiles.MANIFEST))
                        .as("%s is complete", name)
                        .exists();
            }
        }
    }

    private static boolean hasBuildFolder(Path out) {
        try (Stream<Path> s = Files.list(out)) {
            return s.anyMatch(p -> p.getFileName().toString().startsWith(".build-"));
        } catch (Exception e) {
            return false;
        }
    }
}
