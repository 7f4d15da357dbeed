package io.trigrep.backend.search;

import java.util.Arrays;

/**
 * Transitions on non-ASCII code points, (state, rune) to state, in open addressing over
 * primitive arrays: a file of non-ASCII text looks one up per character, and boxed map keys
 * would allocate each time.
 */
final class RuneTransitions {
    private long[] keys = new long[64];
    private int[] values = new int[64];
    private int size;

    RuneTransitions() {
        Arrays.fill(keys, -1);
    }

    int get(int state, int rune) {
        long key = (long) state << 32 | rune;
        int mask = keys.length - 1;
        for (int i = slot(key, mask); ; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return values[i];
            }
            if (keys[i] == -1) {
                return DfaStates.UNKNOWN;
            }
        }
    }

    void put(int state, int rune, int value) {
        if (2 * (size + 1) > keys.length) {
            long[] oldKeys = keys;
            int[] oldValues = values;
            keys = new long[2 * oldKeys.length];
            values = new int[keys.length];
            Arrays.fill(keys, -1);
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != -1) {
                    insert(oldKeys[i], oldValues[i]);
                }
            }
        }
        insert((long) state << 32 | rune, value);
    }

    private void insert(long key, int value) {
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (keys[i] != -1 && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (keys[i] == -1) {
            size++;
        }
        keys[i] = key;
        values[i] = value;
    }

    void clear() {
        Arrays.fill(keys, -1);
        size = 0;
    }

    private static int slot(long key, int mask) {
        return (int) ((key * 0x9E3779B97F4A7C15L) >>> 40) & mask;
    }
}
