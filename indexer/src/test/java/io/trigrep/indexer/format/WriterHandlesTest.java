package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers let go of every file they opened or mapped, finished or abandoned: an indexer builds
 * thousands of parts, and each leaked descriptor or mapping of a deleted scratch file keeps its
 * disk space and memory until the process ends. Read from Linux's /proc/self.
 */
class WriterHandlesTest {
    static final Path FDS = Path.of("/proc/self/fd");
    static final Path MAPS = Path.of("/proc/self/maps");

    @TempDir
    Path dir;

    @BeforeEach
    void onLinux() {
        assumeTrue(Files.isDirectory(FDS) && Files.isReadable(MAPS), "needs Linux's /proc/self");
    }

    /** The files under the test folder this process holds open (a deleted one still counts). */
    private List<String> open() throws IOException {
        String prefix = dir.toRealPath().toString();
        List<String> held = new ArrayList<>();
        try (Stream<Path> fds = Files.list(FDS)) {
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.startsWith(prefix)) {
                        held.add(target);
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor of the listing itself, gone once read
                }
            }
        }
        return held;
    }

    private List<String> mapped() throws IOException {
        String prefix = dir.toRealPath().toString();
        return Files.readAllLines(MAPS).stream()
                .filter(line -> line.contains(prefix))
                .toList();
    }

    @Test
    void aFinishedIndexWithPartsHoldsNothing() throws Exception {
        try (TrigramIndexWriter writer = new TrigramIndexWriter(dir.resolve("trigrams.tgi"), 10)) {
            writer.add(1, 1);
            TrigramIndexWriter.Part part = writer.newPart(dir.resolve("part"));
            part.add(2, 3);
            part.add(2, 4);
            assertThat(open()).hasSize(3);
            writer.append(part);
            assertThat(mapped()).isEmpty();
            assertThat(open()).hasSize(2);
            writer.finish();
            assertThat(open()).isEmpty();
        }
        assertThat(open()).isEmpty();
    }

    @Test
    void anAbandonedIndexHoldsNothing() throws Exception {
        try (TrigramIndexWriter writer = new TrigramIndexWriter(dir.resolve("trigrams.tgi"), 10)) {
            writer.add(1, 1);
        }
        assertThat(open()).isEmpty();
        assertThat(Files.exists(dir.resolve("trigrams.tgi.table"))).isFalse();
    }

    @Test
    void abandonedContentsAndDocTablesHoldNothing() throws Exception {
        try (ContentWriter contents = new ContentWriter(dir.resolve("contents.tgc"));
                DocTableWriter docs = new DocTableWriter(dir.resolve("docs.tgd"))) {
            contents.append(ByteBuffer.wrap(new byte[] {1}));
            docs.addDoc(16, 1, new byte[] {'a'}, 0, 1, 0, 1);
            // The contents file is open twice where the file system takes direct I/O.
            assertThat(java.util.Set.copyOf(open()))
                    .containsExactlyInAnyOrder(
                            dir.toRealPath().resolve("contents.tgc").toString(),
                            dir.toRealPath().resolve("docs.tgd").toString());
        }
        assertThat(open()).isEmpty();
    }

    @Test
    void anIndexWhoseTableCannotBeCreatedClosesItsFile() throws Exception {
        Files.write(dir.resolve("trigrams.tgi.table"), new byte[0]);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new TrigramIndexWriter(dir.resolve("trigrams.tgi"), 1))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
        assertThat(open()).isEmpty();
    }
}
