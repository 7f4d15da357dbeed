package io.trigrep.frontend.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Package names interned once per query: results carry a small id. Looked up by the name's bytes
 * in place (open addressing on an FNV hash), so interning an already-known package allocates nothing.
 */
public final class PackagePool {
    private final List<byte[]> names = new ArrayList<>();
    private int[] slots = new int[64];
    private int[] hashes = new int[64];

    public int size() {
        return names.size();
    }

    /** The FNV-1a hash of package {@code id}'s name: the same in every run, whatever order ids were given in. */
    public int hash(int id) {
        return hashById[id];
    }

    private int[] hashById = new int[16];

    public String name(int id) {
        return new String(names.get(id), StandardCharsets.UTF_8);
    }

    /** The id of the name in {@code buffer[offset, offset + length)}, added when new. */
    public int intern(ByteBuffer buffer, int offset, int length) {
        int h = ResultColumns.hash(buffer, offset, length);
        int mask = slots.length - 1;
        for (int i = h & mask; ; i = (i + 1) & mask) {
            int id = slots[i] - 1;
            if (id < 0) {
                byte[] name = new byte[length];
                buffer.get(offset, name);
                names.add(name);
                if (names.size() > hashById.length) {
                    hashById = Arrays.copyOf(hashById, 2 * hashById.length);
                }
                hashById[names.size() - 1] = h;
                slots[i] = names.size();
                hashes[i] = h;
                if (2 * names.size() > slots.length) {
                    rehash();
                }
                return names.size() - 1;
            }
            if (hashes[i] == h && equals(names.get(id), buffer, offset, length)) {
                return id;
            }
        }
    }

    private static boolean equals(byte[] name, ByteBuffer buffer, int offset, int length) {
        if (name.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (name[i] != buffer.get(offset + i)) {
                return false;
            }
        }
        return true;
    }

    private void rehash() {
        int[] oldSlots = slots;
        int[] oldHashes = hashes;
        slots = new int[oldSlots.length * 2];
        hashes = new int[slots.length];
        int mask = slots.length - 1;
        for (int k = 0; k < oldSlots.length; k++) {
            if (oldSlots[k] == 0) {
                continue;
            }
            int i = oldHashes[k] & mask;
            while (slots[i] != 0) {
                i = (i + 1) & mask;
            }
            slots[i] = oldSlots[k];
            hashes[i] = oldHashes[k];
        }
        Arrays.fill(oldSlots, 0);
    }
}
