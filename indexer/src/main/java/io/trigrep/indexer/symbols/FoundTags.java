package io.trigrep.indexer.symbols;

import java.io.IOException;
import java.util.Arrays;
import java.util.IdentityHashMap;

/**
 * One file's tags as ctags answers them, each already in the spool's layout: line, kind and
 * language ids, name and scope with their lengths, as varints and bytes.
 */
final class FoundTags implements Ctags.Sink {
    private final Labels labels;
    /** Ctags hands out one String per distinct label, so a worker's own map finds it by identity. */
    private final IdentityHashMap<String, Integer> labelIds = new IdentityHashMap<>();

    private byte[] records = new byte[1 << 12];
    private int size;
    /** Each tag's {@code line << 32 | index}: sorted, the tags by line, in ctags' order within one. */
    private long[] order = new long[64];
    /** Where each tag starts in {@code records}, and at {@code count}, the end. */
    private int[] starts = new int[65];

    private int count;
    private boolean sorted;

    FoundTags(Labels labels) {
        this.labels = labels;
    }

    /** How many tags the file has. */
    int count() {
        return count;
    }

    void clear() {
        size = 0;
        count = 0;
        sorted = true;
    }

    @Override
    public void tag(
            int line, byte[] name, int nameLength, byte[] scope, int scopeLength, String kind, String language) {
        if (count == order.length) {
            order = Arrays.copyOf(order, 2 * count);
            starts = Arrays.copyOf(starts, 2 * count + 1);
        }
        if (count > 0 && line < (int) (order[count - 1] >>> 32)) {
            sorted = false;
        }
        order[count] = (long) line << 32 | count;
        starts[count] = size;
        int room = 5 * 5 + nameLength + scopeLength;
        if (records.length < size + room) {
            records = Arrays.copyOf(records, Math.max(size + room, 2 * records.length));
        }
        varint(line);
        varint(labelIds.computeIfAbsent(kind, labels::id));
        varint(labelIds.computeIfAbsent(language, labels::id));
        varint(nameLength);
        System.arraycopy(name, 0, records, size, nameLength);
        size += nameLength;
        varint(scopeLength);
        System.arraycopy(scope, 0, records, size, scopeLength);
        size += scopeLength;
        count++;
        starts[count] = size;
    }

    private void varint(int value) {
        while ((value & ~0x7f) != 0) {
            records[size++] = (byte) ((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        records[size++] = (byte) value;
    }

    /** Spills the tags ordered by line (ctags may report a scope's members after the scope's end). */
    void spill(Spill.Writer spool) throws IOException {
        if (!sorted) {
            Arrays.sort(order, 0, count);
        }
        for (int i = 0; i < count; i++) {
            int t = (int) order[i];
            spool.write(records, starts[t], starts[t + 1] - starts[t]);
        }
    }
}
