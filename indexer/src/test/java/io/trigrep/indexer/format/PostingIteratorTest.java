package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Decoding posting lists: next, advance over the skip table, reuse, and each check a damaged list fails. */
class PostingIteratorTest {
    static final int NO_MORE = PostingIterator.NO_MORE_DOCS;
    static final Path FILE = Path.of("shard-9", "trigrams.tgi");

    @TempDir
    Path dir;

    private int files;

    private static ByteBuffer list(int... bytes) {
        ByteBuffer list = ByteBuffer.allocate(bytes.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int b : bytes) {
            list.put((byte) b);
        }
        return list.clear();
    }

    /** The list PostingEncoder writes for {@code docs}. */
    private ByteBuffer encoded(int... docs) throws Exception {
        PostingEncoder encoder = new PostingEncoder();
        for (int doc : docs) {
            encoder.add(doc);
        }
        FormatOutput out = new FormatOutput(dir.resolve("list-" + files++));
        encoder.finish(out);
        FileChannel channel = out.flushedChannel();
        ByteBuffer bytes = ByteBuffer.allocate((int) channel.size()).order(ByteOrder.LITTLE_ENDIAN);
        channel.read(bytes, 0);
        out.close();
        return bytes.clear();
    }

    /** Three blocks: 0..127, 1000..1127, 5000..5049. */
    private ByteBuffer threeBlocks() throws Exception {
        return encoded(IntStream.concat(
                        IntStream.concat(IntStream.range(0, 128), IntStream.range(1000, 1128)),
                        IntStream.range(5000, 5050))
                .toArray());
    }

    private static CorruptIndexException drain(PostingIterator it) {
        try {
            while (it.next() != NO_MORE) {
                // reading until the damage is met
            }
        } catch (CorruptIndexException e) {
            return e;
        }
        throw new AssertionError("the list decoded without error");
    }

    @Test
    void nextWalksTheListThenStaysAtTheEnd() throws Exception {
        PostingIterator it = new PostingIterator().reset(list(2, 0b011001), 3, 7, FILE, 0);
        assertThat(it.docId()).isEqualTo(-1);
        assertThat(it.cost()).isEqualTo(3);
        assertThat(it.next()).isEqualTo(1);
        assertThat(it.docId()).isEqualTo(1);
        assertThat(it.next()).isEqualTo(4);
        assertThat(it.next()).isEqualTo(6);
        assertThat(it.next()).isEqualTo(NO_MORE);
        assertThat(it.next()).isEqualTo(NO_MORE);
        assertThat(it.docId()).isEqualTo(NO_MORE);
    }

    @Test
    void advanceWithinOneBlock() throws Exception {
        PostingIterator it = new PostingIterator().reset(list(2, 0b011001), 3, 7, FILE, 0);
        assertThat(it.advance(0)).isEqualTo(1);
        assertThat(it.advance(1)).isEqualTo(1);
        assertThat(it.advance(2)).isEqualTo(4);
        assertThat(it.advance(6)).isEqualTo(6);
        assertThat(it.advance(7)).isEqualTo(NO_MORE);
        assertThat(it.next()).isEqualTo(NO_MORE);
    }

    @Test
    void advanceJumpsToTheBlockWhoseLastDocReachesTheTarget() throws Exception {
        ByteBuffer list = threeBlocks();
        PostingIterator it = new PostingIterator().reset(list, 306, 5050, FILE, 0);
        assertThat(it.cost()).isEqualTo(306);
        assertThat(it.advance(127)).isEqualTo(127);
        assertThat(it.advance(128)).isEqualTo(1000);
        assertThat(it.next()).isEqualTo(1001);
        assertThat(it.advance(1127)).isEqualTo(1127);
        assertThat(it.advance(1128)).isEqualTo(5000);
        assertThat(it.advance(5049)).isEqualTo(5049);
        assertThat(it.next()).isEqualTo(NO_MORE);

        it.reset(list, 306, 5050, FILE, 0);
        assertThat(it.advance(1050)).isEqualTo(1050);
        assertThat(it.next()).isEqualTo(1051);
        it.reset(list, 306, 5050, FILE, 0);
        assertThat(it.advance(4000)).isEqualTo(5000);
        it.reset(list, 306, 5050, FILE, 0);
        assertThat(it.next()).isEqualTo(0);
        assertThat(it.advance(5050)).isEqualTo(NO_MORE);
        assertThat(it.docId()).isEqualTo(NO_MORE);
        assertThat(it.next()).isEqualTo(NO_MORE);
        assertThat(it.advance(1)).isEqualTo(NO_MORE);
    }

    @Test
    void nextCrossesBlocksInOrder() throws Exception {
        PostingIterator it = new PostingIterator().reset(threeBlocks(), 306, 5050, FILE, 0);
        int[] expected = IntStream.concat(
                        IntStream.concat(IntStream.range(0, 128), IntStream.range(1000, 1128)),
                        IntStream.range(5000, 5050))
                .toArray();
        for (int doc : expected) {
            assertThat(it.next()).isEqualTo(doc);
        }
        assertThat(it.next()).isEqualTo(NO_MORE);
    }

    @Test
    void oneIteratorIsResetOntoListsOfAnySize() throws Exception {
        PostingIterator it = new PostingIterator();
        // 70 blocks: more than the skip arrays first hold.
        ByteBuffer big = encoded(IntStream.range(0, 70 * 128).map(i -> 2 * i).toArray());
        it.reset(big, 70 * 128, 70 * 256, FILE, 0);
        assertThat(it.advance(2 * (69 * 128) - 1)).isEqualTo(2 * 69 * 128);
        assertThat(it.advance(70 * 256 - 2)).isEqualTo(70 * 256 - 2);
        assertThat(it.next()).isEqualTo(NO_MORE);
        it.reset(threeBlocks(), 306, 5050, FILE, 0);
        assertThat(it.docId()).isEqualTo(-1);
        assertThat(it.advance(1100)).isEqualTo(1100);
        it.reset(list(3, 5), 1, 6, FILE, 0);
        assertThat(it.cost()).isEqualTo(1);
        assertThat(it.next()).isEqualTo(5);
        assertThat(it.next()).isEqualTo(NO_MORE);
    }

    @Test
    void aWidthOver31IsRefusedAtTheBlock() {
        PostingIterator it = new PostingIterator().reset(list(32, 0, 0, 0, 0), 1, NO_MORE, FILE, 1000);
        CorruptIndexException e = drain(it);
        assertThat(e.file()).isEqualTo(FILE);
        assertThat(e.offset()).isEqualTo(1000);
        assertThat(e.problem()).isEqualTo("posting list: bit width 32 exceeds 31");
    }

    @Test
    void width31IsTheWidest() throws Exception {
        PostingIterator it = new PostingIterator().reset(list(31, 0xfe, 0xff, 0xff, 0x7f), 1, NO_MORE, FILE, 0);
        assertThat(it.next()).isEqualTo(Integer.MAX_VALUE - 1);
    }

    @Test
    void aBlockLongerThanItsListIsRefused() throws Exception {
        // two values of 5 bits need two bytes after the width
        assertThat(drain(new PostingIterator().reset(list(5, 0x21), 2, 100, FILE, 40))
                        .problem())
                .isEqualTo("posting list: block 0 runs past the end of its posting list");
        PostingIterator exact = new PostingIterator().reset(list(5, 0x21, 0), 2, 100, FILE, 40);
        assertThat(exact.next()).isEqualTo(1);
        assertThat(exact.next()).isEqualTo(3);
    }

    @Test
    void docsAtOrPastTheLimitAreRefused() throws Exception {
        CorruptIndexException e = drain(new PostingIterator().reset(list(3, 5), 1, 5, FILE, 7));
        assertThat(e.offset()).isEqualTo(7);
        assertThat(e.problem()).isEqualTo("posting list: block 0 decodes to doc 5 (limit 5)");
        assertThat(new PostingIterator().reset(list(3, 5), 1, 6, FILE, 7).next())
                .isEqualTo(5);
    }

    @Test
    void docsThatOverflowPastIntAreRefused() {
        // two gaps of 2^30 + 1 from -1: the second doc wraps negative
        CorruptIndexException e =
                drain(new PostingIterator().reset(list(31, 0, 0, 0, 0x40, 0, 0, 0, 0x20), 2, NO_MORE, FILE, 0));
        assertThat(e.problem())
                .isEqualTo("posting list: block 0 decodes to doc " + (0x80000001) + " (limit " + NO_MORE + ")");
    }

    @Test
    void aBlockThatDisagreesWithTheSkipTableIsRefused() throws Exception {
        ByteBuffer list = threeBlocks();
        list.putInt(8, 1126);
        CorruptIndexException e = drain(new PostingIterator().reset(list, 306, 5050, FILE, 100));
        assertThat(e.problem()).isEqualTo("posting list: block 1 decodes to doc 1127 (limit 5050)");
        assertThat(e.offset()).isEqualTo(100 + 24 + list.getInt(12));
    }

    @Test
    void aBlockOffsetOutsideTheListIsRefused() throws Exception {
        ByteBuffer list = threeBlocks();
        int limit = list.limit();
        list.putInt(12, limit - 24);
        CorruptIndexException past = drain(new PostingIterator().reset(list, 306, 5050, FILE, 100));
        assertThat(past.offset()).isEqualTo(100 + limit);
        assertThat(past.problem()).isEqualTo("posting list: block 1 starts outside its posting list");
        list.putInt(12, -25);
        assertThat(drain(new PostingIterator().reset(list, 306, 5050, FILE, 100))
                        .problem())
                .isEqualTo("posting list: block 1 starts outside its posting list");
        // the first byte of the list, read as a width: the skip table's 127
        list.putInt(12, -24);
        assertThat(drain(new PostingIterator().reset(list, 306, 5050, FILE, 100))
                        .problem())
                .isEqualTo("posting list: bit width 127 exceeds 31");
    }

    @Test
    void advanceDecodesOnlyTheBlockItLandsIn() throws Exception {
        // block 1 damaged: a jump over it from before block 0 or from inside block 0 never reads it, a walk does
        ByteBuffer list = threeBlocks();
        list.put(24 + list.getInt(12), (byte) 32);
        PostingIterator it = new PostingIterator().reset(list, 306, 5050, FILE, 0);
        assertThat(it.advance(5000)).isEqualTo(5000);
        assertThat(it.next()).isEqualTo(5001);
        it.reset(list, 306, 5050, FILE, 0);
        assertThat(it.advance(100)).isEqualTo(100);
        assertThat(it.advance(1128)).isEqualTo(5000);
        it.reset(list, 306, 5050, FILE, 0);
        assertThat(it.advance(127)).isEqualTo(127);
        assertThat(drain(it).problem()).isEqualTo("posting list: bit width 32 exceeds 31");
    }
}
