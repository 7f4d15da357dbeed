package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.trigrep.proto.Values.ProgressValue;
import io.trigrep.proto.Values.RangeValue;
import io.trigrep.proto.Values.ResultValue;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.capnproto.MessageBuilder;
import org.junit.jupiter.api.Test;

/** Frames through channels that move a few bytes at a time, and decoders after the stream went wrong. */
class FramingStreamsTest {
    /** A channel that takes or gives at most {@code step} bytes per call, as sockets may. */
    private static final class Trickle implements WritableByteChannel, ReadableByteChannel {
        final ByteArrayOutputStream written = new ByteArrayOutputStream();
        final ByteBuffer toRead;
        final int step;

        Trickle(int step, byte[] toRead) {
            this.step = step;
            this.toRead = ByteBuffer.wrap(toRead);
        }

        @Override
        public int write(ByteBuffer src) {
            int n = Math.min(step, src.remaining());
            for (int i = 0; i < n; i++) {
                written.write(src.get());
            }
            return n;
        }

        @Override
        public int read(ByteBuffer dst) {
            if (!toRead.hasRemaining()) {
                return -1;
            }
            int n = Math.min(step, Math.min(dst.remaining(), toRead.remaining()));
            for (int i = 0; i < n; i++) {
                dst.put(toRead.get());
            }
            return n;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {}
    }

    private static ResultValue large() {
        return new ResultValue(
                "multi",
                "segment.c",
                7,
                Collections.nCopies(30, "before line"),
                "the matching line",
                Collections.nCopies(30, "after line"),
                List.of(new RangeValue(4, 12)),
                3.5f);
    }

    private static byte[] framed(Object value) {
        ByteBuf buf = Unpooled.buffer();
        Framing.write(Values.write(value), buf);
        byte[] bytes = ByteBufUtil.getBytes(buf);
        buf.release();
        return bytes;
    }

    @Test
    void limitsAreCheckedWhenMade() {
        assertThat(new FrameLimits(1, 16)).isEqualTo(new FrameLimits(1, 16));
        assertThat(new FrameLimits(1 << 16, Integer.MAX_VALUE).maxSegments()).isEqualTo(65536);
        for (int[] bad : new int[][] {{0, 16}, {-1, 16}, {(1 << 16) + 1, 16}, {1, 15}, {1, 0}}) {
            assertThatThrownBy(() -> new FrameLimits(bad[0], bad[1]))
                    .as("limits %d, %d", bad[0], bad[1])
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void aFrameIsTheSameBytesAndSizeThroughABufferAndThroughAChannelThatTakesFiveBytesAtATime() throws Exception {
        Set<Integer> segmentCounts = new TreeSet<>();
        for (int firstWords = 1; firstWords <= 64; firstWords *= 2) {
            MessageBuilder message = Values.write(large(), new MessageBuilder(firstWords));
            segmentCounts.add(message.getSegmentsForOutput().length);
            ByteBuf buf = Unpooled.buffer();
            Framing.write(message, buf);
            byte[] viaBuffer = ByteBufUtil.getBytes(buf);
            buf.release();
            Trickle channel = new Trickle(5, new byte[0]);
            long written = Framing.write(message, channel);
            assertThat(written).as("first segment of %d words", firstWords).isEqualTo(viaBuffer.length);
            assertThat(Framing.frameBytes(message)).isEqualTo(viaBuffer.length);
            assertThat(channel.written.toByteArray()).isEqualTo(viaBuffer);
            assertThat(Framing.frameLength(ByteBuffer.wrap(viaBuffer), FrameLimits.DEFAULT))
                    .isEqualTo(viaBuffer.length);
            assertThat(Values.read(Messages.response(Framing.read(ByteBuffer.wrap(viaBuffer), FrameLimits.DEFAULT))))
                    .isEqualTo(large());
        }
        assertThat(segmentCounts)
                .as("both paddings of the segment table")
                .anyMatch(n -> n % 2 == 0)
                .anyMatch(n -> n % 2 == 1);
    }

    @Test
    void aStreamReadsBackFrameByFrameAByteAtATimeAndEndsCleanlyOnlyBetweenFrames() throws Exception {
        byte[] one = framed(new ProgressValue(1, 2, 3, 4));
        byte[] two = framed(large());
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        both.write(one);
        both.write(two);
        Trickle channel = new Trickle(1, both.toByteArray());
        assertThat(bytes(Framing.readFrame(channel, FrameLimits.DEFAULT))).isEqualTo(one);
        assertThat(bytes(Framing.readFrame(channel, FrameLimits.DEFAULT))).isEqualTo(two);
        assertThat(Framing.readFrame(channel, FrameLimits.DEFAULT))
                .as("a clean end")
                .isNull();
        assertThat(Framing.readFrame(new Trickle(3, new byte[0]), FrameLimits.DEFAULT))
                .isNull();

        ByteBuf multi = Unpooled.buffer();
        Framing.write(Values.write(large(), new MessageBuilder(2)), multi);
        byte[] many = ByteBufUtil.getBytes(multi);
        multi.release();
        // cut inside the first eight bytes, inside the rest of the segment table, inside the body
        for (int cut : new int[] {3, 7, 12, many.length - 1}) {
            byte[] head = java.util.Arrays.copyOf(many, cut);
            assertThatThrownBy(() -> Framing.readFrame(new Trickle(2, head), FrameLimits.DEFAULT))
                    .as("cut at %d", cut)
                    .isInstanceOf(EOFException.class);
        }
        assertThat(bytes(Framing.readFrame(new Trickle(2, many), FrameLimits.DEFAULT)))
                .isEqualTo(many);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    private static List<Object> drain(EmbeddedChannel channel) {
        List<Object> out = new ArrayList<>();
        for (Object o; (o = channel.readInbound()) != null; ) {
            out.add(o);
        }
        return out;
    }

    private static byte[] hostileTable() {
        return ByteBuffer.allocate(8)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .putInt(Integer.MAX_VALUE)
                .putInt(1)
                .array();
    }

    @Test
    void theFrameDecoderReportsOneMalformedTableAndDiscardsEverythingAfter() {
        byte[] good = framed(new ProgressValue(1, 2, 3, 4));
        EmbeddedChannel channel = new EmbeddedChannel(new FrameDecoder(FrameLimits.DEFAULT));
        channel.writeInbound(Unpooled.wrappedBuffer(good));
        channel.writeInbound(Unpooled.wrappedBuffer(hostileTable()));
        ByteBuf later = Unpooled.wrappedBuffer(good);
        channel.writeInbound(later.retain());
        channel.finish();
        List<Object> out = drain(channel);
        assertThat(out).hasSize(2);
        ByteBuf first = (ByteBuf) out.get(0);
        assertThat(ByteBufUtil.getBytes(first)).isEqualTo(good);
        first.release();
        assertThat(out.get(1)).isInstanceOf(MalformedFrame.class);
        assertThat(later.refCnt()).as("the bytes after were released unread").isEqualTo(1);
        later.release();
    }

    @Test
    void theFrameDecoderSaysNothingAtAnEndBetweenFramesAndReportsAnEndInsideOne() {
        byte[] good = framed(new ProgressValue(1, 2, 3, 4));
        EmbeddedChannel clean = new EmbeddedChannel(new FrameDecoder(FrameLimits.DEFAULT));
        clean.writeInbound(Unpooled.wrappedBuffer(good));
        clean.finish();
        List<Object> out = drain(clean);
        assertThat(out).hasSize(1).first().isInstanceOf(ByteBuf.class);
        ((ByteBuf) out.get(0)).release();

        EmbeddedChannel cut = new EmbeddedChannel(new FrameDecoder(FrameLimits.DEFAULT));
        cut.writeInbound(Unpooled.wrappedBuffer(good, 0, 5));
        cut.finish();
        assertThat(drain(cut)).singleElement().isInstanceOf(MalformedFrame.class);
    }

    @Test
    void theRunDecoderPassesOtherMessagesOnAndDropsEveryReadAfterAMalformedTable() {
        byte[] good = framed(new ProgressValue(1, 2, 3, 4));
        EmbeddedChannel channel = new EmbeddedChannel(new FrameRunDecoder(FrameLimits.DEFAULT));
        channel.writeInbound("not bytes");
        channel.writeInbound(Unpooled.EMPTY_BUFFER);
        ByteBuf cutTable = Unpooled.buffer().writeIntLE(Integer.MAX_VALUE).writeByte(1);
        channel.writeInbound(Unpooled.wrappedBuffer(good), cutTable);
        // the carry holds 5 bytes of a table; completing it shows the segment count is hostile
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {0, 0, 0}));
        ByteBuf later = Unpooled.wrappedBuffer(good);
        channel.writeInbound(later);
        channel.finish();
        List<Object> out = drain(channel);
        assertThat(out).hasSize(3);
        assertThat(out.get(0)).isEqualTo("not bytes");
        ByteBuf run = (ByteBuf) out.get(1);
        assertThat(ByteBufUtil.getBytes(run)).isEqualTo(good);
        run.release();
        assertThat(out.get(2)).isInstanceOf(MalformedFrame.class);
        assertThat(later.refCnt()).as("dropped and released").isZero();
    }

    @Test
    void theRunDecoderCompletesACarriedFrameAByteAtATimeAndPassesItOnAlone() {
        ByteBuf multi = Unpooled.buffer();
        Framing.write(Values.write(large(), new MessageBuilder(2)), multi);
        byte[] a = ByteBufUtil.getBytes(multi); // a segment table of several words: carried across its own reads too
        multi.release();
        assertThat(Framing.tableBytes(ByteBuffer.wrap(a)
                                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                                .getInt(0)
                        + 1))
                .isGreaterThan(16);
        byte[] b = framed(large());
        byte[] stream = new byte[a.length + b.length];
        System.arraycopy(a, 0, stream, 0, a.length);
        System.arraycopy(b, 0, stream, a.length, b.length);
        RecordingAllocator alloc = new RecordingAllocator();
        EmbeddedChannel channel = new EmbeddedChannel(new FrameRunDecoder(FrameLimits.DEFAULT));
        channel.config().setAllocator(alloc);
        channel.writeInbound(Unpooled.wrappedBuffer(stream, 0, 3));
        for (int i = 3; i < a.length + 2; i++) {
            channel.writeInbound(Unpooled.wrappedBuffer(stream, i, 1));
        }
        channel.writeInbound(Unpooled.wrappedBuffer(stream, a.length + 2, b.length - 2));
        channel.finish();
        List<Object> out = drain(channel);
        assertThat(out).hasSize(2);
        ByteBuf first = (ByteBuf) out.get(0);
        ByteBuf second = (ByteBuf) out.get(1);
        assertThat(ByteBufUtil.getBytes(first))
                .as("the carried frame, not a byte of the next")
                .isEqualTo(a);
        assertThat(ByteBufUtil.getBytes(second)).isEqualTo(b);
        first.release();
        second.release();
        assertThat(alloc.made).isNotEmpty().allMatch(made -> made.refCnt() == 0);
    }

    @Test
    void aCarryIsReleasedWhenTheStreamEndsFailsOrTheDecoderIsRemoved() {
        byte[] good = framed(new ProgressValue(1, 2, 3, 4));
        for (String how : new String[] {"end", "malformed", "removed"}) {
            RecordingAllocator alloc = new RecordingAllocator();
            FrameRunDecoder decoder = new FrameRunDecoder(FrameLimits.DEFAULT);
            EmbeddedChannel channel = new EmbeddedChannel(decoder);
            channel.config().setAllocator(alloc);
            // a frame cut near its end; for "malformed", a hostile segment table cut inside its count
            channel.writeInbound(
                    how.equals("malformed")
                            ? Unpooled.wrappedBuffer(hostileTable(), 0, 3)
                            : Unpooled.wrappedBuffer(good, 0, good.length - 2));
            assertThat(alloc.made).as(how).hasSize(1).allMatch(made -> made.refCnt() == 1);
            switch (how) {
                case "end" -> channel.finish();
                case "malformed" -> channel.writeInbound(Unpooled.wrappedBuffer(hostileTable(), 3, 5));
                default -> channel.pipeline().remove(decoder);
            }
            assertThat(alloc.made).as("carry after %s", how).allMatch(made -> made.refCnt() == 0);
            List<Object> out = drain(channel);
            if (!how.equals("removed")) {
                assertThat(out).as(how).singleElement().isInstanceOf(MalformedFrame.class);
            }
            channel.finishAndReleaseAll();
        }
    }

    @Test
    void theRunDecoderReportsAnEndInsideAFrameOnceAndNothingAfterAMalformedTable() {
        byte[] good = framed(new ProgressValue(1, 2, 3, 4));
        EmbeddedChannel failed = new EmbeddedChannel(new FrameRunDecoder(FrameLimits.DEFAULT));
        failed.writeInbound(Unpooled.wrappedBuffer(hostileTable()));
        failed.finish();
        assertThat(drain(failed)).singleElement().isInstanceOf(MalformedFrame.class);

        EmbeddedChannel clean = new EmbeddedChannel(new FrameRunDecoder(FrameLimits.DEFAULT));
        clean.writeInbound(Unpooled.wrappedBuffer(good));
        clean.finish();
        List<Object> out = drain(clean);
        assertThat(out).singleElement().isInstanceOf(ByteBuf.class);
        ((ByteBuf) out.get(0)).release();
    }
}
