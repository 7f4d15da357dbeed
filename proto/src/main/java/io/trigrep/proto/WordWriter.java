package io.trigrep.proto;

import io.netty.buffer.ByteBuf;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A single-segment frame encoded word by word into a reused array, then copied to a
 * {@link ByteBuf} with one call: the two result writers' encoder. Writing words and texts into the
 * {@code ByteBuf} one call each cost an index and capacity check per call through Netty's buffer
 * classes. The caller computes the layout (every pointer aimed at where its object will land in
 * write order); this class only puts words, texts and pointers.
 */
final class WordWriter {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /** The frame being encoded, reused (it grows to the largest frame written), and the write position. */
    private byte[] frame = new byte[1024];

    private int at;

    /** Starts a frame of one segment of {@code words} words: writes its segment table. */
    void begin(int words) {
        int size = 8 + 8 * words;
        if (frame.length < size) {
            frame = new byte[Math.max(size, 2 * frame.length)];
        }
        at = 0;
        putInt(0);
        putInt(words);
    }

    /** Copies the frame to {@code out}, after checking that exactly {@code words} words were written. */
    void end(int words, ByteBuf out) {
        int size = 8 + 8 * words;
        if (at != size) {
            throw new IllegalStateException("wrote " + at + " bytes of a " + size + "-byte frame");
        }
        out.writeBytes(frame, 0, size);
    }

    void putLong(long value) {
        LONG.set(frame, at, value);
        at += Long.BYTES;
    }

    void putInt(int value) {
        INT.set(frame, at, value);
        at += Integer.BYTES;
    }

    /** Writes {@code count} ints, padded with a zero int to a whole word. */
    void ints(int[] values, int count) {
        for (int i = 0; i < count; i++) {
            putInt(values[i]);
        }
        if ((count & 1) == 1) {
            putInt(0);
        }
    }

    /** A List(Range): its inline-composite tag, then one word per range of {@code pairs} (start, end, ...). */
    void ranges(int[] pairs, int count) {
        putLong(compositeTag(count, 1, 0));
        for (int i = 0; i < count; i++) {
            putLong(Integer.toUnsignedLong(pairs[2 * i]) | (long) pairs[2 * i + 1] << 32);
        }
    }

    /** Writes the pointer at word {@code pointer} to an object at word {@code target}; returns the word after the object. */
    int pointTo(int pointer, int target, long pointerWithoutOffset, int objectWords) {
        long offset = target - (pointer + 1L);
        putLong(pointerWithoutOffset | (offset << 2 & 0xffffffffL));
        return target + objectWords;
    }

    /**
     * Reserves the words of a blob of {@code length} bytes plus {@code nul} (1 for a text's NUL),
     * zeroing its last (the NUL and the padding; the array is reused), and returns where its bytes go.
     */
    private int blobAt(int length, int nul) {
        int words = (length + nul + 7) >>> 3;
        int start = at;
        if (words > 0) {
            LONG.set(frame, start + 8 * (words - 1), 0L);
        }
        at += 8 * words;
        return start;
    }

    void text(byte[] bytes, int offset, int length) {
        System.arraycopy(bytes, offset, frame, blobAt(length, 1), length);
    }

    void text(ByteBuf source, int offset, int length) {
        copy(source, offset, blobAt(length, 1), length);
    }

    /** Starts a Data blob of {@code length} bytes, filled by {@link #blobBytes} calls; returns where its bytes go. */
    int dataAt(int length) {
        return blobAt(length, 0);
    }

    /** Copies {@code length} bytes of {@code source} at {@code offset} to the frame at {@code to}. */
    void blobBytes(ByteBuf source, int offset, int to, int length) {
        copy(source, offset, to, length);
    }

    void blobByte(int to, byte value) {
        frame[to] = value;
    }

    private void copy(ByteBuf source, int offset, int to, int length) {
        if (offset < 0 || length < 0 || offset > source.capacity() - length) {
            throw new IndexOutOfBoundsException(
                    "line at " + offset + ", " + length + " bytes, is outside the source's " + source.capacity());
        }
        if (source.hasArray()) {
            // From the array itself: Netty 4.2's pooled buffers copy from another ByteBuf through
            // an NIO view of it, two objects per call, five calls per result: 90 % of a backend's
            // allocations while it streamed two million results, and its young collections with them.
            System.arraycopy(source.array(), source.arrayOffset() + offset, frame, to, length);
        } else {
            source.getBytes(offset, frame, to, length);
        }
    }

    /** Words a text of {@code length} bytes takes: the bytes, the NUL, padding to a word. */
    static int textWords(int length) {
        return (length + 8) >>> 3;
    }

    /** Words a Data blob of {@code length} bytes takes: the bytes, padding to a word. */
    static int dataWords(int length) {
        return (length + 7) >>> 3;
    }

    static long textPointer(int length) {
        return 1L | 2L << 32 | (long) (length + 1) << 35;
    }

    /** A list pointer to {@code length} bytes (a Data blob). */
    static long bytesPointer(int length) {
        return 1L | 2L << 32 | (long) length << 35;
    }

    static long listOfPointers(int count) {
        return 1L | 6L << 32 | (long) count << 35;
    }

    /** An inline-composite list pointer to {@code words} words of elements (the tag word not counted). */
    static long compositePointer(int words) {
        return 1L | 7L << 32 | (long) words << 35;
    }

    /** An inline-composite list's tag: {@code count} elements of the given size. */
    static long compositeTag(int count, int dataWords, int pointers) {
        return (long) count << 2 | (long) dataWords << 32 | (long) pointers << 48;
    }

    /** A List(UInt32) pointer. */
    static long intsPointer(int count) {
        return 1L | 4L << 32 | (long) count << 35;
    }

    static long structPointer(int offset, int dataWords, int pointers) {
        return ((long) offset << 2 & 0xffffffffL) | (long) dataWords << 32 | (long) pointers << 48;
    }
}
