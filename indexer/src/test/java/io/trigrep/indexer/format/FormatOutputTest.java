package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The one writer of shard bytes, past its buffer (256 KiB, or 1 MiB for a bulk output, whether
 * its aligned runs go with direct I/O or through the page cache): every kind of value, arrays,
 * buffers and file copies land in order and in the checksum; short sources are errors; a
 * finished or closed output has let go of its file.
 */
class FormatOutputTest {
    /** More than a bulk output's buffer holds, so each kind of write meets a full buffer. */
    static final int MANY = 300_000;

    /** How an output writes: the three ways a shard file can be written. */
    enum Mode {
        BUFFERED,
        BULK,
        BULK_WITHOUT_DIRECT_IO;

        FormatOutput open(Path file, int kind) throws IOException {
            return switch (this) {
                case BUFFERED -> new FormatOutput(file, kind);
                case BULK -> FormatOutput.bulk(file, kind);
                case BULK_WITHOUT_DIRECT_IO -> FormatOutput.bulk(file, kind, false);
            };
        }
    }

    @TempDir
    Path dir;

    private static ByteBuffer body(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return ByteBuffer.wrap(bytes, 16, bytes.length - 32).slice().order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A file checked as a complete contents file: header, footer, length and CRC32C. */
    private static void assertComplete(Path file) throws IOException {
        MappedFile mapped = MappedFile.open(file);
        Envelope.check(mapped, Envelope.KIND_CONTENTS);
        Envelope.verifyChecksum(mapped);
    }

    private Path source(int size) throws IOException {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 7 + (i >>> 9));
        }
        Path file = dir.resolve("source-" + size);
        Files.write(file, bytes);
        return file;
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void eachKindOfValueCrossesTheBufferInOrder(Mode mode) throws Exception {
        Path file = dir.resolve("values");
        FormatOutput out = mode.open(file, Envelope.KIND_CONTENTS);
        for (int i = 0; i < MANY; i++) {
            out.writeByte(i);
        }
        for (int i = 0; i < MANY / 2; i++) {
            out.writeShort(i);
        }
        for (int i = 0; i < MANY / 4; i++) {
            out.writeInt(i * 31);
        }
        for (int i = 0; i < MANY / 8; i++) {
            out.writeLong(i * 0x1_0000_0001L);
        }
        for (int i = 0; i < MANY / 4; i++) {
            out.writeFloat(i / 2f);
        }
        assertThat(out.position()).isEqualTo(16 + 5L * MANY);
        out.finish();
        assertComplete(file);
        ByteBuffer expected = ByteBuffer.allocate(5 * MANY).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < MANY; i++) {
            expected.put((byte) i);
        }
        for (int i = 0; i < MANY / 2; i++) {
            expected.putShort((short) i);
        }
        for (int i = 0; i < MANY / 4; i++) {
            expected.putInt(i * 31);
        }
        for (int i = 0; i < MANY / 8; i++) {
            expected.putLong(i * 0x1_0000_0001L);
        }
        for (int i = 0; i < MANY / 4; i++) {
            expected.putFloat(i / 2f);
        }
        assertThat(expected.hasRemaining()).isFalse();
        assertThat(body(file)).isEqualTo(expected.flip());
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void arraysAndBuffersLargerThanTheBufferLandWhole(Mode mode) throws Exception {
        byte[] array = Files.readAllBytes(source(1_100_001));
        Path file = dir.resolve("arrays");
        FormatOutput out = mode.open(file, Envelope.KIND_CONTENTS);
        out.writeByte(0x55);
        out.write(array, 1, array.length - 1);
        ByteBuffer buffer = ByteBuffer.wrap(array);
        buffer.position(3);
        out.write(buffer);
        assertThat(buffer.hasRemaining()).isFalse();
        out.finish();
        assertComplete(file);
        ByteBuffer body = body(file);
        assertThat(body.remaining()).isEqualTo(1 + (array.length - 1) + (array.length - 3));
        assertThat(body.get(0)).isEqualTo((byte) 0x55);
        assertThat(body.slice(1, array.length - 1)).isEqualTo(ByteBuffer.wrap(array, 1, array.length - 1));
        assertThat(body.slice(array.length, array.length - 3)).isEqualTo(ByteBuffer.wrap(array, 3, array.length - 3));
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void copiedAndTransferredRangesLandAfterBufferedBytes(Mode mode) throws Exception {
        Path source = source(3_000_000);
        byte[] expected = Files.readAllBytes(source);
        Path file = dir.resolve("copies");
        FormatOutput out = mode.open(file, Envelope.KIND_CONTENTS);
        int copied = 2_500_000;
        int moved = 300_000;
        try (FileChannel channel = FileChannel.open(source, StandardOpenOption.READ)) {
            out.writeInt(7);
            out.copyFrom(channel, 5, copied);
            assertThat(out.position()).isEqualTo(16 + 4 + copied);
            out.writeInt(8);
            MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 100, moved);
            out.transferFrom(channel, 100, moved, mapped);
            assertThat(out.position()).isEqualTo(16 + 4 + copied + 4 + moved);
            out.writeInt(9);
        }
        out.finish();
        assertComplete(file);
        ByteBuffer body = body(file);
        assertThat(body.getInt(0)).isEqualTo(7);
        assertThat(body.slice(4, copied)).isEqualTo(ByteBuffer.wrap(expected, 5, copied));
        assertThat(body.getInt(4 + copied)).isEqualTo(8);
        assertThat(body.slice(8 + copied, moved)).isEqualTo(ByteBuffer.wrap(expected, 100, moved));
        assertThat(body.getInt(8 + copied + moved)).isEqualTo(9);
        assertThat(body.remaining()).isEqualTo(12 + copied + moved);
    }

    /** A block-aligned body: the last partial block is empty, so only the footer goes buffered. */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void aBodyThatEndsOnABlockStillGetsItsFooter(Mode mode) throws Exception {
        Path source = source(1 << 21);
        Path file = dir.resolve("aligned");
        FormatOutput out = mode.open(file, Envelope.KIND_CONTENTS);
        try (FileChannel channel = FileChannel.open(source, StandardOpenOption.READ)) {
            out.copyFrom(channel, 0, (1 << 21) - 16);
        }
        assertThat(out.position()).isEqualTo(1 << 21);
        out.finish();
        assertComplete(file);
        assertThat(body(file)).isEqualTo(ByteBuffer.wrap(Files.readAllBytes(source), 0, (1 << 21) - 16));
    }

    /** Where this test's file system takes direct I/O, a bulk output uses it until the end. */
    @Test
    void aBulkOutputBypassesThePageCacheWhereTheFileSystemAllows() throws Exception {
        Path probe = dir.resolve("probe");
        Files.createFile(probe);
        FileChannel probeChannel = DirectIo.openForWrites(probe);
        boolean allowed = probeChannel != null;
        if (allowed) {
            probeChannel.close();
        }
        FormatOutput out = FormatOutput.bulk(dir.resolve("bulk"), Envelope.KIND_CONTENTS);
        try (FileChannel channel = FileChannel.open(source(3_000_000), StandardOpenOption.READ)) {
            out.copyFrom(channel, 0, 3_000_000);
        }
        assertThat(out.direct()).isEqualTo(allowed);
        assertThat(FormatOutput.bulk(dir.resolve("buffered"), Envelope.KIND_CONTENTS, false)
                        .direct())
                .isFalse();
        out.finish();
        assertComplete(dir.resolve("bulk"));
    }

    @Test
    void sourcesShorterThanAskedAreErrors() throws Exception {
        Path source = source(1000);
        FormatOutput out = new FormatOutput(dir.resolve("short"), Envelope.KIND_CONTENTS);
        try (FileChannel channel = FileChannel.open(source, StandardOpenOption.READ)) {
            assertThatThrownBy(() -> out.copyFrom(channel, 10, 1000))
                    .isInstanceOf(IOException.class)
                    .hasMessage("short read from " + channel + ": 990 of 1000 bytes");
            MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, 1000);
            assertThatThrownBy(() -> out.transferFrom(channel, 0, 1010, mapped))
                    .isInstanceOf(IOException.class)
                    .hasMessage("short transfer from " + channel + ": 1000 of 1010 bytes");
        } finally {
            out.close();
        }
    }

    @Test
    void finishAndCloseLetGoOfTheFile() throws Exception {
        FormatOutput finished = new FormatOutput(dir.resolve("finished"), Envelope.KIND_CONTENTS);
        finished.finish();
        assertThatThrownBy(finished::flushedChannel).isInstanceOf(ClosedChannelException.class);
        FormatOutput closed = new FormatOutput(dir.resolve("closed"));
        closed.writeInt(1);
        closed.close();
        assertThatThrownBy(closed::flushedChannel).isInstanceOf(ClosedChannelException.class);
    }

    @Test
    void aScratchFileHasNoHeaderAndIsReadableBack() throws Exception {
        FormatOutput scratch = new FormatOutput(dir.resolve("scratch"));
        assertThat(scratch.path()).isEqualTo(dir.resolve("scratch"));
        assertThat(scratch.position()).isZero();
        scratch.writeLong(-2);
        FileChannel channel = scratch.flushedChannel();
        assertThat(channel.size()).isEqualTo(8);
        ByteBuffer read = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        channel.read(read, 0);
        assertThat(read.getLong(0)).isEqualTo(-2);
        scratch.close();
        assertThatThrownBy(() -> new FormatOutput(dir.resolve("scratch")))
                .isInstanceOf(java.nio.file.FileAlreadyExistsException.class);
    }
}
