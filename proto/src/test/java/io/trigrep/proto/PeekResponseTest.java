package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Messages.peekResponse names the union member from the bytes alone, and refuses what it cannot read safely. */
class PeekResponseTest {
    static byte[] frame(Consumer<Response.Builder> fill) {
        MessageBuilder message = Messages.newBuilder();
        fill.accept(message.initRoot(Response.factory));
        ByteBuf buf = Unpooled.buffer();
        try {
            Framing.write(message, buf);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    static byte[] frameOf(Response.Which kind) {
        return frame(r -> {
            switch (kind) {
                case RESULT -> r.initResult().setPackage("p").setPath("a.c");
                case PROGRESS -> r.initProgress().setResults(1);
                case DONE -> r.initDone().setResults(2);
                case ERROR -> r.initError().setMessage("no");
                case FILE -> r.initFile().setPackage("p").setPath("a.c");
                case STATUS -> r.initStatus().setShard("s");
                case FILE_MATCH -> r.initFileMatch().setPackage("p").setPath("a.c");
                case FILE_RESULTS -> r.initFileResults().setPackage("p").setPath("a.c");
                case _NOT_IN_SCHEMA -> throw new IllegalArgumentException("not writable: " + kind);
            }
        });
    }

    @ParameterizedTest
    @EnumSource(value = Response.Which.class, names = "_NOT_IN_SCHEMA", mode = EnumSource.Mode.EXCLUDE)
    void namesEveryMemberInEitherByteOrderAndAtAnyPosition(Response.Which kind) throws Exception {
        byte[] bytes = frameOf(kind);
        assertThat(Messages.peekResponse(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN)))
                .isEqualTo(kind);
        assertThat(Messages.peekResponse(ByteBuffer.wrap(bytes))).isEqualTo(kind);
        byte[] shifted = new byte[bytes.length + 11];
        System.arraycopy(bytes, 0, shifted, 5, bytes.length);
        assertThat(Messages.peekResponse(
                        ByteBuffer.wrap(shifted, 5, bytes.length).slice(5, bytes.length)))
                .isEqualTo(kind);
        assertThat(Messages.peekResponse(ByteBuffer.wrap(shifted).position(5).limit(5 + bytes.length)))
                .isEqualTo(kind);
    }

    /** The tag is the root struct's first two bytes: frame header (8), root pointer (8), then data. */
    private static void setTag(byte[] bytes, int tag) {
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putShort(16 + 8 * rootOffset(bytes), (short) tag);
    }

    private static int rootOffset(byte[] bytes) {
        return (int) ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(8) >> 2;
    }

    @Test
    void aTagPastTheSchemaIsNotInTheSchema() throws Exception {
        byte[] bytes = frameOf(Response.Which.DONE);
        int members = Response.Which.values().length - 1;
        setTag(bytes, members - 1);
        assertThat(Messages.peekResponse(ByteBuffer.wrap(bytes))).isEqualTo(Response.Which.values()[members - 1]);
        setTag(bytes, members);
        assertThat(Messages.peekResponse(ByteBuffer.wrap(bytes))).isEqualTo(Response.Which._NOT_IN_SCHEMA);
        setTag(bytes, -1);
        assertThat(Messages.peekResponse(ByteBuffer.wrap(bytes))).isEqualTo(Response.Which._NOT_IN_SCHEMA);
        setTag(bytes, 0);
        assertThat(Messages.peekResponse(ByteBuffer.wrap(bytes))).isEqualTo(Response.Which.RESULT);
    }

    @Test
    void refusesFramesShorterThanThreeWordsOrOfSeveralSegments() {
        byte[] bytes = frameOf(Response.Which.PROGRESS);
        assertThatThrownBy(() -> Messages.peekResponse(ByteBuffer.wrap(bytes, 0, 23)))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("not a single-segment frame");
        byte[] twoSegments = bytes.clone();
        twoSegments[0] = 1;
        assertThatThrownBy(() -> Messages.peekResponse(ByteBuffer.wrap(twoSegments)))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("not a single-segment frame");
    }

    @Test
    void readsTheTagOfAThreeWordFrame() throws Exception {
        // Header, root pointer to the word right after it, one data word holding the tag.
        ByteBuffer frame = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(0, 0).putInt(4, 2).putLong(8, 1L << 32).putShort(16, (short) 2);
        assertThat(Messages.peekResponse(frame)).isEqualTo(Response.Which.DONE);
    }

    @Test
    void refusesARootThatIsNotAnInBoundsStructWithData() {
        ByteBuffer frame = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        frame.putInt(0, 0).putInt(4, 2);
        // A list pointer, not a struct.
        frame.putLong(8, 1L << 32 | 1);
        assertRefused(frame);
        // A struct without a data section.
        frame.putLong(8, 1L << 48);
        assertRefused(frame);
        // A struct one word past the frame: its tag would be read outside it.
        frame.putLong(8, 1L << 32 | 1 << 2);
        assertRefused(frame);
        // A struct before the segment.
        frame.putLong(8, 1L << 32 | (-1 << 2) & 0xffffffffL);
        assertRefused(frame);
        // A struct whose tag's last byte is the frame's last byte is fine; one byte less is not.
        ByteBuffer exact = ByteBuffer.allocate(26).order(ByteOrder.LITTLE_ENDIAN);
        exact.putInt(0, 0).putInt(4, 2).putLong(8, 1L << 32 | 1 << 2).putShort(24, (short) 1);
        try {
            assertThat(Messages.peekResponse(exact)).isEqualTo(Response.Which.PROGRESS);
        } catch (MalformedMessageException e) {
            throw new AssertionError(e);
        }
        assertRefused(exact.limit(25));
    }

    private static void assertRefused(ByteBuffer frame) {
        assertThatThrownBy(() -> Messages.peekResponse(frame))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("root is not a struct with a data section");
    }
}
