package io.trigrep.indexer.build;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A built folder goes into place whole or not at all, whenever the cleanup (Ctrl-C, SIGTERM) runs:
 * the cleanup deletes the scratch folder, and a rename out of it at the same moment once moved a
 * folder with some of its files already deleted, which an update then committed.
 */
class BuildScratchTest {
    private static final int FILES = 16;
    private static final int ROUNDS = 200;

    @Test
    void putsAFolderInPlaceOfTheOldOne(@TempDir Path dir) throws IOException {
        Path target = oldFolder(dir);
        BuildScratch work = new BuildScratch(1);
        try {
            work.moveIntoPlace(built(work.create(dir)), target);
        } finally {
            work.close();
        }
        assertThat(fileCount(target)).isEqualTo(FILES);
        assertThat(target.resolve("old")).doesNotExist();
        assertThat(dir.resolve(".seg-1.old")).doesNotExist();
    }

    @Test
    void aStoppedRunPutsNothingInPlace(@TempDir Path dir) throws IOException {
        Path target = oldFolder(dir);
        BuildScratch work = new BuildScratch(1);
        Path built = built(work.create(dir));
        work.close();
        assertThatThrownBy(() -> work.moveIntoPlace(built, target)).isInstanceOf(InterruptedIOException.class);
        assertThat(target.resolve("old")).hasContent("old");
        assertThat(fileCount(target)).isEqualTo(1);
    }

    @Test
    void aStoppedRunSaysSoWhenAsked(@TempDir Path dir) throws IOException {
        BuildScratch work = new BuildScratch(1);
        work.create(dir);
        work.checkRunning();
        work.close();
        assertThatThrownBy(work::checkRunning).isInstanceOf(InterruptedIOException.class);
    }

    /** The cleanup and a rename race, many times: every folder put in place is whole. */
    @Test
    void aCleanupDuringTheRenameLeavesTheWholeFolderOrNone(@TempDir Path dir) throws Exception {
        Random random = new Random(7);
        for (int round = 0; round < ROUNDS; round++) {
            Path target = dir.resolve("seg-" + round);
            BuildScratch work = new BuildScratch(1);
            Path built = built(work.create(dir));
            Thread cleanup = new Thread(work::close);
            cleanup.start();
            // A different moment of the cleanup each round: before it, while it deletes, after it.
            long from = System.nanoTime();
            long jitter = random.nextInt(1_000) * 1_000L;
            while (System.nanoTime() - from < jitter) {
                Thread.onSpinWait();
            }
            try {
                work.moveIntoPlace(built, target);
            } catch (IOException refused) {
                // the cleanup came first
            }
            cleanup.join();
            if (Files.exists(target)) {
                assertThat(fileCount(target))
                        .as("round %d: a folder in place", round)
                        .isEqualTo(FILES);
            }
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(".build-")))
                    .isEmpty();
        }
    }

    /** {@code seg-1} in {@code dir}, holding one file, {@code old}. */
    private static Path oldFolder(Path dir) throws IOException {
        Path folder = Files.createDirectories(dir.resolve("seg-1"));
        Files.writeString(folder.resolve("old"), "old");
        return folder;
    }

    /** A folder of {@link #FILES} files in {@code scratch}, as a built shard is. */
    private static Path built(Path scratch) throws IOException {
        Path folder = Files.createDirectories(scratch.resolve("shard-0"));
        for (int i = 0; i < FILES; i++) {
            Files.writeString(folder.resolve("file-" + i), "x".repeat(100));
        }
        return folder;
    }

    private static long fileCount(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.count();
        }
    }
}
