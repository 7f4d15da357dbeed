package io.trigrep.indexer.symbols;

import java.util.Arrays;

/**
 * Per trigram of the names (3 bytes packed big-endian, as in trigrams.tgi), the ids of the names
 * holding it, increasing: the lists behind {@code symbols.tgs}' name index. Names are added in id
 * order, so a list only ever grows at its end and a name's repeated trigram is the list's last id.
 *
 * <p>An open-addressing table of int keys with a multiplicative hash. A {@code HashMap<Integer, …>}
 * did this before and was most of the symbol writer's time: an Integer hashes to its own value and
 * the map folds only the high half into the low bits, so ASCII trigrams fell into a few thousand of
 * its bins, turned into trees.
 */
final class NameTrigrams {
    private static final int EMPTY = -1;

    private int[] keys = new int[1 << 10];
    private int[][] lists = new int[1 << 10][];
    private int size;

    NameTrigrams() {
        Arrays.fill(keys, EMPTY);
    }

    /** The lists of the names' trigrams, name {@code id} being {@code names[id]}'s bytes. */
    static NameTrigrams of(byte[][] names) {
        NameTrigrams out = new NameTrigrams();
        for (int id = 0; id < names.length; id++) {
            byte[] name = names[id];
            for (int i = 0; i + 2 < name.length; i++) {
                out.add((name[i] & 0xff) << 16 | (name[i + 1] & 0xff) << 8 | (name[i + 2] & 0xff), id);
            }
        }
        return out;
    }

    /** Adds {@code id} to {@code trigram}'s list unless it is there already; ids come in increasing order. */
    void add(int trigram, int id) {
        int slot = slot(trigram);
        int[] list = lists[slot];
        if (list == null) {
            if (2 * (size + 1) > keys.length) {
                grow();
                slot = slot(trigram);
            }
            keys[slot] = trigram;
            list = new int[4];
            lists[slot] = list;
            size++;
        } else if (list[list[0]] == id) {
            return;
        } else if (list[0] + 1 == list.length) {
            list = Arrays.copyOf(list, 2 * list.length);
            lists[slot] = list;
        }
        list[++list[0]] = id;
    }

    /** Distinct trigrams. */
    int size() {
        return size;
    }

    /** The trigrams, increasing. */
    int[] trigrams() {
        int[] out = new int[size];
        int n = 0;
        for (int key : keys) {
            if (key != EMPTY) {
                out[n++] = key;
            }
        }
        Arrays.sort(out);
        return out;
    }

    /** {@code trigram}'s list: {@code [0]} the count, the ids after it; null for a trigram of no name. */
    int[] list(int trigram) {
        return lists[slot(trigram)];
    }

    /** The slot holding {@code trigram}, or the empty one where it would go. */
    private int slot(int trigram) {
        int mask = keys.length - 1;
        int slot = (trigram * 0x9E3779B1) >>> Integer.numberOfLeadingZeros(mask);
        while (keys[slot] != EMPTY && keys[slot] != trigram) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private void grow() {
        int[] oldKeys = keys;
        int[][] oldLists = lists;
        keys = new int[2 * oldKeys.length];
        lists = new int[2 * oldKeys.length][];
        Arrays.fill(keys, EMPTY);
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                int slot = slot(oldKeys[i]);
                keys[slot] = oldKeys[i];
                lists[slot] = oldLists[i];
            }
        }
    }
}
