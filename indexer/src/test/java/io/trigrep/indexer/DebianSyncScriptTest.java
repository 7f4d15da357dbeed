package io.trigrep.indexer;

import static io.trigrep.testing.Eventually.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code indexer/fetch-debian-sources.sh --sync} (issue 16, the Debian feeder): its plan from
 * real Sources stanzas of bookworm and bookworm-security against a held package list (epochs,
 * the highest version across suites, Extra-Source-Only stanzas, several held versions), the
 * --max-changes guard, idempotence; and a sync applying its plan through one update of a
 * launcher stand-in, downloading with an apt-get stand-in and checking what it got.
 */
@Tag("integration")
class DebianSyncScriptTest {
    static final Path SCRIPT = Path.of("fetch-debian-sources.sh").toAbsolutePath();
    static final Path FIXTURES = Path.of("src/test/resources/sync").toAbsolutePath();
    static final Path MAIN = FIXTURES.resolve("bookworm-main-Sources");
    static final Path SECURITY = FIXTURES.resolve("bookworm-security-Sources");

    /** What the index holds in most tests: old versions, a current one, strays. */
    static final List<String> HELD = List.of(
            "bash_5.2.15-1",
            "bash_5.2.15-2",
            "curl_7.88.1-10+deb12u5",
            "foo_1.0-1",
            "jquery_3.3.1~dfsg-3",
            "linux",
            "redis_7.0.15-1~deb12u7",
            "zlib_1.2.13.dfsg-1");

    /** The plan for HELD against bookworm main and security, in source-name order. */
    static final List<String> PLAN = List.of(
            "add asm_9.4-1", // its two Extra-Source-Only stanzas are old versions, not the source
            "remove bash_5.2.15-1", // held twice: the wanted version stays
            "replace curl_7.88.1-10+deb12u5 curl_7.88.1-10+deb12u15", // u15 > u5 as dpkg orders them
            "remove foo_1.0-1",
            "add gawk_5.2.1-2", // version 1:5.2.1-2: the .dsc's name has no epoch
            "add git_2.39.5-0+deb12u2", // only in security
            "remove jquery_3.3.1~dfsg-3", // left in bookworm only as an Extra-Source-Only stanza
            "add less_590-2.1~deb12u2",
            "remove linux",
            "replace redis_7.0.15-1~deb12u7 redis_7.0.15-1~deb12u10"); // security's is newer
    // zlib (1:1.2.13.dfsg-1 held as zlib_1.2.13.dfsg-1) is unchanged: no line.

    @TempDir
    Path dir;

    record Run(int exit, List<String> out, String err) {}

    Run sync(String stdin, Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString(), "--sync"));
        command.addAll(Arrays.asList(args));
        // From a file, not a pipe: a run that stops before reading its input must not fail the write.
        Path input = Files.createTempFile(dir, "stdin", ".txt");
        Files.writeString(input, stdin);
        ProcessBuilder builder =
                new ProcessBuilder(command).directory(dir.toFile()).redirectInput(input.toFile());
        builder.environment().putAll(env);
        builder.environment().put("TMPDIR", dir.toString());
        Process p = builder.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .as("the sync ends")
                .isTrue();
        return new Run(p.exitValue(), out.lines().toList(), err.get());
    }

    Run plan(List<String> held, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("--plan-only", "--held", "-"));
        all.addAll(Arrays.asList(args));
        return sync(lines(held), Map.of(), all.toArray(String[]::new));
    }

    static String lines(List<String> lines) {
        return lines.isEmpty() ? "" : String.join("\n", lines) + "\n";
    }

    /** What an update does to the held names with a plan's changes: adds replace by source name. */
    static List<String> apply(List<String> held, List<String> plan) {
        TreeSet<String> after = new TreeSet<>(held);
        for (String change : plan) {
            String[] words = change.split(" ");
            switch (words[0]) {
                case "add" -> after.add(words[1]);
                case "replace" -> {
                    after.removeAll(Arrays.asList(words[1].split(",")));
                    after.add(words[2]);
                }
                case "remove" -> after.remove(words[1]);
                default -> throw new AssertionError("not a plan line: " + change);
            }
        }
        return List.copyOf(after);
    }

    Path compressed(Path file, String... command) throws Exception {
        String suffix = command[0].equals("xz") ? ".xz" : ".gz";
        Path out = dir.resolve(file.getFileName() + suffix);
        Process p = new ProcessBuilder(command[0], "-c", file.toString())
                .redirectOutput(out.toFile())
                .start();
        assertThat(p.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        return out;
    }

    @Test
    void plansAgainstBookwormAndItsSecuritySuite() throws Exception {
        Run run = plan(HELD, "--sources", MAIN.toString(), "--sources", SECURITY.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).containsExactlyElementsOf(PLAN);
        assertThat(run.err()).contains("4 to add, 2 to replace, 4 to remove; 8 wanted, 8 held");
    }

    @Test
    void compressedIndexesGiveTheSamePlanInAnyOrder() throws Exception {
        Path xz = compressed(SECURITY, "xz");
        Path gz = compressed(MAIN, "gzip");
        Run run = plan(HELD, "--sources", xz.toString(), "--sources", gz.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).containsExactlyElementsOf(PLAN);
    }

    @Test
    void aSecondRunAfterThePlanDoesNothing() throws Exception {
        String[] sources = {"--sources", MAIN.toString(), "--sources", SECURITY.toString()};
        List<String> after = apply(HELD, plan(HELD, sources).out());
        assertThat(after)
                .containsExactly(
                        "asm_9.4-1",
                        "bash_5.2.15-2",
                        "curl_7.88.1-10+deb12u15",
                        "gawk_5.2.1-2",
                        "git_2.39.5-0+deb12u2",
                        "less_590-2.1~deb12u2",
                        "redis_7.0.15-1~deb12u10",
                        "zlib_1.2.13.dfsg-1");
        Run again = plan(after, sources);
        assertThat(again.exit()).isZero();
        assertThat(again.out()).isEmpty();
        assertThat(again.err()).contains("up to date").contains("8 wanted packages, nothing to do");
    }

    @Test
    void aPackageListNarrowsTheWantedSet() throws Exception {
        Path list = dir.resolve("packages.txt");
        Files.writeString(list, "# the corpus\nzlib\n  curl   # with a comment\n\ngone-from-debian\n");
        Run run = plan(
                HELD, "--sources", MAIN.toString(), "--sources", SECURITY.toString(), "--packages", list.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .containsExactly(
                        "remove bash_5.2.15-1",
                        "remove bash_5.2.15-2",
                        "replace curl_7.88.1-10+deb12u5 curl_7.88.1-10+deb12u15",
                        "remove foo_1.0-1",
                        "remove jquery_3.3.1~dfsg-3",
                        "remove linux",
                        "remove redis_7.0.15-1~deb12u7");
        assertThat(run.err()).contains("gone-from-debian is not in the wanted set");
    }

    @Test
    void anUnversionedHeldNameIsReplacedByItsSourceAndEveryOldVersionGoes() throws Exception {
        Run run = plan(
                // zlib_examples: no digit after its underscore, so a package of its own, not a zlib version
                List.of("zlib", "zlib_examples", "less_551-2", "less_590-2.1~deb12u1"),
                "--sources",
                MAIN.toString(),
                "--packages",
                list("zlib", "less"));
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .containsExactly(
                        "replace less_551-2,less_590-2.1~deb12u1 less_590-2.1~deb12u2",
                        "replace zlib zlib_1.2.13.dfsg-1",
                        "remove zlib_examples");
    }

    String list(String... names) throws IOException {
        Path file = Files.createTempFile(dir, "list", ".txt");
        Files.writeString(file, lines(List.of(names)));
        return file.toString();
    }

    @Test
    void theGuardRefusesMoreChangesThanAllowedUnlessForced() throws Exception {
        String[] sources = {"--sources", MAIN.toString(), "--sources", SECURITY.toString()};
        Run atLimit = plan(HELD, concat(sources, "--max-changes", "10"));
        assertThat(atLimit.exit()).as(atLimit.err()).isZero();

        Run over = plan(HELD, concat(sources, "--max-changes", "9"));
        assertThat(over.exit()).isEqualTo(3);
        assertThat(over.out()).as("the refused plan is shown").containsExactlyElementsOf(PLAN);
        assertThat(over.err()).contains("refusing: 10 changes exceed --max-changes 9");

        Run forced = plan(HELD, concat(sources, "--max-changes", "9", "--force"));
        assertThat(forced.exit()).isZero();

        // The default (100) refuses a whole Sources index against an empty index.
        Path many = dir.resolve("many-Sources");
        StringBuilder stanzas = new StringBuilder();
        for (int i = 0; i < 101; i++) {
            stanzas.append("Package: p")
                    .append(i)
                    .append("\nVersion: 1.")
                    .append(i)
                    .append("-1\n\n");
        }
        Files.writeString(many, stanzas);
        Run initial = plan(List.of(), "--sources", many.toString());
        assertThat(initial.exit()).isEqualTo(3);
        assertThat(initial.out()).hasSize(101).contains("add p0_1.0-1", "add p100_1.100-1");
    }

    @Test
    void anEmptyWantedSetNeverEmptiesTheIndexUnlessForced() throws Exception {
        Path truncated = dir.resolve("truncated-Sources");
        Files.writeString(truncated, "");
        Run run = plan(HELD, "--sources", truncated.toString(), "--max-changes", "1000");
        assertThat(run.exit()).isEqualTo(3);
        assertThat(run.err()).contains("the wanted set is empty and would remove all 8 packages");

        Run forced = plan(HELD, "--sources", truncated.toString(), "--max-changes", "1000", "--force");
        assertThat(forced.exit()).isZero();
        assertThat(forced.out()).hasSize(8).allMatch(l -> l.startsWith("remove "));
    }

    @Test
    void aDscListIsAWantedSetToo() throws Exception {
        Path paths = dir.resolve("dscs.txt");
        Files.writeString(
                paths,
                "/pool/z/zlib/zlib_1.2.13.dfsg-1.dsc\n"
                        + "/pool/b/bash/bash_5.2.15-2.dsc\n"
                        + "/old/bash_5.2.15-10.dsc\n" // 5.2.15-10 > 5.2.15-2
                        + "/pool/n/new/new_0.1.dsc\n");
        Run run = plan(HELD, "--dsc-list", paths.toString());
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out())
                .containsExactly(
                        "replace bash_5.2.15-1,bash_5.2.15-2 bash_5.2.15-10",
                        "remove curl_7.88.1-10+deb12u5",
                        "remove foo_1.0-1",
                        "remove jquery_3.3.1~dfsg-3",
                        "remove linux",
                        "add new_0.1",
                        "remove redis_7.0.15-1~deb12u7");
    }

    @Test
    void badUsageChangesNothing() throws Exception {
        assertThat(plan(HELD).exit()).as("no wanted set").isEqualTo(2);
        assertThat(plan(HELD, "--sources", MAIN.toString(), "--dsc-dir", dir.toString())
                        .exit())
                .as("two wanted sets")
                .isEqualTo(2);
        assertThat(plan(HELD, "--sources", MAIN.toString(), "--max-changes", "many")
                        .exit())
                .isEqualTo(2);
        assertThat(sync("", Map.of(), "--index", dir.toString(), "--sources", MAIN.toString())
                        .exit())
                .as("--sources without --download")
                .isEqualTo(2);
        assertThat(sync("", Map.of(), "--sources", MAIN.toString(), "--plan-only")
                        .exit())
                .as("--plan-only without --held")
                .isEqualTo(2);
    }

    /**
     * A sync end to end on stand-ins: a launcher keeping the held names in a file and recording
     * its update calls, an apt-get "downloading" from a local pool. It fetches and checks each
     * added package, runs one update, and then has nothing to do; a download whose file does not
     * match the Sources index stays out, and the run says so with exit 1.
     */
    @Test
    void aSyncAppliesItsPlanThroughOneUpdateAndThenIsUpToDate() throws Exception {
        Path pool = Files.createDirectories(dir.resolve("pool"));
        Path index = Files.createDirectories(dir.resolve("index"));
        Path download = Files.createDirectories(dir.resolve("download"));
        Files.writeString(index.resolve("held"), lines(List.of("hello_1.0-1", "old_2.0-1")));
        // What an earlier sync downloaded: the held versions.
        stanza(download, "hello", "1.0-1", "hello_1.0-1.dsc", "hello_1.0.orig.tar.gz", "hello_1.0-1.debian.tar.xz");
        stanza(download, "old", "2.0-1", "old_2.0-1.dsc", "old_2.0.orig.tar.gz");
        StringBuilder sources = new StringBuilder();
        // The next revision of hello shares its orig tarball with the held one.
        sources.append(stanza(
                pool, "hello", "1:1.0-2", "hello_1.0-2.dsc", "hello_1.0.orig.tar.gz", "hello_1.0-2.debian.tar.xz"));
        sources.append(stanza(pool, "fresh", "0.9-2", "fresh_0.9-2.dsc", "fresh_0.9.orig.tar.xz"));
        sources.append(stanza(pool, "broken", "3-1", "broken_3-1.dsc"));
        byte[] good = Files.readAllBytes(pool.resolve("broken_3-1.dsc"));
        Files.writeString(pool.resolve("broken_3-1.dsc"), "not what the Sources index says\n");
        Path sourcesFile = dir.resolve("Sources");
        Files.writeString(sourcesFile, sources);

        Path bin = Files.createDirectories(dir.resolve("bin"));
        script(bin.resolve("apt-get"), """
                #!/bin/bash
                # apt-get source --download-only -q NAME=VERSION: copies NAME's files from the pool
                name="${4%%=*}"
                cp "$POOL/${name}"_* . && echo "$4" >>"$POOL/fetched"
                """);
        Path launcher = script(dir.resolve("trigrep"), """
                #!/bin/bash
                role="$1"; index="$3"; shift 3
                case "$role" in
                  segments) sort "$index/held" ;;
                  update)
                    echo "$*" >>"$index/updates"
                    while [ $# -gt 0 ]; do
                      case "$1" in
                        --add) n="$(basename "$2" .dsc)"; grep -v "^${n%%_*}_" "$index/held" >"$index/next"; echo "$n" >>"$index/next" ;;
                        --remove) grep -vx "$2" "$index/held" >"$index/next" ;;
                      esac
                      mv "$index/next" "$index/held"
                      shift 2
                    done ;;
                esac
                """);
        Map<String, String> env = Map.of("PATH", bin + ":" + System.getenv("PATH"), "POOL", pool.toString());
        String[] args = {
            "--index",
            index.toString(),
            "--sources",
            sourcesFile.toString(),
            "--download",
            download.toString(),
            "--trigrep",
            launcher.toString()
        };

        Run first = sync("", env, args);
        assertThat(first.exit()).as(first.err()).isEqualTo(1);
        assertThat(first.out())
                .containsExactly(
                        "add broken_3-1", "add fresh_0.9-2", "replace hello_1.0-1 hello_1.0-2", "remove old_2.0-1");
        assertThat(first.err())
                .contains("could not download broken_3-1, or its files do not match the Sources index")
                .contains("sync: added fresh_0.9-2")
                .contains("sync: replaced hello_1.0-1 with hello_1.0-2")
                .contains("sync: removed old_2.0-1")
                .contains("3 changes applied, 1 packages could not be fetched");
        assertThat(Files.readAllLines(pool.resolve("fetched")))
                .containsExactly("broken=3-1", "fresh=0.9-2", "hello=1:1.0-2");
        assertThat(Files.readAllLines(index.resolve("updates")))
                .containsExactly("--add " + download.resolve("fresh_0.9-2.dsc") + " --add "
                        + download.resolve("hello_1.0-2.dsc") + " --remove old_2.0-1");
        assertThat(Files.readAllLines(index.resolve("held"))).containsExactlyInAnyOrder("fresh_0.9-2", "hello_1.0-2");
        // The download folder holds what the index holds: the replaced and removed versions went,
        // but not the tarball the new revision shares; the broken download stays for the next try.
        try (var left = Files.list(download)) {
            assertThat(left.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder(
                            "broken_3-1.dsc",
                            "fresh_0.9-2.dsc",
                            "fresh_0.9.orig.tar.xz",
                            "hello_1.0-2.debian.tar.xz",
                            "hello_1.0-2.dsc",
                            "hello_1.0.orig.tar.gz");
        }

        // Fixed in the pool: the next run downloads it again and adds only it.
        Files.write(pool.resolve("broken_3-1.dsc"), good);
        Run second = sync("", env, args);
        assertThat(second.exit()).as(second.err()).isZero();
        assertThat(second.out()).containsExactly("add broken_3-1");
        assertThat(Files.readAllLines(pool.resolve("fetched"))).hasSize(4).endsWith("broken=3-1");

        Run third = sync("", env, args);
        assertThat(third.exit()).as(third.err()).isZero();
        assertThat(third.out()).isEmpty();
        assertThat(third.err()).contains("up to date");
        assertThat(Files.readAllLines(index.resolve("updates"))).hasSize(2);
    }

    @Test
    void aSecondSyncOfTheSameIndexFailsAtOnce() throws Exception {
        Path index = Files.createDirectories(dir.resolve("index"));
        // The holder says so once it holds the lock: flock(1) runs the command only then.
        Process holder = new ProcessBuilder(
                        "flock", index.resolve(".sync.lock").toString(), "sh", "-c", "echo locked; exec sleep 60")
                .start();
        try {
            java.util.concurrent.CompletableFuture<String> said =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                        try {
                            return new java.io.BufferedReader(new java.io.InputStreamReader(
                                            holder.getInputStream(), java.nio.charset.StandardCharsets.UTF_8))
                                    .readLine();
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
            assertThat(said.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo("locked");
            Run run = sync("", Map.of(), "--index", index.toString(), "--dsc-dir", dir.toString(), "--dry-run");
            assertThat(run.exit()).isEqualTo(4);
            assertThat(run.err()).contains("another sync of " + index + " is running");
        } finally {
            holder.descendants().forEach(ProcessHandle::destroy);
            holder.destroy();
            holder.waitFor();
        }
    }

    /**
     * Writes a package into the pool: FILES, the .dsc first, naming the others as a .dsc does, each
     * other file's contents made up from its name. Returns the Sources stanza of the package.
     */
    static String stanza(Path pool, String name, String version, String... files) throws Exception {
        StringBuilder text = new StringBuilder("Package: " + name + "\nVersion: " + version + "\nChecksums-Sha256:\n");
        StringBuilder dsc = new StringBuilder("Source: " + name + "\nVersion: " + version + "\nFiles:\n");
        for (int i = 1; i < files.length; i++) {
            dsc.append(" d41d8cd98f00b204e9800998ecf8427e ")
                    .append(name.length() + files[i].length() + 2)
                    .append(' ')
                    .append(files[i])
                    .append('\n');
        }
        for (String file : files) {
            byte[] bytes = (file.endsWith(".dsc") ? dsc.toString() : name + " " + file + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            Files.write(pool.resolve(file), bytes);
            String sha = HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
            text.append(' ')
                    .append(sha)
                    .append(' ')
                    .append(bytes.length)
                    .append(' ')
                    .append(file)
                    .append('\n');
        }
        return text.append("Directory: pool/main/")
                .append(name.charAt(0))
                .append('/')
                .append(name)
                .append("\n\n")
                .toString();
    }

    static Path script(Path file, String text) throws IOException {
        Files.writeString(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    static String[] concat(String[] first, String... rest) {
        String[] all = Arrays.copyOf(first, first.length + rest.length);
        System.arraycopy(rest, 0, all, first.length, rest.length);
        return all;
    }
}
