package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every scalar field set to a value other than its default survives the wire (a setter that
 * wrote nothing would read back the default), and a union read as a member it does not hold fails.
 */
class AccessorTest {
    private static FramedMessage framed(Consumer<MessageBuilder> fill) throws MalformedMessageException {
        MessageBuilder message = Messages.newBuilder();
        fill.accept(message);
        ByteBuf buf = Unpooled.buffer();
        try {
            Framing.write(message, buf);
            return Framing.read(ByteBuffer.wrap(ByteBufUtil.getBytes(buf)), FrameLimits.DEFAULT);
        } finally {
            buf.release();
        }
    }

    private static Response.Reader response(Consumer<Response.Builder> fill) throws MalformedMessageException {
        return Messages.response(framed(m -> fill.accept(m.initRoot(Response.factory))));
    }

    @Test
    void fetchFileCarriesEveryWindowField() throws Exception {
        Request.Reader request = Messages.request(framed(m -> m.initRoot(Request.factory)
                .initFetchFile()
                .setPackage("zlib")
                .setPath("a.c")
                .setFirstLine(17)
                .setMaxLines(300)
                .setMaxLineBytes(4096)
                .setByteOffset(5_000_000_000L)
                .setByteCount(65536)));
        FetchFile.Reader fetch = request.getFetchFile();
        assertThat(fetch.getFirstLine()).isEqualTo(17);
        assertThat(fetch.getMaxLines()).isEqualTo(300);
        assertThat(fetch.getMaxLineBytes()).isEqualTo(4096);
        assertThat(fetch.getByteOffset()).isEqualTo(5_000_000_000L);
        assertThat(fetch.getByteCount()).isEqualTo(65536);
    }

    @Test
    void fileCarriesItsPlaceInTheWholeFile() throws Exception {
        File.Reader file = response(r -> {
                    File.Builder b = r.initFile()
                            .setPackage("zlib")
                            .setPath("a.c")
                            .setFirstLine(40)
                            .setTotalLines(1200)
                            .setTotalBytes(7_000_000_000L);
                    b.setContent(new byte[] {'x', '\n'});
                })
                .getFile();
        assertThat(file.getFirstLine()).isEqualTo(40);
        assertThat(file.getTotalLines()).isEqualTo(1200);
        assertThat(file.getTotalBytes()).isEqualTo(7_000_000_000L);
    }

    @Test
    void resultCarriesWhereItsContextStartsAndItsLineLength() throws Exception {
        Result.Reader result = response(r -> r.initResult()
                        .setPackage("p")
                        .setPath("a.c")
                        .setLine(3)
                        .setContext("abc")
                        .setContextStart(12)
                        .setLineBytes(345))
                .getResult();
        assertThat(result.getContextStart()).isEqualTo(12);
        assertThat(result.getLineBytes()).isEqualTo(345);
    }

    @Test
    void statusCarriesItsGenerationAndDoneItsFullScan() throws Exception {
        assertThat(response(r -> r.initStatus().setShard("s").setGeneration(1796068555139L))
                        .getStatus()
                        .getGeneration())
                .isEqualTo(1796068555139L);
        assertThat(response(r -> r.initDone().setFullScan(true)).getDone().getFullScan())
                .isTrue();
    }

    static Stream<Arguments> wrongMembers() {
        Stream.Builder<Arguments> out = Stream.builder();
        Function<Response.Reader, Object>[] getters = getters();
        for (Response.Which held : new Response.Which[] {Response.Which.RESULT, Response.Which.DONE}) {
            for (int i = 0; i < getters.length; i++) {
                Response.Which asked = Response.Which.values()[i];
                if (asked != held) {
                    out.add(Arguments.of(held, asked, getters[i]));
                }
            }
        }
        return out.build();
    }

    @SuppressWarnings("unchecked")
    private static Function<Response.Reader, Object>[] getters() {
        return new Function[] {
            (Function<Response.Reader, Object>) Response.Reader::getResult,
            (Function<Response.Reader, Object>) Response.Reader::getProgress,
            (Function<Response.Reader, Object>) Response.Reader::getDone,
            (Function<Response.Reader, Object>) Response.Reader::getError,
            (Function<Response.Reader, Object>) Response.Reader::getFile,
            (Function<Response.Reader, Object>) Response.Reader::getStatus
        };
    }

    @ParameterizedTest(name = "{1} of a {0}")
    @MethodSource("wrongMembers")
    void readingAMemberTheUnionDoesNotHoldFails(
            Response.Which held, Response.Which asked, Function<Response.Reader, Object> getter) throws Exception {
        Response.Reader response = response(r -> {
            if (held == Response.Which.RESULT) {
                r.initResult().setPackage("p");
            } else {
                r.initDone().setResults(1);
            }
        });
        assertThatThrownBy(() -> getter.apply(response))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Response holds " + held + ", not " + asked);
    }
}
