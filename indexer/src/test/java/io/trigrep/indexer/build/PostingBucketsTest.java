package io.trigrep.indexer.build;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.format.TrigramIndexWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The in-memory sort of a small build and the count table give the same trigram file, byte for byte. */
class PostingBucketsTest {
    @TempDir
    Path dir;

    @Test
    void sortingThePairsWritesWhatTheCountTableWrites() throws Exception {
        Random random = new Random(63);
        int docs = 300;
        ByteBuffer[] spools = new ByteBuffer[docs];
        int[] at = new int[docs];
        int[] count = new int[docs];
        for (int d = 0; d < docs; d++) {
            TreeSet<Integer> trigrams = new TreeSet<>();
            int n = random.nextInt(400);
            for (int i = 0; i < n; i++) {
                // Clustered, so that lists of many docs and lists of one both occur.
                trigrams.add(random.nextBoolean() ? random.nextInt(1 << 24) : 0x616200 + random.nextInt(64));
            }
            ByteBuffer spool = ByteBuffer.allocate(8 + 4 * trigrams.size()).order(ByteOrder.LITTLE_ENDIAN);
            spool.position(8);
            trigrams.forEach(spool::putInt);
            spools[d] = spool;
            at[d] = 8;
            count[d] = trigrams.size();
        }
        PostingBuckets.DocTrigrams input = new PostingBuckets.DocTrigrams(spools, at, count);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            byte[][] files = new byte[2][];
            for (int sorted = 0; sorted < 2; sorted++) {
                Path folder = Files.createDirectories(dir.resolve("build-" + sorted));
                Path file = folder.resolve("trigrams.tgi");
                try (TrigramIndexWriter index = new TrigramIndexWriter(file, docs)) {
                    PostingBuckets.Outcome outcome = PostingBuckets.build(
                            input, 4096, 2, pool, index, folder, sorted == 1 ? Integer.MAX_VALUE : 0);
                    if (sorted == 1) {
                        assertThat(outcome.ranges()).isEqualTo(1);
                    } else {
                        assertThat(outcome.ranges())
                                .as("the count table cut into ranges")
                                .isGreaterThan(1);
                    }
                    index.finish();
                }
                files[sorted] = Files.readAllBytes(file);
            }
            assertThat(files[1]).isEqualTo(files[0]);
        } finally {
            pool.shutdownNow();
        }
    }
}
