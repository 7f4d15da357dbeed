package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.trigrep.proto.Values.FailureValue;
import io.trigrep.proto.Values.FetchValue;
import io.trigrep.proto.Values.FileValue;
import io.trigrep.proto.Values.FilterValue;
import io.trigrep.proto.Values.RangeValue;
import io.trigrep.proto.Values.ResultValue;
import io.trigrep.proto.Values.SearchValue;
import io.trigrep.proto.Values.SkippedValue;
import io.trigrep.proto.Values.StatusValue;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

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
        new ResultWriter(0)
                .start("pkg".getBytes(StandardCharsets.UTF_8), "a/b.c".getBytes(StandardCharsets.UTF_8), source, 3, 1f)
                .match(0, line.length)
                .range(0, 3)
                .writeTo(out);
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
        assertThat(original & 3)
                .as("%s is a list pointer where the layout says", field)
                .isEqualTo(1);
        assertThat(Messages.response(Framing.read(ByteBuffer.wrap(bytes), FrameLimits.DEFAULT))
                        .which())
                .isEqualTo(Response.Which.RESULT);
        // 16 bytes from the word before the segment: the NUL is the root pointer's top byte, which is zero.
        assertThat(bytes[TABLE + 7]).isZero();
        long offset = -1 - (word + 1);
        le.putLong(TABLE + 8 * word, 1L | 2L << 32 | 16L << 35 | (offset << 2 & 0xffffffffL));
        assertThatThrownBy(() -> Messages.response(Framing.read(ByteBuffer.wrap(bytes), FrameLimits.DEFAULT)))
                .isInstanceOf(MalformedMessageException.class)
                .cause()
                .isInstanceOf(IndexOutOfBoundsException.class);
    }

    static Stream<Arguments> blobs() {
        SearchValue search = new SearchValue(
                "the-query",
                "the-pattern",
                false,
                false,
                List.of(new FilterValue(Filter.Kind.PATH, false, "filter-value")),
                10,
                1000,
                2);
        ResultValue result = new ResultValue(
                "pkg",
                "a/b.c",
                3,
                List.of("a-line-before"),
                "two",
                List.of("a-line-after"),
                List.of(new RangeValue(0, 3)),
                1f);
        StatusValue status = new StatusValue("shard-name", 1, 2, 0, 1, List.of(new SkippedValue("skip-reason", 3, 4)));
        FileValue file = new FileValue("file-pkg", "file-path", "file-content".getBytes(StandardCharsets.UTF_8));
        return Stream.of(
                Arguments.of(new FetchValue("fetch-pkg", "fetch-path"), "fetch-pkg", true),
                Arguments.of(new FetchValue("fetch-pkg", "fetch-path"), "fetch-path", true),
                Arguments.of(search, "the-query", true),
                Arguments.of(search, "the-pattern", true),
                Arguments.of(search, "filter-value", true),
                Arguments.of(result, "a-line-before", true),
                Arguments.of(result, "a-line-after", true),
                Arguments.of(new FailureValue(Failure.Code.BAD_QUERY, "error-message", 0), "error-message", true),
                Arguments.of(file, "file-pkg", true),
                Arguments.of(file, "file-path", true),
                Arguments.of(file, "file-content", false),
                Arguments.of(status, "shard-name", true),
                Arguments.of(status, "skip-reason", true));
    }

    /**
     * The same for every text and data field validation reads: the pointer to {@code blob} (found by
     * its bytes) is aimed at 16 bytes starting a word before the segment.
     */
    @ParameterizedTest(name = "{1}")
    @MethodSource("blobs")
    void everyBlobStartingBeforeItsSegmentIsRefusedByValidation(Object value, String blob, boolean text)
            throws Exception {
        ByteBuf buf = Unpooled.buffer();
        Framing.write(Values.write(value), buf);
        byte[] bytes = ByteBufUtil.getBytes(buf);
        buf.release();
        ByteBuffer le = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(le.getInt(0)).as("one segment").isZero();
        boolean request = RoundTripTest.isRequest(value);
        assertThat(RoundTripTest.readBack(ByteBuffer.wrap(bytes), request)).isEqualTo(value);
        byte[] want = blob.getBytes(StandardCharsets.UTF_8);
        int words = le.getInt(4);
        int found = -1;
        for (int w = 0; w < words; w++) {
            long p = le.getLong(TABLE + 8 * w);
            int target = w + 1 + ((int) p >> 2);
            if ((p & 3) != 1
                    || (p >>> 32 & 7) != 2
                    || (p >>> 35) != want.length + (text ? 1 : 0)
                    || target < 0
                    || target >= words) {
                continue;
            }
            if (java.util.Arrays.equals(
                    bytes, TABLE + 8 * target, TABLE + 8 * target + want.length, want, 0, want.length)) {
                found = w;
            }
        }
        assertThat(found).as("the pointer to %s", blob).isNotNegative();
        assertThat(bytes[TABLE + 7]).isZero();
        long offset = -1 - (found + 1);
        le.putLong(TABLE + 8 * found, 1L | 2L << 32 | 16L << 35 | (offset << 2 & 0xffffffffL));
        var message = Framing.read(ByteBuffer.wrap(bytes), FrameLimits.DEFAULT);
        assertThatThrownBy(() -> {
                    if (request) {
                        Messages.request(message);
                    } else {
                        Messages.response(message);
                    }
                })
                .isInstanceOf(MalformedMessageException.class)
                .cause()
                .isInstanceOf(IndexOutOfBoundsException.class);
    }
}
