package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The peek at the edges of what it accepts: where the frame sits in its buffer, the buffer's byte
 * order, and each check of the layout, broken one at a time on a frame it otherwise accepts.
 */
class ResultPeekEdgesTest {
    private static final String PKG = "zlib_1.2.13.dfsg-1";
    private static final String PATH = "contrib/minizip/unzip.c";

    /** A file match as the backend writes it: one segment, package and path as its first two pointers. */
    private static byte[] frame(String pkg, String path, float ranking) {
        ByteBuf buf = Unpooled.buffer();
        FileMatch.write(buf, utf8(pkg), utf8(path), ranking, 1234, utf8("c"));
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        buf.release();
        return bytes;
    }

    @Test
    void aFrameAcceptedAsIs() {
        ResultPeek peek = new ResultPeek();
        byte[] bytes = frame(PKG, PATH, 0.75f);
        assertThat(peek.peek(le(bytes))).isTrue();
        assertThat(peek.ranking()).isEqualTo(0.75f);
        assertThat(text(peek.frame(), peek.packageOffset(), peek.packageLength()))
                .isEqualTo(PKG);
        assertThat(text(peek.frame(), peek.pathOffset(), peek.pathLength())).isEqualTo(PATH);
    }

    @Test
    void aFrameInTheMiddleOfALargerBufferIsReadWhereItIs() {
        byte[] bytes = frame(PKG, PATH, 2.5f);
        byte[] larger = new byte[bytes.length + 40];
        java.util.Arrays.fill(larger, (byte) 0x5a);
        System.arraycopy(bytes, 0, larger, 24, bytes.length);
        ByteBuffer buffer = ByteBuffer.wrap(larger).order(ByteOrder.LITTLE_ENDIAN);
        buffer.position(24).limit(24 + bytes.length);
        ResultPeek peek = new ResultPeek();
        assertThat(peek.peek(buffer)).isTrue();
        assertThat(peek.ranking()).isEqualTo(2.5f);
        assertThat(peek.packageOffset()).isGreaterThanOrEqualTo(24);
        assertThat(text(peek.frame(), peek.packageOffset(), peek.packageLength()))
                .isEqualTo(PKG);
        assertThat(text(peek.frame(), peek.pathOffset(), peek.pathLength())).isEqualTo(PATH);
        // the caller's buffer is left as it was
        assertThat(buffer.position()).isEqualTo(24);
        assertThat(buffer.limit()).isEqualTo(24 + bytes.length);
    }

    @Test
    void aBigEndianBufferIsReadAsLittleEndianWithoutChangingIt() {
        byte[] bytes = frame(PKG, PATH, -3.25f);
        ByteBuffer big = ByteBuffer.wrap(bytes).order(ByteOrder.BIG_ENDIAN);
        ResultPeek peek = new ResultPeek();
        assertThat(peek.peek(big)).isTrue();
        assertThat(peek.ranking()).isEqualTo(-3.25f);
        assertThat(peek.frame().order()).isEqualTo(ByteOrder.LITTLE_ENDIAN);
        assertThat(big.order()).isEqualTo(ByteOrder.BIG_ENDIAN);
        assertThat(text(peek.frame(), peek.pathOffset(), peek.pathLength())).isEqualTo(PATH);
    }

    @Test
    void emptyPackageAndPathHaveLengthZero() {
        ResultPeek peek = new ResultPeek();
        assertThat(peek.peek(le(frame("", "", 1f)))).isTrue();
        assertThat(peek.packageLength()).isZero();
        assertThat(peek.pathLength()).isZero();
    }

    @Test
    void framesShorterThanTheSmallestResultAreNot() {
        byte[] bytes = frame(PKG, PATH, 1f);
        for (int length = 0; length < 32; length++) {
            assertThat(new ResultPeek().peek(le(java.util.Arrays.copyOf(bytes, length))))
                    .as("%d bytes", length)
                    .isFalse();
        }
    }

    @Test
    void aFrameOfMoreThanOneSegmentIsNot() {
        byte[] bytes = frame(PKG, PATH, 1f);
        bytes[0] = 1;
        assertThat(new ResultPeek().peek(le(bytes))).isFalse();
    }

    @Test
    void aSegmentThatRunsPastTheFrameIsNot() {
        byte[] bytes = frame(PKG, PATH, 1f);
        ByteBuffer le = le(bytes);
        int words = le.getInt(4);
        le.putInt(4, words + 1);
        assertThat(new ResultPeek().peek(le(bytes))).isFalse();
        // the frame cut short by a word: same verdict
        le.putInt(4, words);
        assertThat(new ResultPeek().peek(le(java.util.Arrays.copyOf(bytes, bytes.length - 8))))
                .isFalse();
        // a size so large the segment's end wraps around
        le.putInt(4, 0x7fffffff);
        assertThat(new ResultPeek().peek(le(bytes))).isFalse();
    }

    @Test
    void aRootThatIsNotAStructPointerIsNot() {
        byte[] bytes = frame(PKG, PATH, 1f);
        ByteBuffer le = le(bytes);
        le.putLong(8, le.getLong(8) | 1); // a list pointer now
        assertThat(new ResultPeek().peek(le(bytes))).isFalse();
    }

    @Test
    void aRootPointingOutsideTheSegmentIsNot() {
        byte[] bytes = frame(PKG, PATH, 1f);
        ByteBuffer le = le(bytes);
        long root = le.getLong(8);
        le.putLong(8, (root & ~0xfffffffcL) | ((long) (bytes.length / 8) << 2));
        assertThat(new ResultPeek().peek(le(bytes))).isFalse();
        le.putLong(8, (root & ~0xfffffffcL) | (((long) -5 << 2) & 0xfffffffcL));
        assertThat(new ResultPeek().peek(le(bytes))).isFalse();
    }

    @Test
    void aResponseOfAnotherMemberIsNot() {
        byte[] bytes = frame(PKG, PATH, 1f);
        Layout layout = new Layout(bytes);
        ByteBuffer le = le(bytes);
        le.putShort(layout.response, (short) Response.PROGRESS.unionTag());
        assertThat(new ResultPeek().peek(le(bytes))).isFalse();
    }

    @Test
    void aResultWithoutItsDataOrTwoPointersIsNot() {
        byte[] bytes = frame(PKG, PATH, 1f);
        Layout layout = new Layout(bytes);
        ByteBuffer le = le(bytes);
        long pointer = le.getLong(layout.resultPointer);
        long noData = pointer & ~(0xffffL << 32);
        le.putLong(layout.resultPointer, noData);
        assertThat(new ResultPeek().peek(le(bytes))).isFalse();
        long onePointer = (pointer & ~(0xffffL << 48)) | (1L << 48);
        le.putLong(layout.resultPointer, onePointer);
        assertThat(new ResultPeek().peek(le(bytes))).isFalse();
        le.putLong(layout.resultPointer, pointer);
        assertThat(new ResultPeek().peek(le(bytes))).isTrue();
    }

    @Test
    void eachTextMustBeAnInBoundsByteListEndingInNul() {
        for (int which = 0; which < 2; which++) {
            byte[] good = frame(PKG, PATH, 1f);
            int at = new Layout(good).firstText + 8 * which;
            long pointer = le(good).getLong(at);

            // a struct pointer where a list belongs
            assertThat(peekWith(good, at, pointer & ~3L)).isFalse();
            // a list of words, not of bytes
            assertThat(peekWith(good, at, (pointer & ~(7L << 32)) | (5L << 32))).isFalse();
            // a list of bits
            assertThat(peekWith(good, at, (pointer & ~(7L << 32)) | (1L << 32))).isFalse();
            // no bytes at all, not even the NUL
            assertThat(peekWith(good, at, pointer & 0xffffffffL | (2L << 32))).isFalse();
            // longer than the segment
            assertThat(peekWith(good, at, pointer & 0x7ffffffffL | ((long) good.length << 35)))
                    .isFalse();
            // pointing before the segment
            assertThat(peekWith(good, at, (pointer & ~0xfffffffcL) | ((-(at / 8) - 2L << 2) & 0xfffffffcL)))
                    .isFalse();
            // a null pointer is an empty text
            ResultPeek peek = new ResultPeek();
            byte[] nulled = good.clone();
            le(nulled).putLong(at, 0);
            assertThat(peek.peek(le(nulled))).isTrue();
            assertThat(which == 0 ? peek.packageLength() : peek.pathLength()).isZero();
            assertThat(text(peek.frame(), peek.pathOffset(), peek.pathLength())).isEqualTo(which == 0 ? PATH : "");
            assertThat(text(peek.frame(), peek.packageOffset(), peek.packageLength()))
                    .isEqualTo(which == 0 ? "" : PKG);
        }
    }

    @Test
    void structsAfterAGapInTheSegmentAreFoundByTheirPointers() throws Exception {
        byte[] good = frame(PKG, PATH, 4f);
        // a word of padding before the Response struct: the root pointer's offset says 1
        byte[] gapBeforeResponse = withGap(good, 1, 8);
        // a word of padding before the FileMatch struct: Response's pointer to it says 1
        Layout layout = new Layout(good);
        byte[] gapBeforeResult = withGap(good, (layout.result - 8) / 8, layout.resultPointer);
        for (byte[] bytes : new byte[][] {gapBeforeResponse, gapBeforeResult}) {
            assertThat(Messages.response(Framing.read(le(bytes), FrameLimits.DEFAULT))
                            .getFileMatch()
                            .getPath()
                            .toString())
                    .as("the capnp reader agrees the frame is sound")
                    .isEqualTo(PATH);
            ResultPeek peek = new ResultPeek();
            assertThat(peek.peek(le(bytes))).isTrue();
            assertThat(peek.ranking()).isEqualTo(4f);
            assertThat(text(peek.frame(), peek.packageOffset(), peek.packageLength()))
                    .isEqualTo(PKG);
            assertThat(text(peek.frame(), peek.pathOffset(), peek.pathLength())).isEqualTo(PATH);
        }
    }

    @Test
    void aResultPointerOutsideTheSegmentIsNot() {
        byte[] bytes = frame(PKG, PATH, 1f);
        Layout layout = new Layout(bytes);
        ByteBuffer le = le(bytes);
        long pointer = le.getLong(layout.resultPointer);
        le.putLong(layout.resultPointer, (pointer & ~0xfffffffcL) | ((long) (bytes.length / 8) << 2));
        assertThat(new ResultPeek().peek(le(bytes))).isFalse();
    }

    @Test
    void aStructWhoseSizeRunsPastTheSegmentIsNot() {
        for (int shift : new int[] {32, 48}) {
            byte[] bytes = frame(PKG, PATH, 1f);
            ByteBuffer le = le(bytes);
            // the root claims more data words (or pointers) than the segment holds after it
            le.putLong(8, (le.getLong(8) & ~(0xffffL << shift)) | ((long) (bytes.length / 8) << shift));
            assertThat(new ResultPeek().peek(le(bytes))).as("shift %d", shift).isFalse();
        }
    }

    @Test
    void aResultWithJustPackageAndPathIsEnough() {
        byte[] bytes = frame(PKG, PATH, 1f);
        Layout layout = new Layout(bytes);
        ByteBuffer le = le(bytes);
        long pointer = le.getLong(layout.resultPointer);
        le.putLong(layout.resultPointer, (pointer & ~(0xffffL << 48)) | (2L << 48));
        ResultPeek peek = new ResultPeek();
        assertThat(peek.peek(le(bytes))).isTrue();
        assertThat(text(peek.frame(), peek.pathOffset(), peek.pathLength())).isEqualTo(PATH);
    }

    /**
     * {@code bytes} with a zero word inserted before segment word {@code word}; the one pointer
     * that crosses the gap, at byte {@code pointerAt} of the frame, moves its target one word on.
     */
    private static byte[] withGap(byte[] bytes, int word, int pointerAt) {
        int at = 8 + 8 * word;
        byte[] out = new byte[bytes.length + 8];
        System.arraycopy(bytes, 0, out, 0, at);
        System.arraycopy(bytes, at, out, at + 8, bytes.length - at);
        ByteBuffer le = le(out);
        le.putInt(4, le.getInt(4) + 1);
        long pointer = le.getLong(pointerAt);
        int offset = ((int) pointer >> 2) + 1;
        le.putLong(pointerAt, (pointer & ~0xfffffffcL) | (((long) offset << 2) & 0xfffffffcL));
        return out;
    }

    private static boolean peekWith(byte[] good, int at, long pointer) {
        byte[] bytes = good.clone();
        le(bytes).putLong(at, pointer);
        return new ResultPeek().peek(le(bytes));
    }

    /** Where the pieces of a peeked frame are, found by walking its pointers as Cap'n Proto defines them. */
    private static final class Layout {
        final int response;
        final int resultPointer;
        final int result;
        final int firstText;

        Layout(byte[] bytes) {
            ByteBuffer le = le(bytes);
            int base = 8;
            response = target(le, base);
            int responseData = (int) (le.getLong(base) >>> 32) & 0xffff;
            resultPointer = response + 8 * responseData;
            result = target(le, resultPointer);
            int resultData = (int) (le.getLong(resultPointer) >>> 32) & 0xffff;
            firstText = result + 8 * resultData;
        }

        private static int target(ByteBuffer le, int at) {
            return at + 8 + 8 * ((int) le.getLong(at) >> 2);
        }
    }

    private static ByteBuffer le(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static String text(ByteBuffer frame, int offset, int length) {
        byte[] out = new byte[length];
        frame.get(offset, out);
        return new String(out, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
