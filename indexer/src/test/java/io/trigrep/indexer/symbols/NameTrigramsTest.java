package io.trigrep.indexer.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NameTrigramsTest {
    @TempDir
    Path scratch;

    @Test
    void eachTrigramListsTheNamesHoldingItOnceAndInOrder() throws IOException {
        byte[][] names = {bytes("aaaa"), bytes("abc"), bytes("xabcabc"), bytes("ab"), bytes("zzzzab")};
        Map<Integer, List<Integer>> lists = lists(names, 1 << 20);
        assertThat(lists.keySet())
                .containsExactly(
                        trigram("aaa"),
                        trigram("abc"),
                        trigram("bca"),
                        trigram("cab"),
                        trigram("xab"),
                        trigram("zab"),
                        trigram("zza"),
                        trigram("zzz"));
        assertThat(lists.get(trigram("abc"))).containsExactly(1, 2);
        assertThat(lists.get(trigram("aaa"))).containsExactly(0);
        assertThat(lists.get(trigram("zzz"))).containsExactly(4);
    }

    /**
     * Many names over a small alphabet, with a buffer so small that they spill into dozens of runs
     * (a name's trigrams often split over two): every list still equals a plain map's, and the
     * runs are gone once closed.
     */
    @Test
    void equalsAPlainMapAcrossManyRuns() throws IOException {
        Random random = new Random(42);
        byte[][] names = new byte[20_000][];
        Map<Integer, TreeSet<Integer>> expected = new TreeMap<>();
        for (int id = 0; id < names.length; id++) {
            byte[] name = new byte[random.nextInt(12)];
            for (int i = 0; i < name.length; i++) {
                // ASCII letters mostly, now and then a byte over 0x7f (UTF-8 of a non-ASCII name)
                name[i] = (byte) (random.nextInt(10) == 0 ? 0x80 + random.nextInt(128) : 'A' + random.nextInt(58));
            }
            names[id] = name;
            for (int i = 0; i + 2 < name.length; i++) {
                expected.computeIfAbsent(
                                (name[i] & 0xff) << 16 | (name[i + 1] & 0xff) << 8 | (name[i + 2] & 0xff),
                                k -> new TreeSet<>())
                        .add(id);
            }
        }
        for (long memory : new long[] {16 * 1024, 1 << 24}) {
            Map<Integer, List<Integer>> got = lists(names, memory);
            assertThat(got.keySet()).as("memory %d", memory).containsExactlyElementsOf(expected.keySet());
            for (Map.Entry<Integer, TreeSet<Integer>> e : expected.entrySet()) {
                assertThat(got.get(e.getKey()))
                        .as("trigram %06x, memory %d", e.getKey(), memory)
                        .containsExactlyElementsOf(e.getValue());
            }
        }
        try (Stream<Path> left = Files.list(scratch)) {
            assertThat(left).isEmpty();
        }
    }

    @Test
    void refusesIdsOutOfOrder() throws IOException {
        try (NameTrigrams trigrams = new NameTrigrams(scratch, "t", 1 << 20)) {
            trigrams.add(trigram("abc"), 5);
            assertThatThrownBy(() -> trigrams.add(trigram("abd"), 4)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> trigrams.add(1 << 24, 6)).isInstanceOf(IllegalArgumentException.class);
        }
    }

    /** The lists of {@code names}' trigrams, in the cursor's order, name {@code id} being {@code names[id]}. */
    private Map<Integer, List<Integer>> lists(byte[][] names, long memory) throws IOException {
        Map<Integer, List<Integer>> lists = new TreeMap<>();
        try (NameTrigrams trigrams = new NameTrigrams(scratch, "t", memory)) {
            for (int id = 0; id < names.length; id++) {
                byte[] name = names[id];
                for (int i = 0; i + 2 < name.length; i++) {
                    trigrams.add((name[i] & 0xff) << 16 | (name[i + 1] & 0xff) << 8 | (name[i + 2] & 0xff), id);
                }
            }
            if (memory < 1 << 20) {
                assertThat(trigrams.runs()).isGreaterThan(10);
            }
            int previous = -1;
            try (NameTrigrams.Cursor c = trigrams.sorted()) {
                List<Integer> ids = new ArrayList<>();
                for (int t = c.next(ids::add); t >= 0; t = c.next(ids::add)) {
                    assertThat(t).isGreaterThan(previous);
                    assertThat(c.count()).isEqualTo(ids.size());
                    previous = t;
                    lists.put(t, List.copyOf(ids));
                    ids.clear();
                }
                assertThat(ids).isEmpty();
            }
        }
        return lists;
    }

    private static int trigram(String s) {
        byte[] b = bytes(s);
        return (b[0] & 0xff) << 16 | (b[1] & 0xff) << 8 | (b[2] & 0xff);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
