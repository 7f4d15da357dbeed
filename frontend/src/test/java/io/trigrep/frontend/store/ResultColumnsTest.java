package io.trigrep.frontend.store;

import static io.trigrep.frontend.store.ResultIndexTest.fileHash;
import static io.trigrep.frontend.store.ResultIndexTest.frame;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-result columns: each value where it was put, across chunks, streams and reused bytes. */
class ResultColumnsTest {
    @Test
    void aFrameThatIsNotAResultIsRefusedAndLeavesNoRecord() {
        ResultColumns columns = new ResultColumns();
        ByteBuffer zeros = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(columns.add(0, zeros, 0)).isFalse();
        assertThat(columns.added()).isZero();
        assertThat(columns.packages().size()).isZero();
        ByteBuffer result = frame("p", "a.c", 0.5f);
        assertThat(columns.add(0, result, 7)).isTrue();
        assertThat(columns.added()).isEqualTo(1);
        columns.publish();
        assertThat(columns.offset(0)).as("the refused frame took no slot").isEqualTo(7);
    }

    @Test
    void theSizeOtherThreadsSeeMovesOnlyWhenPublished() {
        ResultColumns columns = new ResultColumns();
        columns.add(0, frame("p", "a.c", 1f), 0);
        columns.add(0, frame("p", "b.c", 1f), 100);
        assertThat(columns.added()).isEqualTo(2);
        assertThat(columns.size()).isZero();
        columns.publish();
        assertThat(columns.size()).isEqualTo(2);
    }

    @Test
    void offsetsAreInArrivalOrderUntilOneIsSmallerThanTheOneBefore() {
        ResultColumns columns = new ResultColumns();
        assertThat(columns.offsetsInArrivalOrder()).isTrue();
        columns.add(0, frame("p", "a.c", 1f), 10);
        columns.add(1, frame("p", "a.c", 1f), 10);
        assertThat(columns.offsetsInArrivalOrder())
                .as("equal offsets did not decrease")
                .isTrue();
        columns.add(0, frame("p", "a.c", 1f), 9);
        assertThat(columns.offsetsInArrivalOrder()).isFalse();
        columns.add(0, frame("p", "a.c", 1f), 50);
        assertThat(columns.offsetsInArrivalOrder())
                .as("once out of order, for good")
                .isFalse();
    }

    @Test
    void eachStreamRemembersItsOwnLastPathAndPackage() {
        ResultColumns columns = new ResultColumns();
        // Streams first seen out of order; paths past the 64 bytes a stream first keeps, of equal
        // length differing in their first word, in their last word and in their last byte only.
        String longA = "a" + "/dir".repeat(20) + "/x.c";
        String longB = "b" + "/dir".repeat(20) + "/x.c";
        String longC = "a" + "/dir".repeat(20) + "/y.c";
        String shortA = "src/ab.c";
        String shortB = "src/ac.c";
        String[][] added = {
            {"4", "pkg-one", longA}, {"0", "pkg-one", longA}, {"4", "pkg-one", longB}, {"0", "pkg-two", longA},
            {"4", "pkg-one", longC}, {"2", "pkg-two", shortA}, {"4", "pkg-one", longC}, {"2", "pkg-two", shortB},
            {"2", "pkg-twp", shortB}, {"0", "pkg-two", longA}, {"2", "pkg-tw", shortB}, {"4", "pkg-one", "src/ab"},
        };
        long offset = 0;
        for (int i = 0; i < added.length; i++) {
            ByteBuffer frame = frame(added[i][1], added[i][2], i / 10f);
            assertThat(columns.add(Integer.parseInt(added[i][0]), frame, offset))
                    .isTrue();
            columns.publish();
            assertThat(columns.length(i)).isEqualTo(frame.remaining());
            offset += frame.remaining() + 3;
        }
        offset = 0;
        for (int i = 0; i < added.length; i++) {
            String pkg = added[i][1];
            String path = added[i][2];
            assertThat(columns.packages().name(columns.packageId(i)))
                    .as("package of %d", i)
                    .isEqualTo(pkg);
            assertThat(columns.pathHash(i))
                    .as("hash of %d: %s %s", i, pkg, path)
                    .isEqualTo(fileHash(pkg, path));
            assertThat(columns.ranking(i)).isEqualTo(i / 10f);
            assertThat(columns.offset(i)).isEqualTo(offset);
            offset += columns.length(i) + 3;
        }
        assertThat(columns.packages().size()).isEqualTo(4);
    }

    @Test
    void valuesStayPutAcrossChunksAndWhenTheChunkTableGrows() {
        ResultColumns columns = new ResultColumns();
        ByteBuffer[] frames = {frame("p", "a.c", 0.25f), frame("q", "bb.c", 0.75f)};
        int n = 16 * ResultColumns.CHUNK + 3;
        for (int i = 0; i < n; i++) {
            assertThat(columns.add(0, frames[i & 1], 5L * i)).isTrue();
        }
        columns.publish();
        for (int i : new int[] {
            0,
            1,
            ResultColumns.FIRST - 1,
            ResultColumns.FIRST,
            2 * ResultColumns.FIRST + 1,
            ResultColumns.CHUNK - 1,
            ResultColumns.CHUNK,
            ResultColumns.CHUNK + 1,
            15 * ResultColumns.CHUNK + 7,
            16 * ResultColumns.CHUNK,
            n - 1
        }) {
            assertThat(columns.offset(i)).as("offset %d", i).isEqualTo(5L * i);
            assertThat(columns.length(i)).isEqualTo(frames[i & 1].remaining());
            assertThat(columns.ranking(i)).isEqualTo((i & 1) == 0 ? 0.25f : 0.75f);
            assertThat(columns.packageId(i)).isEqualTo(i & 1);
            assertThat(columns.pathHash(i)).isEqualTo((i & 1) == 0 ? fileHash("p", "a.c") : fileHash("q", "bb.c"));
        }
        assertThat(columns.added()).isEqualTo(n);
    }
    /**
     * Chunk 0 doubles by copying while results arrive; a reader holds the table of the last
     * publish, which must keep every result it counted, whatever the writer copied since.
     */
    @Test
    void aReaderOfThePublishedResultsSeesThemWhileTheFirstChunkDoubles() {
        ByteBuffer frame = frame("p", "a.c", 0.5f);
        int first = ResultColumns.FIRST;
        for (int published : new int[] {1, first - 1, first, first + 1, 3 * first}) {
            ResultColumns columns = new ResultColumns();
            while (columns.added() < published) {
                columns.add(0, frame, 11L * columns.added());
            }
            columns.publish();
            for (int more = 0; more < 4 * first; more++) {
                columns.add(0, frame, 11L * columns.added());
            }
            assertThat(columns.size()).isEqualTo(published);
            for (int i = 0; i < published; i++) {
                assertThat(columns.offset(i))
                        .as("result %d of %d published", i, published)
                        .isEqualTo(11L * i);
            }
        }
    }

    /**
     * A full chunk, 24 bytes per result plus its array header, must be a humongous object of G1
     * (more than half a region) that fits in one region with little left, for every region size
     * G1 allows and whichever header size (16 to 24 bytes) this VM's class pointers give.
     */
    @Test
    void aFullChunkFillsOneG1RegionAlmostWholly() {
        for (long region = 1 << 20; region <= 512 << 20; region *= 2) {
            long bytes = 24L * ResultColumns.chunkResults(region);
            assertThat(bytes + 24).as("region %d", region).isLessThanOrEqualTo(region);
            assertThat(bytes).as("region %d", region).isGreaterThan(region - 100);
        }
        assertThat(ResultColumns.chunkResults(0)).as("not G1").isEqualTo(1 << 14);
        assertThat(ResultColumns.CHUNK).isGreaterThanOrEqualTo(ResultColumns.FIRST);
    }

    /**
     * One signed comparison of two keys orders as the ranking (best first, by Float.compare, all
     * NaNs one value and above infinity) then the path hash (signed, lower first) would; the values
     * read back are the values put in.
     */
    @Test
    void theKeyOrdersByRankingThenPathHashAndGivesBothBack() {
        float[] rankings = {
            Float.NaN,
            Float.POSITIVE_INFINITY,
            Float.MAX_VALUE,
            1f,
            0.5f,
            Float.MIN_VALUE,
            0f,
            -0f,
            -Float.MIN_VALUE,
            -1f,
            Float.NEGATIVE_INFINITY,
            Float.intBitsToFloat(0xffc00001)
        };
        int[] hashes = {Integer.MIN_VALUE, -1, 0, 1, Integer.MAX_VALUE};
        List<float[]> pairs = new ArrayList<>();
        for (float r : rankings) {
            for (int h : hashes) {
                pairs.add(new float[] {r, Float.intBitsToFloat(h)});
            }
        }
        for (float[] a : pairs) {
            for (float[] b : pairs) {
                int ha = Float.floatToRawIntBits(a[1]);
                int hb = Float.floatToRawIntBits(b[1]);
                int expected = Float.compare(b[0], a[0]);
                if (expected == 0) {
                    expected = Integer.compare(ha, hb);
                }
                assertThat(Integer.signum(Long.compare(ResultColumns.key(a[0], ha), ResultColumns.key(b[0], hb))))
                        .as("%s/%d against %s/%d", a[0], ha, b[0], hb)
                        .isEqualTo(Integer.signum(expected));
            }
        }
        ResultColumns columns = new ResultColumns();
        for (float r : rankings) {
            columns.add(0, frame("p", "a.c", r), columns.added());
        }
        columns.publish();
        for (int i = 0; i < rankings.length; i++) {
            assertThat(Float.compare(columns.ranking(i), rankings[i]))
                    .as("ranking %s", rankings[i])
                    .isZero();
            assertThat(columns.pathHash(i)).isEqualTo(fileHash("p", "a.c"));
        }
    }

    /** The tie-breaker is part of the order users see on every run: FNV-1a values fixed here, computed apart from the code. */
    @Test
    void theHashesAreFnv1aOfTheBytesAndTheFileHashCombinesPackageAndPath() {
        assertThat(ResultColumns.hash(ByteBuffer.allocate(0), 0, 0)).isEqualTo(0x811c9dc5);
        assertThat(ResultColumns.hash(ByteBuffer.wrap(new byte[] {'x', 'a', 'y'}), 1, 1))
                .isEqualTo(0xe40c292c);
        assertThat(ResultColumns.hash(ByteBuffer.wrap(new byte[] {(byte) 0xff, (byte) 0x80, 'p', 'k', 'g'}), 0, 5))
                .as("bytes are unsigned")
                .isEqualTo(0xdf8bb988);
        assertThat(ResultColumns.fileHash(0x583c6531, 0xa0de4c72)).isEqualTo(0xb8cd0051);
        ResultColumns columns = new ResultColumns();
        columns.add(0, frame("pkg", "src/a.c", 1f), 0);
        columns.publish();
        assertThat(columns.pathHash(0)).isEqualTo(0xb8cd0051);
        assertThat(columns.packages().hash(0)).isEqualTo(0x583c6531);
    }

    /** A frame read from a larger buffer (between other frames) is recorded with its own length and values. */
    @Test
    void aFrameInsideALargerBufferIsRecordedFromItsPosition() {
        ByteBuffer one = frame("pkg", "src/a.c", 0.25f);
        int length = one.remaining();
        ByteBuffer buffer = ByteBuffer.allocate(length + 40).order(ByteOrder.LITTLE_ENDIAN);
        buffer.position(13);
        buffer.put(one);
        buffer.limit(13 + length).position(13);
        ResultColumns columns = new ResultColumns();
        assertThat(columns.add(0, buffer, 500)).isTrue();
        columns.publish();
        assertThat(columns.length(0)).isEqualTo(length);
        assertThat(columns.ranking(0)).isEqualTo(0.25f);
        assertThat(columns.pathHash(0)).isEqualTo(fileHash("pkg", "src/a.c"));
        assertThat(columns.packages().name(columns.packageId(0))).isEqualTo("pkg");
    }
}
