package io.trigrep.frontend.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A tee done with is written over by the next one, which reads only its own bytes; what is kept stays bounded. */
class SpareTeesTest {
    @TempDir
    Path dir;

    @Test
    void theNextLargeTeeWritesOverTheFileOfTheLastOneDeletedAndReadsOnlyItsOwnBytes() throws Exception {
        int buffer = TeeBuffers.BUFFER_BYTES;
        SpareTees spares = new SpareTees(dir, 2, 16L << 20);
        TeeFile first = tee("a.tee", spares);
        first.append(ByteBuffer.wrap(filled(3 * buffer, (byte) 7)));
        first.finish();
        Object inode = Files.getAttribute(dir.resolve("a.tee"), "unix:ino");
        first.delete();
        assertThat(dir.resolve("a.tee")).doesNotExist();
        assertThat(spares.files()).isEqualTo(1);
        assertThat(spares.bytes()).isEqualTo(3L * buffer);

        TeeFile selective = tee("s.tee", spares);
        selective.append(ByteBuffer.wrap(new byte[] {5}));
        selective.finish();
        assertThat(spares.files()).as("a small answer takes no spare").isEqualTo(1);
        selective.delete();
        assertThat(spares.files()).as("nor is its file kept").isEqualTo(1);
        assertThat(dir.resolve("s.tee")).doesNotExist();

        TeeFile second = tee("b.tee", spares);
        second.append(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        assertThat(spares.files())
                .as("taken when the first buffer fills, not before")
                .isEqualTo(1);
        second.append(ByteBuffer.wrap(filled(buffer, (byte) 4)));
        second.finish();

        assertThat(Files.getAttribute(dir.resolve("b.tee"), "unix:ino"))
                .as("the same file, its pages kept")
                .isEqualTo(inode);
        assertThat(spares.files()).isZero();
        assertThat(second.size()).isEqualTo(buffer + 3);
        assertThat(Files.size(dir.resolve("b.tee")))
                .as("cut to its own bytes when finished: the cache charges a tee no more")
                .isEqualTo(buffer + 3);
        assertThat(bytes(second.read(0, 4))).containsExactly(1, 2, 3, 4);
        assertThat(bytes(second.read(buffer + 1, 2))).containsExactly(4, 4);
        assertThatThrownBy(() -> second.read(buffer + 3, 1))
                .as("the old tee's bytes past the new end are not the new tee's")
                .isInstanceOf(EOFException.class);
        // Appended after finish: the partial tail is read back from the file, not from the old bytes.
        second.append(ByteBuffer.wrap(new byte[] {9}));
        assertThat(bytes(second.read(buffer + 1, 3))).containsExactly(4, 4, 9);
        second.delete();
        assertThat(names()).containsExactly("spare-1.tee");
    }

    @Test
    void atMostTheFilesAndBytesAllowedAreKeptTheOldestLetGo() throws Exception {
        SpareTees spares = new SpareTees(dir, 2, 1_000_000);
        for (String name : List.of("a.tee", "b.tee", "c.tee")) {
            leave(written(name, 100_000), spares);
        }
        assertThat(spares.files()).isEqualTo(2);
        assertThat(spares.bytes()).isEqualTo(200_000);
        assertThat(names()).as("c let a go").containsExactly("spare-1.tee", "spare-2.tee");

        leave(written("big.tee", 1_000_001), spares);
        assertThat(names())
                .as("larger than all the bytes allowed: removed")
                .containsExactly("spare-1.tee", "spare-2.tee");

        leave(written("d.tee", 850_000), spares);
        assertThat(spares.files()).as("the oldest let go to make room").isEqualTo(2);
        assertThat(spares.bytes()).isEqualTo(950_000);
        assertThat(names()).containsExactly("spare-2.tee", "spare-3.tee");

        leave(written("e.tee", 900_000), spares);
        assertThat(spares.bytes())
                .as("letting one go would not make room: not kept")
                .isEqualTo(950_000);
        assertThat(names()).containsExactly("spare-2.tee", "spare-3.tee");

        // Taken most recent first.
        assertThat(spares.takeInto(dir.resolve("f.tee"))).isTrue();
        assertThat(Files.size(dir.resolve("f.tee"))).isEqualTo(850_000);
        assertThat(spares.bytes()).isEqualTo(100_000);
    }

    @Test
    void aSpareGoneFromTheFolderLeavesTheLargeTeeThatWouldHaveTakenItANewFileOfItsOwnBytes() throws Exception {
        int buffer = TeeBuffers.BUFFER_BYTES;
        SpareTees spares = new SpareTees(dir, 2, 8L * buffer);
        assertThat(spares.prime(4L * buffer, 0)).isEqualTo(4L * buffer);
        Files.delete(dir.resolve("spare-0.tee")); // an operator cleaning the folder, a full disk's repair

        TeeFile tee = tee("a.tee", spares);
        tee.append(ByteBuffer.wrap(new byte[] {1, 2}));
        tee.append(ByteBuffer.wrap(filled(2 * buffer, (byte) 6)));
        tee.finish();

        assertThat(spares.files()).as("the spare was taken, gone or not").isZero();
        assertThat(Files.size(dir.resolve("a.tee")))
                .as("a new file in its place, written from its start")
                .isEqualTo(2L * buffer + 2);
        assertThat(bytes(tee.read(0, 3))).containsExactly(1, 2, 6);
        assertThat(bytes(tee.read(2L * buffer, 2))).containsExactly(6, 6);
        tee.delete();
        assertThat(names()).as("kept at its own bytes for the next").containsExactly("spare-1.tee");
    }

    @Test
    void aFileInTheWayThatCannotBeRemovedIsLeftAsItWasAndTheSpareLetGo() throws Exception {
        SpareTees spares = new SpareTees(dir, 2, 1L << 20);
        leave(written("a.tee", 1000), spares);
        Path inTheWay = Files.createDirectories(dir.resolve("b.tee"));
        Files.writeString(inTheWay.resolve("x"), "x"); // a folder that is not empty: no unlink removes it

        assertThat(spares.takeInto(inTheWay)).as("nothing to open again").isFalse();
        assertThat(inTheWay.resolve("x")).hasContent("x");
        assertThat(spares.files()).isZero();
        assertThat(spares.bytes()).isZero();
        assertThat(names()).as("the spare let go, not left behind").containsExactly("b.tee");
    }

    @Test
    void directTeesNeitherTakeNorLeaveSpares() throws Exception {
        SpareTees spares = new SpareTees(dir, 2, 1L << 20);
        leave(written("a.tee", 1000), spares);
        assertThat(spares.files()).isEqualTo(1);

        TeeFile direct = new TeeFile(dir.resolve("d.tee"), Runnable::run, true, 0, new TeeBuffers(0), spares);
        direct.append(ByteBuffer.wrap(filled(2 * TeeBuffers.BUFFER_BYTES, (byte) 9)));
        direct.finish();
        assertThat(spares.files()).as("not taken").isEqualTo(1);
        direct.delete();
        assertThat(names()).as("not kept").containsExactly("spare-0.tee");
    }

    @Test
    void aPrimedSpareIsWholeBuffersOfZerosThatTheFirstLargeTeeWritesOver() throws Exception {
        int buffer = TeeBuffers.BUFFER_BYTES;
        SpareTees spares = new SpareTees(dir, 2, 8L * buffer);

        assertThat(spares.prime(3L * buffer + 1000, 0))
                .as("cut to whole buffers")
                .isEqualTo(3L * buffer);
        assertThat(names()).containsExactly("spare-0.tee");
        assertThat(spares.bytes()).isEqualTo(3L * buffer);
        byte[] zeros = Files.readAllBytes(dir.resolve("spare-0.tee"));
        assertThat(zeros).hasSize(3 * buffer).containsOnly(0);
        Object inode = Files.getAttribute(dir.resolve("spare-0.tee"), "unix:ino");

        TeeFile first = tee("a.tee", spares);
        first.append(ByteBuffer.wrap(filled(buffer + 5, (byte) 3)));
        first.finish();
        assertThat(Files.getAttribute(dir.resolve("a.tee"), "unix:ino"))
                .as("the first large tee wrote over the primed file")
                .isEqualTo(inode);
        assertThat(Files.size(dir.resolve("a.tee"))).isEqualTo(buffer + 5L);
        assertThat(spares.files()).isZero();
    }

    @Test
    void aSpareWrittenOverIsCutAfterFinishByTheIoExecutorAndReadsMeanwhileSeeOnlyTheTeesBytes() throws Exception {
        int buffer = TeeBuffers.BUFFER_BYTES;
        SpareTees spares = new SpareTees(dir, 2, 16L * buffer);
        TeeFile tee = finishedOverPrimedSpare(spares);
        assertThat(Files.size(dir.resolve("a.tee")))
                .as("finish returns before the spare's old bytes are cut")
                .isEqualTo(8L * buffer);
        assertThat(io.held).hasSize(1);
        assertThat(bytes(tee.read(buffer, 5))).containsOnly(3);
        assertThatThrownBy(() -> tee.read(buffer + 5, 1)).isInstanceOf(EOFException.class);

        io.held.poll().run();
        assertThat(Files.size(dir.resolve("a.tee"))).isEqualTo(buffer + 5L);
        tee.delete();
        assertThat(spares.bytes()).as("kept at its own bytes").isEqualTo(buffer + 5L);
    }

    @Test
    void aCutStillToBeMadeIsMadeFirstByAnAppendOrADeleteAndTakesNothingAppended() throws Exception {
        int buffer = TeeBuffers.BUFFER_BYTES;
        SpareTees spares = new SpareTees(dir, 2, 16L * buffer);
        TeeFile tee = finishedOverPrimedSpare(spares);

        tee.append(ByteBuffer.wrap(new byte[] {9, 9}));
        tee.finish();
        io.held.poll().run(); // late: the append made the cut
        assertThat(Files.size(dir.resolve("a.tee"))).isEqualTo(buffer + 7L);
        assertThat(bytes(tee.read(buffer + 4, 3))).containsExactly(3, 9, 9);
        tee.delete();

        TeeFile next = new TeeFile(dir.resolve("b.tee"), io, false, 0, new TeeBuffers(0), spares);
        io.holding = false;
        next.append(ByteBuffer.wrap(filled(buffer + 1, (byte) 4)));
        io.holding = true;
        next.finish();
        assertThat(Files.size(dir.resolve("b.tee"))).isEqualTo(buffer + 7L);
        next.delete(); // the cut is still held
        assertThat(spares.bytes())
                .as("delete cut the file before the spares measured it")
                .isEqualTo(buffer + 1L);
        io.held.poll().run();
        assertThat(spares.bytes()).isEqualTo(buffer + 1L);
    }

    /**
     * {@code a.tee}: a buffer and 5 bytes of 3 written over a primed spare of 8 buffers, finished
     * while {@link #io} holds its tasks (the spare's cut among them).
     */
    private TeeFile finishedOverPrimedSpare(SpareTees spares) throws Exception {
        int buffer = TeeBuffers.BUFFER_BYTES;
        assertThat(spares.prime(8L * buffer, 0)).isEqualTo(8L * buffer);
        TeeFile tee = new TeeFile(dir.resolve("a.tee"), io, false, 0, new TeeBuffers(0), spares);
        tee.append(ByteBuffer.wrap(filled(buffer + 5, (byte) 3)));
        io.holding = true;
        tee.finish();
        return tee;
    }

    /** The I/O executor of the tees that take spares written over in the tests of the cut. */
    private final HeldIo io = new HeldIo();

    /** Runs tasks as they come, or holds them while {@link #holding}, to be run by the test. */
    private static final class HeldIo implements java.util.concurrent.Executor {
        final java.util.ArrayDeque<Runnable> held = new java.util.ArrayDeque<>();
        boolean holding;

        @Override
        public void execute(Runnable task) {
            if (holding) {
                held.add(task);
            } else {
                task.run();
            }
        }
    }

    @Test
    void primingWritesNothingWhereASpareServesOrTheBoundsOrTheDiskForbid() throws Exception {
        int buffer = TeeBuffers.BUFFER_BYTES;
        SpareTees spares = new SpareTees(dir, 2, 4L * buffer);

        assertThat(spares.prime(buffer - 1, 0)).as("less than a buffer").isZero();
        assertThat(spares.prime(5L * buffer, 0))
                .as("more than the spares may keep")
                .isZero();
        assertThat(spares.prime(buffer, Long.MAX_VALUE))
                .as("the disk would keep too little free")
                .isZero();
        assertThat(new SpareTees(dir, 0, 4L * buffer).prime(buffer, 0))
                .as("no spares kept")
                .isZero();
        assertThat(names()).isEmpty();

        assertThat(spares.prime(2L * buffer, 0)).isEqualTo(2L * buffer);
        assertThat(spares.prime(2L * buffer, 0))
                .as("the newest spare is that long already")
                .isZero();
        assertThat(spares.prime(3L * buffer, 0))
                .as("a longer one lets the shorter go: the bytes allowed")
                .isEqualTo(3L * buffer);
        assertThat(spares.files()).isEqualTo(1);
        assertThat(spares.bytes()).isEqualTo(3L * buffer);
        assertThat(names()).containsExactly("spare-1.tee");
    }

    @Test
    void theSparesAnEarlierFrontendLeftAreRemovedAtStart() throws Exception {
        Files.write(dir.resolve("spare-0.tee"), new byte[10]);
        Files.write(dir.resolve("spare-7.tee"), new byte[10]);
        Files.write(dir.resolve("query-1.tee"), new byte[10]);

        SpareTees spares = new SpareTees(dir, 2, 1L << 20);

        assertThat(spares.files()).isZero();
        assertThat(names()).containsExactly("query-1.tee");
    }

    /** A tee of {@code bytes} bytes at {@code name}, written without spares, finished. */
    private Path written(String name, int bytes) throws Exception {
        TeeFile t = tee(name, null);
        t.append(ByteBuffer.wrap(filled(bytes, (byte) 1)));
        t.finish();
        t.close();
        return dir.resolve(name);
    }

    /** Leaves the closed tee file at {@code path} to {@code spares}, and removes what they hand back, as a tee's delete does. */
    private static void leave(Path path, SpareTees spares) throws Exception {
        Path remove = spares.keep(path);
        if (remove != null) {
            Files.delete(remove);
        }
    }

    private TeeFile tee(String name, SpareTees spares) {
        return new TeeFile(dir.resolve(name), Runnable::run, false, 0, new TeeBuffers(0), spares);
    }

    private List<String> names() throws Exception {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static byte[] filled(int n, byte b) {
        byte[] bytes = new byte[n];
        Arrays.fill(bytes, b);
        return bytes;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }
}
