package io.trigrep.indexer.format;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Writes one shard file: the header, little-endian values through a buffer, and on
 * {@link #finish} the footer with length and CRC32C, then fsync. Nothing else writes shard bytes.
 */
public final class FormatOutput implements Closeable {
    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 18).order(ByteOrder.LITTLE_ENDIAN);
    private final CRC32C crc = new CRC32C();
    private long flushed;

    public FormatOutput(Path path, int kind) throws IOException {
        this(path);
        writeInt(Envelope.MAGIC);
        writeInt(kind);
        writeInt(Envelope.VERSION);
        writeInt(0);
    }

    /** A headerless scratch file: a part that {@link #transferFrom} later copies into a real one. */
    FormatOutput(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(
                path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
    }

    /** Flushes a scratch file; it stays open for reading back. */
    FileChannel flushedChannel() throws IOException {
        flush();
        return channel;
    }

    Path path() {
        return path;
    }

    public long position() {
        return flushed + buffer.position();
    }

    public void writeByte(int value) throws IOException {
        room(1);
        buffer.put((byte) value);
    }

    public void writeShort(int value) throws IOException {
        room(2);
        buffer.putShort((short) value);
    }

    public void writeInt(int value) throws IOException {
        room(4);
        buffer.putInt(value);
    }

    public void writeLong(long value) throws IOException {
        room(8);
        buffer.putLong(value);
    }

    void writeFloat(float value) throws IOException {
        room(4);
        buffer.putFloat(value);
    }

    public void write(byte[] bytes, int offset, int length) throws IOException {
        while (length > 0) {
            room(1);
            int n = Math.min(length, buffer.remaining());
            buffer.put(bytes, offset, n);
            offset += n;
            length -= n;
        }
    }

    void write(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            room(1);
            int n = Math.min(bytes.remaining(), buffer.remaining());
            buffer.put(buffer.position(), bytes, bytes.position(), n);
            buffer.position(buffer.position() + n);
            bytes.position(bytes.position() + n);
        }
    }

    /**
     * Appends {@code length} bytes of {@code source} from {@code position}, copied in the kernel
     * (no trip through the heap); {@code sameBytes} is a mapping of them for the checksum.
     */
    void transferFrom(FileChannel source, long position, long length, ByteBuffer sameBytes) throws IOException {
        flush();
        crc.update(sameBytes.duplicate());
        long done = 0;
        while (done < length) {
            long n = source.transferTo(position + done, length - done, channel);
            if (n <= 0) {
                throw new IOException("short transfer from " + source + ": " + done + " of " + length + " bytes");
            }
            done += n;
        }
        flushed += length;
    }

    /**
     * Appends {@code length} bytes of {@code source} from {@code position}, read through one
     * buffer that feeds both the checksum and the write: unlike {@link #transferFrom}, nothing is
     * mapped, so the bytes do not count in the process's resident memory.
     */
    void copyFrom(FileChannel source, long position, long length) throws IOException {
        flush();
        ByteBuffer chunk = buffer;
        long done = 0;
        while (done < length) {
            chunk.clear().limit((int) Math.min(chunk.capacity(), length - done));
            int n = source.read(chunk, position + done);
            if (n <= 0) {
                throw new IOException("short read from " + source + ": " + done + " of " + length + " bytes");
            }
            chunk.flip();
            crc.update(chunk.duplicate());
            while (chunk.hasRemaining()) {
                channel.write(chunk);
            }
            done += n;
        }
        chunk.clear();
        flushed += length;
    }

    private void room(int bytes) throws IOException {
        if (buffer.remaining() < bytes) {
            flush();
        }
    }

    private void flush() throws IOException {
        buffer.flip();
        crc.update(buffer.duplicate());
        while (buffer.hasRemaining()) {
            flushed += channel.write(buffer);
        }
        buffer.clear();
    }

    /** Writes the footer, forces the bytes to disk and closes. */
    public void finish() throws IOException {
        flush();
        long length = flushed + Envelope.FOOTER;
        buffer.putLong(length);
        buffer.putInt((int) crc.getValue());
        buffer.putInt(Envelope.END_MAGIC);
        buffer.flip();
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
        channel.force(true);
        channel.close();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
