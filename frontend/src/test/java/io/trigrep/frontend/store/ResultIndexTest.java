package io.trigrep.frontend.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.trigrep.proto.ResultWriter;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The frontend's per-result memory as its query uses it: correct columns, a deterministic order, and at most 32 bytes per result. */
class ResultIndexTest {
    record Expected(int index, float ranking, int pathHash, long offset, String pkg) {}

    static ByteBuffer frame(String pkg, String path, float ranking) {
        byte[] line = "int main(void) {".getBytes(StandardCharsets.UTF_8);
        ByteBuf source = Unpooled.wrappedBuffer(line);
        ByteBuf out = Unpooled.buffer();
        new ResultWriter(0)
                .start(pkg.getBytes(StandardCharsets.UTF_8), path.getBytes(StandardCharsets.UTF_8), source, 7, ranking)
                .match(0, line.length)
                .range(0, 3)
                .writeTo(out);
        ByteBuffer frame = ByteBuffer.wrap(ByteBufUtil.getBytes(out)).order(ByteOrder.LITTLE_ENDIAN);
        out.release();
        source.release();
        return frame;
    }

    @Test
    void columnsAndOrderMatchTheResults() {
        Random random = new Random(3);
        ResultIndex index = new ResultIndex();
        List<Expected> expected = new ArrayList<>();
        long offset = 0;
        // Three interleaved streams, each mostly repeating its previous result's package and path
        // (as a backend does within a file); changes keep the length ("src/f123.c" to "src/f124.c").
        String[] pkgs = new String[3];
        String[] paths = new String[3];
        for (int i = 0; i < 50_000; i++) {
            int stream = random.nextInt(3);
            if (pkgs[stream] == null || random.nextInt(10) == 0) {
                pkgs[stream] = "pkg" + random.nextInt(40);
            }
            if (paths[stream] == null || random.nextInt(5) == 0) {
                paths[stream] =
                        "src/f" + (random.nextInt(10) == 0 ? random.nextInt(100) : 100 + random.nextInt(400)) + ".c";
            }
            String pkg = pkgs[stream];
            String path = paths[stream];
            float ranking = random.nextInt(20) / 20f;
            ByteBuffer frame = frame(pkg, path, ranking);
            assertThat(index.add(stream, frame, offset)).isTrue();
            byte[] pathBytes = path.getBytes(StandardCharsets.UTF_8);
            expected.add(new Expected(i, ranking, fileHash(pkg, path), offset, pkg));
            offset += frame.remaining();
        }
        index.publish();
        for (Expected e : expected) {
            assertThat(index.ranking(e.index())).isEqualTo(e.ranking());
            assertThat(index.offset(e.index())).isEqualTo(e.offset());
            assertThat(index.pathHash(e.index())).isEqualTo(e.pathHash());
            assertThat(index.packages().name(index.packageId(e.index()))).isEqualTo(e.pkg());
        }
        assertThat(index.packages().size()).isEqualTo(40);
        index.sort();
        expected.sort(Comparator.comparing(Expected::ranking, Comparator.reverseOrder())
                .thenComparingInt(Expected::pathHash)
                .thenComparingLong(Expected::offset));
        for (int rank = 0; rank < expected.size(); rank++) {
            assertThat(index.sorted(rank))
                    .as("rank %d", rank)
                    .isEqualTo(expected.get(rank).index());
        }
    }

    @Test
    void aResultAddedAfterTheSortVoidsTheOrderAndThePackageCounts() {
        ResultIndex index = new ResultIndex();
        long offset = 0;
        for (int i = 0; i < 100; i++) {
            ByteBuffer frame = frame("p" + i % 3, "f" + i + ".c", i % 7 / 7f);
            assertThat(index.add(i % 2, frame, offset)).isTrue();
            offset += frame.remaining();
        }
        index.selectFirst(10);
        index.sort();
        assertThat(index.packageCounts()).containsExactly(34, 33, 33);
        assertThat(index.sorted(99)).isBetween(0, 99);
        assertThat(index.add(0, frame("p0", "x.c", 1f), offset)).isTrue();
        assertThatThrownBy(() -> index.sorted(0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("sort() first");
        index.publish();
        assertThat(index.packageCounts()).containsExactly(35, 33, 33);
        assertThat(index.size()).isEqualTo(101);
    }

    @Test
    void twoMillionResultsTakeAtMost32BytesEach() {
        List<ByteBuffer> frames = new ArrayList<>();
        for (int i = 0; i < 256; i++) {
            frames.add(frame("package-" + (i % 97), "dir/file" + i + ".c", (i % 13) / 13f));
        }
        int results = 2_000_000;
        long before = usedHeap();
        ResultIndex index = new ResultIndex();
        long offset = 0;
        for (int i = 0; i < results; i++) {
            ByteBuffer frame = frames.get(i & 255);
            index.add(0, frame, offset);
            offset += frame.remaining();
        }
        index.sort();
        long after = usedHeap();
        double perResult = (after - before) / (double) results;
        System.out.printf(
                "ResultIndex: %,d results, %,d bytes of heap, %.1f bytes per result%n",
                results, after - before, perResult);
        assertThat(index.size()).isEqualTo(results);
        assertThat(perResult).isLessThanOrEqualTo(32.0);
        assertThat(index.sorted(0)).isGreaterThanOrEqualTo(0);
    }

    static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    /** The tie-breaker the index must compute: of the package and the path (issue 15), not the path alone. */
    static int fileHash(String pkg, String path) {
        byte[] p = pkg.getBytes(StandardCharsets.UTF_8);
        byte[] f = path.getBytes(StandardCharsets.UTF_8);
        return ResultColumns.fileHash(
                ResultColumns.hash(ByteBuffer.wrap(p), 0, p.length),
                ResultColumns.hash(ByteBuffer.wrap(f), 0, f.length));
    }

    /** The writer's view (added, best, the first ranks) before the results are sorted or published. */
    @Test
    void theWriterSeesItsResultsAndTheFirstRanksBeforeTheSort() {
        ResultIndex index = new ResultIndex();
        assertThat(index.add(0, ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN), 0))
                .as("not a result")
                .isFalse();
        assertThat(index.added()).isZero();
        float[] rankings = {0.2f, 0.9f, 0.5f, 0.7f};
        long offset = 0;
        int[] lengths = new int[rankings.length];
        for (int i = 0; i < rankings.length; i++) {
            ByteBuffer frame = frame("p", "file-" + "x".repeat(i) + ".c", rankings[i]);
            lengths[i] = frame.remaining();
            assertThat(index.add(0, frame, offset)).isTrue();
            offset += lengths[i];
        }
        assertThat(index.added()).isEqualTo(4);
        assertThat(index.size()).as("not published yet").isZero();
        for (int i = 0; i < rankings.length; i++) {
            assertThat(index.length(i)).isEqualTo(lengths[i]);
        }
        assertThat(index.best(3)).containsExactly(1, 3, 2);
        index.selectFirst(2);
        assertThat(index.size()).isEqualTo(4);
        assertThat(index.sorted(0)).as("chosen before any sort").isEqualTo(1);
        assertThat(index.sorted(1)).isEqualTo(3);
        index.sort();
        assertThat(index.sorted(3)).isZero();
    }
}
