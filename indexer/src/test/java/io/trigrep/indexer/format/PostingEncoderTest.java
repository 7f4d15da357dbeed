package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Posting lists byte by byte, against the layout in FORMAT.md: gaps minus one, bit-packed LSB first, a skip table past one block. */
class PostingEncoderTest {
    @TempDir
    Path dir;

    private int files;

    /** Finishes the encoder's list into a scratch file and returns its bytes, checking the count it reports. */
    private byte[] finish(PostingEncoder encoder) throws Exception {
        FormatOutput out = new FormatOutput(dir.resolve("list-" + files++));
        int written = encoder.finish(out);
        FileChannel channel = out.flushedChannel();
        ByteBuffer bytes = ByteBuffer.allocate((int) channel.size());
        channel.read(bytes, 0);
        out.close();
        assertThat(written).isEqualTo(bytes.capacity());
        return bytes.array();
    }

    private byte[] encode(int... docs) throws Exception {
        PostingEncoder encoder = new PostingEncoder();
        for (int doc : docs) {
            encoder.add(doc);
        }
        assertThat(encoder.count()).isEqualTo(docs.length);
        return finish(encoder);
    }

    private static byte[] bytes(int... values) {
        byte[] out = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            out[i] = (byte) values[i];
        }
        return out;
    }

    @Test
    void consecutiveDocsFromZeroAreOneWidthZeroByte() throws Exception {
        assertThat(encode(0)).containsExactly(bytes(0));
        assertThat(encode(0, 1, 2, 3)).containsExactly(bytes(0));
    }

    @Test
    void gapsMinusOneArePackedLowBitsFirst() throws Exception {
        assertThat(encode(5)).containsExactly(bytes(3, 5));
        // gaps 1, 2, 1 in two bits each: 01 | 10 << 2 | 01 << 4
        assertThat(encode(1, 4, 6)).containsExactly(bytes(2, 0b011001));
        // nine values of 7 bits straddle bytes: 63 bits, 8 bytes
        assertThat(encode(IntStream.range(0, 9).map(i -> 128 * i + 127).toArray()))
                .containsExactly(bytes(7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f));
    }

    @Test
    void theWidestGapTakesThirtyOneBits() throws Exception {
        assertThat(encode(Integer.MAX_VALUE - 1)).containsExactly(bytes(31, 0xfe, 0xff, 0xff, 0x7f));
        assertThat(encode(0, Integer.MAX_VALUE - 1)).containsExactly(bytes(31, 0, 0, 0, 0x80, 0xfe, 0xff, 0xff, 0x3f));
    }

    @Test
    void aSecondBlockBringsTheSkipTable() throws Exception {
        byte[] list = encode(IntStream.rangeClosed(0, 129).toArray());
        assertThat(list).containsExactly(bytes(127, 0, 0, 0, 0, 0, 0, 0, 129, 0, 0, 0, 1, 0, 0, 0, 0, 0));
        byte[] exactlyOneBlock = encode(IntStream.range(0, 128).toArray());
        assertThat(exactlyOneBlock).containsExactly(bytes(0));
    }

    @Test
    void theSkipTableRecordsEachBlocksLastDocAndOffset() throws Exception {
        // 40 blocks (the tables grow past their first 16), each of 128 docs 3 apart: width 2, 33 bytes a block.
        int[] docs = IntStream.range(0, 40 * 128).map(i -> 3 * i + 2).toArray();
        ByteBuffer list = ByteBuffer.wrap(encode(docs)).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(list.capacity()).isEqualTo(8 * 40 + 40 * 33);
        for (int b = 0; b < 40; b++) {
            assertThat(list.getInt(8 * b)).isEqualTo(docs[128 * b + 127]);
            assertThat(list.getInt(8 * b + 4)).isEqualTo(33 * b);
            assertThat(list.get(8 * 40 + 33 * b)).isEqualTo((byte) 2);
        }
        // The first gap is 2 (from -1), every other gap 2 too: all values are binary 10.
        assertThat(list.get(8 * 40 + 1)).isEqualTo((byte) 0b10101010);
        PostingIterator it = new PostingIterator().reset(list, docs.length, docs[docs.length - 1] + 1, dir, 0);
        for (int doc : docs) {
            assertThat(it.next()).isEqualTo(doc);
        }
        assertThat(it.next()).isEqualTo(PostingIterator.NO_MORE_DOCS);
    }

    @Test
    void finishResetsForTheNextList() throws Exception {
        PostingEncoder encoder = new PostingEncoder();
        for (int doc = 0; doc < 300; doc += 2) {
            encoder.add(doc);
        }
        assertThat(finish(encoder)).hasSize(8 * 2 + 1 + 16 + 1 + 3);
        assertThat(encoder.count()).isZero();
        encoder.add(0);
        encoder.add(2);
        assertThat(encoder.count()).isEqualTo(2);
        assertThat(finish(encoder)).containsExactly(bytes(1, 0b10));
        assertThat(finish(encoder)).isEmpty();
    }

    @Test
    void docsThatDoNotIncreaseAreRefused() {
        PostingEncoder encoder = new PostingEncoder();
        assertThatThrownBy(() -> encoder.add(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("doc ids must increase: -1 after -1");
        encoder.add(3);
        assertThatThrownBy(() -> encoder.add(3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("doc ids must increase: 3 after 3");
        assertThat(encoder.count()).isEqualTo(1);
    }

    @Test
    void aLastBlockThatJustOverflowsTheBufferGrowsIt() throws Exception {
        // 30 blocks of 33 bytes, then 53 gaps of 5 bits: 990 + 1 + 34 bytes, one past the first 1024.
        int[] docs = new int[30 * 128 + 53];
        for (int i = 0; i < 30 * 128; i++) {
            docs[i] = 3 * i + 2;
        }
        for (int i = 30 * 128; i < docs.length; i++) {
            docs[i] = docs[i - 1] + 17;
        }
        ByteBuffer list = ByteBuffer.wrap(encode(docs)).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(list.capacity()).isEqualTo(31 * 8 + 30 * 33 + 1 + 34);
        assertThat(list.get(31 * 8 + 30 * 33)).isEqualTo((byte) 5);
        PostingIterator it = new PostingIterator().reset(list, docs.length, docs[docs.length - 1] + 1, dir, 0);
        for (int doc : docs) {
            assertThat(it.next()).isEqualTo(doc);
        }
        assertThat(it.next()).isEqualTo(PostingIterator.NO_MORE_DOCS);
    }
}
