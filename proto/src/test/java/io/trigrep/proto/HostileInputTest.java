package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.trigrep.proto.Values.RangeValue;
import io.trigrep.proto.Values.ResultValue;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Bytes from a peer can be anything: each bad input ends in a clear exception, quickly, without big allocations. */
class HostileInputTest {
    private static final long ALLOCATION_BUDGET = 256 * 1024;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Little-endian words, as a frame is laid out. */
    private static byte[] words(long... words) {
        ByteBuffer out = ByteBuffer.allocate(words.length * 8).order(ByteOrder.LITTLE_ENDIAN);
        for (long w : words) {
            out.putLong(w);
        }
        return out.array();
    }

    private static byte[] table(int segmentsMinusOne, int firstSize) {
        return ByteBuffer.allocate(8)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(segmentsMinusOne)
                .putInt(firstSize)
                .array();
    }

    private static List<Object> decode(byte[] bytes) {
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(FrameLimits.DEFAULT));
        channel.writeInbound(Unpooled.wrappedBuffer(bytes));
        channel.finish();
        List<Object> out = new ArrayList<>();
        for (Object o; (o = channel.readInbound()) != null; ) {
            out.add(o);
        }
        return out;
    }

    private static long allocatedBy(Runnable action) {
        long before = THREADS.getCurrentThreadAllocatedBytes();
        action.run();
        return THREADS.getCurrentThreadAllocatedBytes() - before;
    }

    @Test
    void segmentCountOfTwoToThe31IsRefusedWithoutAllocating() {
        byte[] header = table(Integer.MAX_VALUE, 1);
        long allocated = allocatedBy(() -> assertThat(decode(header))
                .singleElement()
                .isEqualTo(new MalformedFrame("segment table announces 2147483648 segments, limit is 512")));
        assertThat(allocated).isLessThan(ALLOCATION_BUDGET);
        assertThatThrownBy(() -> Framing.read(ByteBuffer.wrap(header), FrameLimits.DEFAULT))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("2147483648 segments");
    }

    @Test
    void allOnesSegmentCountIsRefused() {
        assertThat(decode(table(-1, 1)))
                .singleElement()
                .isEqualTo(new MalformedFrame("segment table announces 4294967296 segments, limit is 512"));
    }

    @Test
    void fourGibibyteSegmentIsRefusedWithoutAllocating() {
        byte[] header = table(0, 1 << 29);
        long allocated = allocatedBy(() -> assertThat(decode(header))
                .singleElement()
                .isEqualTo(new MalformedFrame("segment table announces over 4294967304 bytes, limit is 67108864")));
        assertThat(allocated).isLessThan(ALLOCATION_BUDGET);
    }

    @Test
    void segmentSizesThatOverflowIntAreRefused() {
        ByteBuffer t = ByteBuffer.allocate(16)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(2)
                .putInt(-1)
                .putInt(-1)
                .putInt(-1);
        assertThat(decode(t.array())).singleElement().isInstanceOf(MalformedFrame.class);
    }

    @Test
    void streamReaderRefusesHugeClaimsBeforeAllocating() {
        byte[] header = table(0, (1 << 29) - 1);
        long allocated = allocatedBy(() -> assertThatThrownBy(() -> Framing.readFrame(
                        java.nio.channels.Channels.newChannel(new java.io.ByteArrayInputStream(header)),
                        FrameLimits.DEFAULT))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("limit is 67108864"));
        assertThat(allocated).isLessThan(ALLOCATION_BUDGET);
    }

    @Test
    void emptyFirstSegmentIsRefused() {
        assertThat(decode(table(0, 0)))
                .singleElement()
                .isEqualTo(new MalformedFrame("segment 0 is empty: a message needs at least its root pointer"));
    }

    @Test
    void everyTruncationOfAValidFrameIsReported() throws Exception {
        byte[] frame = validFrame();
        for (int cut = 1; cut < frame.length; cut++) {
            byte[] part = java.util.Arrays.copyOf(frame, cut);
            assertThat(decode(part))
                    .as("cut at %d", cut)
                    .singleElement()
                    .isInstanceOf(MalformedFrame.class)
                    .extracting(o -> ((MalformedFrame) o).reason())
                    .asString()
                    .startsWith("stream ended inside a frame");
            assertThatThrownBy(() -> Framing.read(ByteBuffer.wrap(part), FrameLimits.DEFAULT))
                    .as("cut at %d", cut)
                    .isInstanceOf(MalformedMessageException.class);
            assertThatThrownBy(() -> Framing.readFrame(
                            java.nio.channels.Channels.newChannel(new java.io.ByteArrayInputStream(part)),
                            FrameLimits.DEFAULT))
                    .as("cut at %d", cut)
                    .isInstanceOf(java.io.IOException.class);
        }
    }

    @Test
    void trailingBytesAfterAFrameAreRefusedWhenReadingByOffset() {
        byte[] frame = validFrame();
        byte[] longer = java.util.Arrays.copyOf(frame, frame.length + 8);
        assertThatThrownBy(() -> Framing.read(ByteBuffer.wrap(longer), FrameLimits.DEFAULT))
                .isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("were given");
    }

    @Test
    void rootStructPointerOutOfBounds() {
        // Root: struct pointer, offset 100 words, 1 data word, 1 pointer; the segment has 1 word.
        byte[] frame = concat(table(0, 1), words(structPointer(100, 1, 1)));
        assertMalformed(frame, "out-of-bounds struct pointer");
    }

    @Test
    void textPointerRunningPastTheSegment() {
        // Response{tag=0 result} -> Result with package text claiming 1000 bytes in a 4-word segment.
        byte[] frame = concat(
                table(0, 5), words(structPointer(0, 1, 1), 0L, structPointer(0, 1, 6), 0L, listPointer(0, 2, 1000)));
        assertMalformed(frame, "");
    }

    @Test
    void textPointerWithNegativeOffset() {
        byte[] frame = concat(
                table(0, 5), words(structPointer(0, 1, 1), 0L, structPointer(0, 1, 6), 0L, listPointer(-20, 2, 16)));
        assertMalformed(frame, "");
    }

    @Test
    void farPointerToAMissingSegment() {
        long far = 2L | (0L << 3) | (7L << 32); // landing pad at word 0 of segment 7
        byte[] frame = concat(table(0, 1), words(far));
        assertMalformed(frame, "");
    }

    @Test
    void manyPointersToOneTextHitTheTraversalLimit() {
        // Result.before: 200 list elements all pointing at one 100-word text. Reading them all
        // would touch 20,000 words of a 313-word message: an amplification the reader refuses.
        int elements = 200;
        int textWords = 100;
        int listStart = 10;
        int textStart = listStart + elements;
        long[] w = new long[textStart + textWords];
        w[0] = structPointer(0, 1, 1);
        w[2] = structPointer(0, 1, 6);
        w[6] = listPointer(listStart - 7, 6, elements);
        for (int i = 0; i < elements; i++) {
            int at = listStart + i;
            w[at] = listPointer(textStart - at - 1, 2, textWords * 8);
        }
        for (int i = 0; i < textWords; i++) {
            w[textStart + i] = 0x2020202020202020L;
        }
        w[w.length - 1] = 0x0020202020202020L;
        assertMalformed(concat(table(0, w.length), words(w)), "Read limit exceeded");
    }

    /** Regression: validation charged the traversal budget, so a consumer's first full read could fail. */
    @Test
    void sharedTextsWithinTheBudgetCanBeReadAfterValidation() throws Exception {
        int elements = 45;
        int textWords = 20;
        int listStart = 10;
        int textStart = listStart + elements;
        long[] w = new long[textStart + textWords];
        w[0] = structPointer(0, 1, 1);
        w[2] = structPointer(0, 1, 6);
        w[6] = listPointer(listStart - 7, 6, elements);
        for (int i = 0; i < elements; i++) {
            w[listStart + i] = listPointer(textStart - (listStart + i) - 1, 2, textWords * 8);
        }
        for (int i = 0; i < textWords; i++) {
            w[textStart + i] = 0x6161616161616161L;
        }
        w[w.length - 1] = 0x0061616161616161L;
        ByteBuf buf = Unpooled.wrappedBuffer(concat(table(0, w.length), words(w)));
        try {
            Response.Reader response = Messages.response(Framing.read(buf, FrameLimits.DEFAULT));
            Values.ResultValue value = (Values.ResultValue) Values.read(response);
            assertThat(value.before()).hasSize(elements).allMatch(s -> s.length() == textWords * 8 - 1);
        } finally {
            buf.release();
        }
    }

    @Test
    void inlineCompositeListClaimingMoreElementsThanItsWords() {
        // Result.ranges: an inline-composite list of 2 words whose tag claims a million 1-word elements.
        long[] w = new long[13];
        w[0] = structPointer(0, 1, 1);
        w[2] = structPointer(0, 1, 6);
        w[9] = listPointer(0, 7, 2);
        w[10] = (1_000_000L << 2) | (1L << 32);
        assertMalformed(concat(table(0, w.length), words(w)), "overrun");
    }

    @Test
    void oversizedMessageUnderAConfiguredLimit() {
        FrameLimits small = new FrameLimits(4, 1024);
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(small));
        channel.writeInbound(Unpooled.wrappedBuffer(table(0, 1000)));
        assertThat((Object) channel.readInbound())
                .isEqualTo(new MalformedFrame("segment table announces over 8008 bytes, limit is 1024"));
        // Whatever follows is discarded, not parsed as another frame.
        channel.writeInbound(Unpooled.wrappedBuffer(validFrame()));
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(channel.finish()).isFalse();
    }

    @Property(tries = 2000)
    void randomBytesNeverEscapeAsAnythingButMalformed(@ForAll @Size(max = 200) byte[] bytes) {
        checkGarbage(bytes);
    }

    @Property(tries = 2000)
    void mutatedValidFramesNeverEscapeAsAnythingButMalformed(@ForAll("mutations") int[] flips) {
        byte[] frame = validFrame();
        for (int i = 0; i + 1 < flips.length; i += 2) {
            frame[Math.floorMod(flips[i], frame.length)] ^= (byte) flips[i + 1];
        }
        checkGarbage(frame);
    }

    @Property(tries = 500)
    void randomWordsBehindAValidTableNeverEscape(
            @ForAll @IntRange(min = 1, max = 40) int size, @ForAll("longs") long[] body) {
        long[] padded = java.util.Arrays.copyOf(body, size);
        checkGarbage(concat(table(0, size), words(padded)));
    }

    @Provide
    Arbitrary<int[]> mutations() {
        return Arbitraries.integers()
                .between(0, 1 << 16)
                .array(int[].class)
                .ofMinSize(2)
                .ofMaxSize(12);
    }

    @Provide
    Arbitrary<long[]> longs() {
        return Arbitraries.longs().array(long[].class).ofMaxSize(40);
    }

    private static void checkGarbage(byte[] bytes) {
        for (Object out : decode(bytes)) {
            if (out instanceof ByteBuf frame) {
                try {
                    var message = Framing.read(frame, FrameLimits.DEFAULT);
                    Response.Reader response = Messages.response(message);
                    Values.read(response);
                } catch (MalformedMessageException expected) {
                    assertThat(expected.getMessage()).startsWith("malformed Response message: ");
                } catch (AssertionError unknownUnionMember) {
                    // a union tag from a newer schema: legal, and the reader reports it as _NOT_IN_SCHEMA
                    assertThat(unknownUnionMember.getMessage()).isEqualTo("unknown response");
                } finally {
                    frame.release();
                }
            } else {
                assertThat(out).isInstanceOf(MalformedFrame.class);
            }
        }
    }

    private static void assertMalformed(byte[] frame, String detail) {
        List<Object> out = decode(frame);
        assertThat(out).singleElement().isInstanceOf(ByteBuf.class);
        ByteBuf buf = (ByteBuf) out.get(0);
        try {
            assertThatThrownBy(() -> Messages.response(Framing.read(buf, FrameLimits.DEFAULT)))
                    .isInstanceOf(MalformedMessageException.class)
                    .hasMessageStartingWith("malformed Response message: ")
                    .hasMessageContaining(detail);
        } finally {
            buf.release();
        }
    }

    private static byte[] validFrame() {
        ResultValue value = new ResultValue(
                "pkg", "a/b.c", 3, List.of("one"), "two", List.of("three"), List.of(new RangeValue(0, 3)), 1f);
        ByteBuf buf = Unpooled.buffer();
        Framing.write(Values.write(value), buf);
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        buf.release();
        return bytes;
    }

    /** A struct pointer: kind 0, signed word offset, data words, pointer count. */
    private static long structPointer(int offset, int dataWords, int pointers) {
        return ((long) offset << 2 & 0xffffffffL) | ((long) dataWords << 32) | ((long) pointers << 48);
    }

    /** A list pointer: kind 1, signed word offset, element size code, element count. */
    private static long listPointer(int offset, int elementSize, int count) {
        return 1L | ((long) offset << 2 & 0xffffffffL) | ((long) elementSize << 32) | ((long) count << 35);
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
