package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A text whose NUL lies inside its segment but whose start lies before it: the Cap'n Proto runtime
 * accepts it (it checks only the NUL), so validation must refuse it up front, or the consumer's
 * first read of the field would fail instead.
 */
class TextSpanTest {
    /** Frame bytes before the segment (its table), and the Result's first pointer word (see ResultWriter's layout). */
    private static final int TABLE = 8;
    private static final int FIRST_POINTER_WORD = 5;

    private static byte[] result() {
        byte[] line = "int main(void) {".getBytes(StandardCharsets.UTF_8);
        ByteBuf source = Unpooled.wrappedBuffer(line);
        ByteBuf out = Unpooled.buffer();
        new ResultWriter(0).start("pkg".getBytes(StandardCharsets.UTF_8), "a/b.c".getBytes(StandardCharsets.UTF_8), source, 3, 1f)
                .match(0, line.length).range(0, 3).writeTo(out);
        byte[] bytes = ByteBufUtil.getBytes(out);
        out.release();
        source.release();
        return bytes;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"package, 0", "path, 1", "context, 3"})
    void aTextStartingBeforeItsSegmentIsRefusedByValidation(String field, int pointer) throws Exception {
        byte[] bytes = result();
        ByteBuffer le = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int word = FIRST_POINTER_WORD + pointer;
        long original = le.getLong(TABLE + 8 * word);
        assertThat(original & 3).as("%s is a list pointer where the layout says", field).isEqualTo(1);
        assertThat(Messages.response(Framing.read(ByteBuffer.wrap(bytes), FrameLimits.DEFAULT)).which()).isEqualTo(Response.Which.RESULT);
        // 16 bytes from the word before the segment: the NUL is the root pointer's top byte, which is zero.
        assertThat(bytes[TABLE + 7]).isZero();
        long offset = -1 - (word + 1);
        le.putLong(TABLE + 8 * word, 1L | 2L << 32 | 16L << 35 | (offset << 2 & 0xffffffffL));
        assertThatThrownBy(() -> Messages.response(Framing.read(ByteBuffer.wrap(bytes), FrameLimits.DEFAULT)))
                .isInstanceOf(MalformedMessageException.class).cause().isInstanceOf(IndexOutOfBoundsException.class);
    }
}
