package io.trigrep.indexer.format;

import java.io.IOException;
import java.util.Arrays;

/**
 * Encodes one posting list at a time as blocks of bit-packed gaps with a skip table (layout in
 * FORMAT.md). Doc ids arrive one by one in increasing order; the encoder reuses its buffers
 * across lists, so the only memory it holds is the largest list's encoding.
 */
public final class PostingEncoder {
    static final int BLOCK = 128;

    private final int[] gaps = new int[BLOCK];
    private int inBlock;
    private int previous = -1;
    private int count;

    private byte[] bytes = new byte[1024];
    private int length;
    private int[] skipLast = new int[16];
    private int[] skipOffset = new int[16];
    private int blocks;

    public void add(int doc) {
        if (doc <= previous) {
            throw new IllegalArgumentException("doc ids must increase: " + doc + " after " + previous);
        }
        gaps[inBlock++] = doc - previous - 1;
        previous = doc;
        count++;
        if (inBlock == BLOCK) {
            flushBlock();
        }
    }

    int count() {
        return count;
    }

    private void flushBlock() {
        int or = 0;
        for (int i = 0; i < inBlock; i++) {
            or |= gaps[i];
        }
        int width = 32 - Integer.numberOfLeadingZeros(or);
        if (blocks == skipLast.length) {
            skipLast = Arrays.copyOf(skipLast, blocks * 2);
            skipOffset = Arrays.copyOf(skipOffset, blocks * 2);
        }
        skipLast[blocks] = previous;
        skipOffset[blocks] = length;
        blocks++;
        ensure(1 + (inBlock * width + 7) / 8);
        bytes[length++] = (byte) width;
        long accumulator = 0;
        int bits = 0;
        for (int i = 0; i < inBlock; i++) {
            accumulator |= (long) gaps[i] << bits;
            bits += width;
            while (bits >= 8) {
                bytes[length++] = (byte) accumulator;
                accumulator >>>= 8;
                bits -= 8;
            }
        }
        if (bits > 0) {
            bytes[length++] = (byte) accumulator;
        }
        inBlock = 0;
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }

    /** Writes the list and resets for the next one; returns the bytes written. */
    public int finish(FormatOutput out) throws IOException {
        if (inBlock > 0) {
            flushBlock();
        }
        int written = 0;
        if (blocks > 1) {
            for (int i = 0; i < blocks; i++) {
                out.writeInt(skipLast[i]);
                out.writeInt(skipOffset[i]);
            }
            written += 8 * blocks;
        }
        out.write(bytes, 0, length);
        written += length;
        inBlock = 0;
        previous = -1;
        count = 0;
        length = 0;
        blocks = 0;
        return written;
    }
}
