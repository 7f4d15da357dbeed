package io.trigrep.frontend.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The decrypted records of one read go on as one buffer, in order, each byte once, nothing leaked. */
class ReadBatcherTest {
    static ByteBuf text(String s) {
        return Unpooled.directBuffer().writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theRecordsOfOneReadGoOnAsOneBufferAtReadComplete() {
        EmbeddedChannel channel = new EmbeddedChannel(new ReadBatcher());
        channel.pipeline().fireChannelRead(text("one "));
        channel.pipeline().fireChannelRead(text("two "));
        channel.pipeline().fireChannelRead(text("three"));
        assertThat((Object) channel.readInbound())
                .as("nothing before the read completes")
                .isNull();
        channel.pipeline().fireChannelReadComplete();
        ByteBuf joined = channel.readInbound();
        assertThat(joined.toString(StandardCharsets.UTF_8)).isEqualTo("one two three");
        joined.release();
        assertThat((Object) channel.readInbound()).isNull();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void aReadOfOneRecordPassesOnUncopied() {
        EmbeddedChannel channel = new EmbeddedChannel(new ReadBatcher());
        ByteBuf only = text("only");
        channel.pipeline().fireChannelRead(only);
        channel.pipeline().fireChannelReadComplete();
        ByteBuf out = channel.readInbound();
        assertThat(out).isSameAs(only);
        out.release();
        assertThat(channel.finish()).isFalse();
    }

    @Test
    void whatArrivedBeforeTheConnectionClosedStillGoesOnFirst() {
        EmbeddedChannel channel = new EmbeddedChannel(new ReadBatcher());
        channel.pipeline().fireChannelRead(text("last "));
        channel.pipeline().fireChannelRead(text("words"));
        channel.close();
        ByteBuf out = channel.readInbound();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("last words");
        out.release();
    }

    @Test
    void aBatchLeftWhenTheHandlerGoesIsReleased() {
        ReadBatcher batcher = new ReadBatcher();
        EmbeddedChannel channel = new EmbeddedChannel(batcher);
        ByteBuf first = text("a");
        channel.pipeline().fireChannelRead(first);
        channel.pipeline().remove(batcher);
        assertThat(first.refCnt()).isZero();
    }
}
