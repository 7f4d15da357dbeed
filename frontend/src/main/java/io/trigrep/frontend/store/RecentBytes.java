package io.trigrep.frontend.store;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The bytes seen last and a value computed from them (a hash, an interned id), so that the next
 * bytes, when equal (compared in place eight at a time), reuse the value instead of computing it.
 */
final class RecentBytes {
    private ByteBuffer bytes = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
    private int length = -1;
    private int value;

    /** Whether {@code buffer[offset, offset + n)} (a little-endian buffer) equals the bytes last {@link #set}. */
    boolean sameAs(ByteBuffer buffer, int offset, int n) {
        if (n != length) {
            return false;
        }
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            if (buffer.getLong(offset + i) != bytes.getLong(i)) {
                return false;
            }
        }
        for (; i < n; i++) {
            if (buffer.get(offset + i) != bytes.get(i)) {
                return false;
            }
        }
        return true;
    }

    /** Remembers {@code buffer[offset, offset + n)} and the value computed from it; returns the value. */
    int set(ByteBuffer buffer, int offset, int n, int value) {
        if (n > bytes.capacity()) {
            bytes = ByteBuffer.allocate(Math.max(n, 2 * bytes.capacity())).order(ByteOrder.LITTLE_ENDIAN);
        }
        bytes.put(0, buffer, offset, n);
        length = n;
        this.value = value;
        return value;
    }

    /** The value given with the bytes last {@link #set}. */
    int value() {
        return value;
    }
}
