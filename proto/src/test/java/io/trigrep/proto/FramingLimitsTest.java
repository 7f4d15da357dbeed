package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The limits of FrameLimits hold exactly at their values: the frame at the limit passes, one past it fails. */
class FramingLimitsTest {
    /** A frame of {@code words.length} segments of {@code words[i]} zero words each (the root pointer of segment 0 is null). */
    private static ByteBuffer frame(int... words) {
        int table = (4 + 4 * words.length + 7) / 8 * 8;
        int body = 0;
        for (int w : words) {
            body += 8 * w;
        }
        ByteBuffer out = ByteBuffer.allocate(table + body).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(0, words.length - 1);
        for (int i = 0; i < words.length; i++) {
            out.putInt(4 + 4 * i, words[i]);
        }
        return out;
    }

    @Test
    void segmentCountAtTheLimitPassesAndOneMoreFails() throws Exception {
        assertThat(Framing.frameLength(frame(1, 1), new FrameLimits(2, 1024))).isEqualTo(16 + 16);
        assertThatThrownBy(() -> Framing.frameLength(frame(1, 1), new FrameLimits(1, 1024)))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessage("segment table announces 2 segments, limit is 1");
        assertThat(Framing.readFrame(
                                Channels.newChannel(
                                        new ByteArrayInputStream(frame(1, 1).array())),
                                new FrameLimits(2, 1024))
                        .remaining())
                .isEqualTo(32);
        assertThatThrownBy(() -> Framing.readFrame(
                        Channels.newChannel(new ByteArrayInputStream(frame(1, 1).array())), new FrameLimits(1, 1024)))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessage("segment table announces 2 segments, limit is 1");
    }

    @Test
    void messageBytesAtTheLimitPassAndOneWordMoreFails() throws Exception {
        assertThat(Framing.frameLength(frame(1), new FrameLimits(1, 16))).isEqualTo(16);
        assertThatThrownBy(() -> Framing.frameLength(frame(2), new FrameLimits(1, 16)))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessage("segment table announces over 24 bytes, limit is 16");
    }

    @Test
    void lengthNeedsEightBytesAndTheWholeTable() throws Exception {
        ByteBuffer two = frame(1, 1);
        assertThat(Framing.frameLength(two, 0, 7, FrameLimits.DEFAULT)).isEqualTo(-1);
        assertThat(Framing.frameLength(two, 0, 15, FrameLimits.DEFAULT)).isEqualTo(-1);
        assertThat(Framing.frameLength(two, 0, 16, FrameLimits.DEFAULT)).isEqualTo(32);
        assertThat(Framing.frameLength(frame(3), 0, 8, FrameLimits.DEFAULT)).isEqualTo(32);
    }

    @Test
    void readTakesExactlyOneFrame() {
        ByteBuffer longer = ByteBuffer.allocate(17).put(frame(1)).flip().limit(17);
        assertThatThrownBy(() -> Framing.read(longer, FrameLimits.DEFAULT))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessage("frame is 16 bytes but 17 were given");
        assertThatThrownBy(() -> Framing.read(frame(1).limit(15), FrameLimits.DEFAULT))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessage("truncated frame: 15 bytes, segment table needs 16");
        assertThatThrownBy(() -> Framing.read(frame(1, 1).limit(12), FrameLimits.DEFAULT))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessage("truncated frame: 12 bytes, segment table needs more");
    }

    @Test
    void readsAFrameFromAFileWithinTheLimitsOnly(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tee");
        ByteBuffer one = frame(1);
        Files.write(file, new byte[] {9, 9, 9});
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.APPEND)) {
            out.write(one);
        }
        FrameLimits limits = new FrameLimits(1, 16);
        try (FileChannel in = FileChannel.open(file)) {
            assertThat(Framing.read(in, 3, 16, limits)).isNotNull();
            assertThatThrownBy(() -> Framing.read(in, 3, 17, limits))
                    .isInstanceOf(MalformedMessageException.class)
                    .hasMessage("frame length 17 at offset 3 is outside [8, 16]");
            assertThatThrownBy(() -> Framing.read(in, 3, 7, limits))
                    .isInstanceOf(MalformedMessageException.class)
                    .hasMessage("frame length 7 at offset 3 is outside [8, 16]");
            assertThatThrownBy(() -> Framing.read(in, 3, 8, limits))
                    .isInstanceOf(MalformedMessageException.class)
                    .hasMessageContaining("truncated frame");
            assertThatThrownBy(() -> Framing.read(in, 4, 16, limits))
                    .isInstanceOf(EOFException.class)
                    .hasMessage("file ends inside the frame at offset 4 (15 of 16 bytes)");
        }
    }
}
