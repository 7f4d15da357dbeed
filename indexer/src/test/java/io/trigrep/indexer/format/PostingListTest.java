package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterTry;

/** Posting lists written by TrigramIndexWriter read back equal, by next() and by advance(). */
class PostingListTest {
    private final List<Path> cleanup = new ArrayList<>();

    @AfterTry
    void clean() throws Exception {
        for (Path p : cleanup) {
            Files.deleteIfExists(p);
        }
        cleanup.clear();
    }

    @Property(tries = 60)
    void listsRoundTrip(
            @ForAll @IntRange(min = 1, max = 200_000) int docCount,
            @ForAll @IntRange(min = 1, max = 40) int lists,
            @ForAll long seed)
            throws Exception {
        Random random = new Random(seed);
        TreeMap<Integer, TreeSet<Integer>> expected = new TreeMap<>();
        for (int i = 0; i < lists; i++) {
            int trigram = random.nextInt(1 << 24);
            TreeSet<Integer> docs = expected.computeIfAbsent(trigram, t -> new TreeSet<>());
            // Densities from one doc to nearly all: exercises widths 0..17 and multi-block lists.
            double density = Math.pow(random.nextDouble(), 3);
            int n = Math.max(1, (int) (density * Math.min(docCount, 5000)));
            for (int k = 0; k < n; k++) {
                docs.add(random.nextInt(docCount));
            }
        }
        Path file = Files.createTempFile("postings", ".tgi");
        Files.delete(file);
        cleanup.add(file);
        try (TrigramIndexWriter writer = new TrigramIndexWriter(file, docCount)) {
            for (var e : expected.entrySet()) {
                for (int doc : e.getValue()) {
                    writer.add(e.getKey(), doc);
                }
            }
            writer.finish();
        }
        TrigramIndex index = TrigramIndex.open(file);
        index.verifyChecksum();
        assertThat(index.trigramCount()).isEqualTo(expected.size());
        PostingIterator it = new PostingIterator();
        for (var e : expected.entrySet()) {
            int entry = index.find(e.getKey());
            assertThat(entry).isGreaterThanOrEqualTo(0);
            assertThat(index.docCountAt(entry)).isEqualTo(e.getValue().size());
            index.postings(entry, it);
            List<Integer> all = new ArrayList<>();
            for (int d = it.next(); d != PostingIterator.NO_MORE_DOCS; d = it.next()) {
                all.add(d);
            }
            assertThat(all).containsExactlyElementsOf(e.getValue());

            // advance() to random targets agrees with the sorted set's ceiling.
            index.postings(entry, it);
            int target = 0;
            while (true) {
                target += 1 + random.nextInt(Math.max(1, docCount / 50));
                Integer ceiling = e.getValue().ceiling(target);
                int got = it.advance(target);
                assertThat(got)
                        .as("advance(%d)", target)
                        .isEqualTo(ceiling == null ? PostingIterator.NO_MORE_DOCS : ceiling);
                if (ceiling == null) {
                    break;
                }
                target = got;
            }
        }
        // Absent trigrams are absent.
        for (int i = 0; i < 50; i++) {
            int t = random.nextInt(1 << 24);
            assertThat(index.find(t) >= 0).isEqualTo(expected.containsKey(t));
        }
    }
}
