package io.trigrep.indexer.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class NameTrigramsTest {
    @Test
    void eachTrigramListsTheNamesHoldingItOnceAndInOrder() {
        byte[][] names = {bytes("aaaa"), bytes("abc"), bytes("xabcabc"), bytes("ab"), bytes("zzzzab")};
        NameTrigrams lists = NameTrigrams.of(names);
        assertThat(lists.trigrams())
                .containsExactly(
                        trigram("aaa"),
                        trigram("abc"),
                        trigram("bca"),
                        trigram("cab"),
                        trigram("xab"),
                        trigram("zab"),
                        trigram("zza"),
                        trigram("zzz"));
        assertThat(ids(lists, "abc")).containsExactly(1, 2);
        assertThat(ids(lists, "aaa")).containsExactly(0);
        assertThat(ids(lists, "zzz")).containsExactly(4);
        assertThat(lists.list(trigram("qqq"))).isNull();
        assertThat(lists.size()).isEqualTo(8);
    }

    /**
     * Many names over a small alphabet: trigrams collide in the table's probe chains and it grows
     * many times, and every list still equals a plain map's.
     */
    @Test
    void equalsAPlainMapOverManyNames() {
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
        NameTrigrams lists = NameTrigrams.of(names);
        assertThat(lists.size()).isEqualTo(expected.size());
        int[] trigrams = lists.trigrams();
        assertThat(trigrams)
                .containsExactly(
                        expected.keySet().stream().mapToInt(Integer::intValue).toArray());
        for (int t : trigrams) {
            int[] list = lists.list(t);
            List<Integer> got = new ArrayList<>();
            for (int i = 1; i <= list[0]; i++) {
                got.add(list[i]);
            }
            assertThat(got).as("trigram %06x", t).containsExactlyElementsOf(expected.get(t));
        }
    }

    private static List<Integer> ids(NameTrigrams lists, String trigram) {
        int[] list = lists.list(trigram(trigram));
        List<Integer> out = new ArrayList<>();
        for (int i = 1; i <= list[0]; i++) {
            out.add(list[i]);
        }
        return out;
    }

    private static int trigram(String s) {
        byte[] b = bytes(s);
        return (b[0] & 0xff) << 16 | (b[1] & 0xff) << 8 | (b[2] & 0xff);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
