package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.trigrep.proto.Values.ResultValue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/** The ingest peek reads the same ranking, package and path as the full reader, and never reads outside a frame. */
class ResultPeekTest {
    static ByteBuffer frameOf(ByteBuf buf) {
        return ByteBuffer.wrap(ByteBufUtil.getBytes(buf)).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Property(tries = 300)
    void peekAgreesWithTheReader(@ForAll @From(supplier = Results.class) ResultValue value) throws Exception {
        for (boolean viaWriter : new boolean[] {true, false}) {
            ByteBuf buf = viaWriter ? ResultWriterTest.write(value) : Unpooled.buffer();
            if (!viaWriter) {
                Framing.write(Values.write(value), buf);
            }
            ByteBuffer frame = frameOf(buf);
            buf.release();
            ResultPeek peek = new ResultPeek();
            if (frame.getInt(0) != 0) {
                // A builder that outgrew its first segment: not a layout peek accepts.
                assertThat(peek.peek(frame)).isFalse();
                continue;
            }
            assertThat(peek.peek(frame)).isTrue();
            assertThat(peek.ranking()).isEqualTo(value.ranking());
            assertThat(string(frame, peek.packageOffset(), peek.packageLength()))
                    .isEqualTo(value.pkg());
            assertThat(string(frame, peek.pathOffset(), peek.pathLength())).isEqualTo(value.path());
        }
    }

    @Test
    void otherMessagesAreNotResults() {
        ByteBuf buf = Unpooled.buffer();
        Framing.write(Values.write(new Values.ProgressValue(1, 2, 3, 4)), buf);
        assertThat(new ResultPeek().peek(frameOf(buf))).isFalse();
        buf.release();
    }

    @Property(tries = 1000)
    void mutatedFramesNeverReadOutside(@ForAll @From(supplier = Results.class) ResultValue value, @ForAll int[] flips) {
        ByteBuf buf = ResultWriterTest.write(value);
        byte[] bytes = ByteBufUtil.getBytes(buf);
        buf.release();
        for (int i = 0; i + 1 < flips.length; i += 2) {
            bytes[Math.floorMod(flips[i], bytes.length)] ^= (byte) flips[i + 1];
        }
        ByteBuffer frame = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        ResultPeek peek = new ResultPeek();
        if (peek.peek(frame)) {
            assertThat(peek.packageOffset() + peek.packageLength()).isLessThanOrEqualTo(bytes.length);
            assertThat(peek.pathOffset() + peek.pathLength()).isLessThanOrEqualTo(bytes.length);
            assertThat(peek.packageOffset()).isGreaterThanOrEqualTo(0);
            assertThat(peek.pathOffset()).isGreaterThanOrEqualTo(0);
        }
    }

    static String string(ByteBuffer frame, int offset, int length) {
        byte[] out = new byte[length];
        frame.get(offset, out);
        return new String(out, StandardCharsets.UTF_8);
    }

    static final class Results implements net.jqwik.api.ArbitrarySupplier<ResultValue> {
        @Override
        public net.jqwik.api.Arbitrary<ResultValue> get() {
            return new ResultWriterTest().results();
        }
    }
}
