package io.trigrep.indexer.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.cli.UpdateCommand;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.filter.FilterLimits;
import io.trigrep.indexer.rank.Popularity;
import io.trigrep.indexer.segments.IndexFolder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An update killed at a random moment (SIGKILL, as a crash or the OOM killer; SIGTERM, as Ctrl-C)
 * leaves the index at its old generation or at a new one, never in between: every time, what the
 * index holds equals a fresh build of the old corpus or of the new one, it opens, and the next
 * update completes on it.
 */
@Tag("integration")
class UpdateCrashTest {
    private static final int RUNS = 50;

    @Test
    void anUpdateKilledAnywhereLeavesTheOldOrTheNewIndex(@TempDir Path dir) throws Exception {
        Path before = dir.resolve("before");
        Path adds = dir.resolve("adds");
        for (int p = 0; p < 6; p++) {
            writePackage(before, "pkg" + p + "_1.0", p, 40);
        }
        // The update replaces pkg1 and pkg2, adds pkg7, removes pkg3, and then merges.
        writePackage(adds, "pkg1_2.0", 101, 40);
        writePackage(adds, "pkg2_2.0", 102, 40);
        writePackage(adds, "pkg7_1.0", 107, 60);
        IndexBuilder.Options options = new IndexBuilder.Options(2, FilterLimits.DEFAULT, Popularity.none(), 1, 1 << 20);
        Path base = dir.resolve("base");
        List<String> errors = new ArrayList<>();
        new IndexBuilder(options, Clock.systemUTC())
                .build(Corpus.discover(List.of(before), dir, errors::add), base, errors::add);
        assertThat(errors).isEmpty();
        Map<String, UpdatePropertyTest.DocFacts> old = UpdatePropertyTest.facts(base);

        Path complete = dir.resolve("complete");
        copy(base, complete);
        long t0 = System.nanoTime();
        Process full = update(complete, adds);
        assertThat(full.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(full.exitValue())
                .as(new String(full.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
                .isZero();
        long fullMillis = (System.nanoTime() - t0) / 1_000_000;
        Map<String, UpdatePropertyTest.DocFacts> updated = UpdatePropertyTest.facts(complete);
        assertThat(updated).isNotEqualTo(old);

        Random random = new Random(42);
        int sawOld = 0;
        int sawNew = 0;
        for (int run = 0; run < RUNS; run++) {
            Path index = dir.resolve("run-" + run);
            copy(base, index);
            Process process = update(index, adds);
            // Anywhere from the JVM starting to a little after a whole run would have ended.
            Thread.sleep(random.nextInt((int) Math.max(1, fullMillis * 6 / 5)));
            if (random.nextInt(3) == 0) {
                process.destroy(); // SIGTERM: shutdown hooks run, as after Ctrl-C
            } else {
                process.destroyForcibly(); // SIGKILL: nothing runs
            }
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            Map<String, UpdatePropertyTest.DocFacts> now = UpdatePropertyTest.facts(index);
            if (now.equals(old)) {
                sawOld++;
            } else {
                assertThat(now)
                        .as("run %d: neither the old index nor the new one", run)
                        .isEqualTo(updated);
                sawNew++;
            }
            // And the index takes the update again (leftovers of the killed one cleaned up); in
            // process, so the test pays one JVM start per kill.
            // A removal of a package the index no longer holds fails: the retry asks for it only while held.
            List<String> again = new ArrayList<>();
            new IndexUpdater(options.withSymbols(SymbolChoice.none("test")), Clock.systemUTC())
                    .update(
                            index,
                            Corpus.discover(List.of(adds), dir, again::add),
                            now.equals(old) ? List.of("pkg3") : List.of(),
                            true,
                            again::add);
            assertThat(again).as("run %d: the update after the kill", run).isEmpty();
            assertThat(UpdatePropertyTest.facts(index))
                    .as("run %d: after updating again", run)
                    .isEqualTo(updated);
            try (Stream<Path> left = Files.list(index)) {
                assertThat(left.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".build-")))
                        .as("run %d: scratch left", run)
                        .isEmpty();
            }
            BuildScratch.deleteQuietly(index);
        }
        System.out.printf("%d kills: %d left the old index, %d the new one%n", RUNS, sawOld, sawNew);
        // Where the kills landed depends on the machine's speed at that moment, so only the side no
        // timing can miss is asserted: a kill right after the start always precedes the commit.
        // (On the 2-core CI machine, 31 of 50 left the old index and 19 the new one.)
        assertThat(sawOld).as("kills before the commit").isPositive();
        assertThat(IndexFolder.latest(complete)).isPresent();
    }

    private static Process update(Path index, Path adds) throws Exception {
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                UpdateCommand.class.getName(),
                "--index",
                index.toString(),
                "--threads",
                "1",
                "--no-symbols",
                "--add",
                adds.toString(),
                "--remove",
                "pkg3");
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    private static void writePackage(Path root, String name, int seed, int files) throws Exception {
        Random random = new Random(seed);
        for (int f = 0; f < files; f++) {
            StringBuilder text = new StringBuilder();
            for (int line = 0; line < 200; line++) {
                text.append("line ")
                        .append(random.nextInt(1_000_000))
                        .append(" of ")
                        .append(name)
                        .append('\n');
            }
            Path file = root.resolve(name).resolve("src/f" + f + ".c");
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        }
    }

    private static void copy(Path from, Path to) throws Exception {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
