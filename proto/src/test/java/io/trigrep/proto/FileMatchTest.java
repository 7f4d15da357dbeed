package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.StringLength;

/** A file match, written as the backend writes it, travels as a Response member of its own, and the ingest peek sorts it as it sorts line results. */
class FileMatchTest {
    @Property(tries = 200)
    void roundTripsAndPeeksLikeAResult(
            @ForAll @StringLength(max = 300) String pkg,
            @ForAll @StringLength(max = 600) String path,
            @ForAll float ranking,
            @ForAll long bytes,
            @ForAll @StringLength(max = 20) String language)
            throws Exception {
        ByteBuf buf = Unpooled.buffer();
        FileMatch.write(buf, utf8(pkg), utf8(path), ranking, bytes, utf8(language));
        ByteBuffer frame = ResultPeekTest.frameOf(buf);
        buf.release();
        assertThat(frame.getInt(0)).as("segments - 1").isZero();

        Response.Reader response = Messages.response(Framing.read(frame.duplicate(), FrameLimits.DEFAULT));
        assertThat(response.which()).isEqualTo(Response.Which.FILE_MATCH);
        FileMatch.Reader file = response.getFileMatch();
        assertThat(file.getPackage().toString()).isEqualTo(pkg);
        assertThat(file.getPath().toString()).isEqualTo(path);
        assertThat(file.getRanking()).isEqualTo(ranking);
        assertThat(file.getBytes()).isEqualTo(bytes);
        assertThat(file.getLanguage().toString()).isEqualTo(language);

        ResultPeek peek = new ResultPeek();
        assertThat(peek.peek(frame)).isTrue();
        assertThat(peek.ranking()).isEqualTo(ranking);
        assertThat(ResultPeekTest.string(frame, peek.packageOffset(), peek.packageLength()))
                .isEqualTo(pkg);
        assertThat(ResultPeekTest.string(frame, peek.pathOffset(), peek.pathLength()))
                .isEqualTo(path);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
