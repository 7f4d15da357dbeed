package io.trigrep.indexer.symbols;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Scratch files of the symbol build: a buffered writer and a reader of a byte range, both over a
 * {@link FileChannel} with a buffer of their own (no locks, unlike the java.io streams: they take
 * tens of millions of calls on a large shard). Big-endian ints and longs, varints for counts.
 */
final class Spill {
    static final int BUFFER_BYTES = 1 << 16;

    private Spill() {}

    /** Appends to a new file. */
    static final class Writer implements Closeable {
        private final Path path;
        private final FileChannel channel;
        private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER_BYTES);
        private long flushed;

        Writer(Path path) throws IOException {
            this.path = path;
            this.channel = FileChannel.open(
                    path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
        }

        Path path() {
            return path;
        }

        long position() {
            return flushed + buffer.position();
        }

        void writeInt(int value) throws IOException {
            room(4);
            buffer.putInt(value);
        }

        void writeLong(long value) throws IOException {
            room(8);
            buffer.putLong(value);
        }

        void writeVarint(int value) throws IOException {
            room(5);
            while ((value & ~0x7f) != 0) {
                buffer.put((byte) ((value & 0x7f) | 0x80));
                value >>>= 7;
            }
            buffer.put((byte) value);
        }

        void write(byte[] bytes, int offset, int length) throws IOException {
            while (length > 0) {
                room(1);
                int n = Math.min(length, buffer.remaining());
                buffer.put(bytes, offset, n);
                offset += n;
                length -= n;
            }
        }

        private void room(int bytes) throws IOException {
            if (buffer.remaining() < bytes) {
                flush();
            }
        }

        /** Writes out what is buffered, so that a {@link Reader} of the same file sees it. */
        void flush() throws IOException {
            buffer.flip();
            while (buffer.hasRemaining()) {
                flushed += channel.write(buffer, flushed);
            }
            buffer.clear();
        }

        /** The file's channel, flushed: for readers of what was written so far. */
        FileChannel channel() throws IOException {
            flush();
            return channel;
        }

        @Override
        public void close() throws IOException {
            try {
                flush();
            } finally {
                channel.close();
            }
        }
    }

    /** Reads {@code [from, to)} of a channel in order. */
    static final class Reader {
        private final FileChannel channel;
        private final ByteBuffer buffer;
        private long next;
        private long end;

        Reader(FileChannel channel, long from, long to) {
            this(channel, from, to, BUFFER_BYTES);
        }

        Reader(FileChannel channel, long from, long to, int bufferBytes) {
            this.channel = channel;
            this.buffer = ByteBuffer.allocate(bufferBytes);
            reset(from, to);
        }

        /** Reads {@code [from, to)} next, reusing the buffer. */
        Reader reset(long from, long to) {
            if (from < 0 || to < from) {
                throw new IllegalArgumentException("range must be 0 <= from <= to, got [" + from + ", " + to + ")");
            }
            this.next = from;
            this.end = to;
            buffer.clear().limit(0);
            return this;
        }

        boolean atEnd() {
            return !buffer.hasRemaining() && next == end;
        }

        int readInt() throws IOException {
            need(4);
            return buffer.getInt();
        }

        long readLong() throws IOException {
            need(8);
            return buffer.getLong();
        }

        int readVarint() throws IOException {
            int value = 0;
            for (int shift = 0; shift < 35; shift += 7) {
                need(1);
                byte b = buffer.get();
                value |= (b & 0x7f) << shift;
                if (b >= 0) {
                    return value;
                }
            }
            throw new IOException(channel + ": a varint runs over 5 bytes before " + (next - buffer.remaining()));
        }

        void read(byte[] into, int offset, int length) throws IOException {
            while (length > 0) {
                need(1);
                int n = Math.min(length, buffer.remaining());
                buffer.get(into, offset, n);
                offset += n;
                length -= n;
            }
        }

        private void need(int bytes) throws IOException {
            if (buffer.remaining() >= bytes) {
                return;
            }
            buffer.compact();
            int room = (int) Math.min(buffer.remaining(), end - next);
            buffer.limit(buffer.position() + room);
            while (buffer.hasRemaining()) {
                int n = channel.read(buffer, next);
                if (n < 0) {
                    throw new EOFException("scratch file ends at " + next + ", before " + end);
                }
                next += n;
            }
            buffer.flip();
            if (buffer.remaining() < bytes) {
                throw new EOFException("scratch range ends at " + end + " inside a value");
            }
        }
    }
}
