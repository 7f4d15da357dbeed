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
 *
 * <p>A {@linkplain #bulk bulk} output (the contents file: as many bytes as the corpus) sends its
 * buffer to the file with direct I/O ({@code O_DIRECT}) in block-aligned runs, and only the last
 * partial block and the footer through the page cache. Buffered writes of fresh page-cache pages
 * were the largest cost of copying the contents: 2.1 of the Linux build's 18.4 CPU-seconds, all
 * in the kernel's copy into new pages, while the same bytes read back cost 0.03 (BENCHMARKS.md,
 * "Index build against cindex"). The file is fsynced at the end either way, so the disk write is
 * not extra work; it now happens while the postings are built instead of after.
 */
public final class FormatOutput implements Closeable {
    /** A bulk output's buffer: 1 MiB, so that each direct write is large. */
    static final int BULK_BUFFER = 1 << 20;

    private final Path path;
    private final FileChannel channel;
    private final ByteBuffer buffer;
    /** Writes start at a multiple of this: a block for a bulk output, 1 otherwise. */
    private final int align;
    /** The channel aligned runs go through with direct I/O; null when buffered (or refused). */
    private FileChannel direct;

    private final CRC32C crc = new CRC32C();
    /** Bytes in the file; the buffer's first byte goes here. */
    private long flushed;

    public FormatOutput(Path path, int kind) throws IOException {
        this(path, kind, Envelope.VERSION);
    }

    /** A file of {@code kind} whose header says {@code version} (a kind with several versions). */
    public FormatOutput(Path path, int kind, int version) throws IOException {
        this(path, 1, false);
        writeHeader(kind, version);
    }

    /** A headerless scratch file: a part that {@link #transferFrom} later copies into a real one. */
    FormatOutput(Path path) throws IOException {
        this(path, 1, false);
    }

    /**
     * A file of {@code kind} written mostly by {@link #copyFrom}, bypassing the page cache where the
     * file system allows direct I/O; buffered as any other where it does not.
     */
    static FormatOutput bulk(Path path, int kind) throws IOException {
        return bulk(path, kind, true);
    }

    /** {@code tryDirect} false: the bulk layout through the page cache alone (what a refusing file system gets). */
    static FormatOutput bulk(Path path, int kind, boolean tryDirect) throws IOException {
        FormatOutput out = new FormatOutput(
                path, DirectIo.alignment(path.toAbsolutePath().getParent(), BULK_BUFFER / 4), tryDirect);
        out.writeHeader(kind, Envelope.VERSION);
        return out;
    }

    private FormatOutput(Path path, int align, boolean tryDirect) throws IOException {
        this.path = path;
        this.align = align;
        this.channel = FileChannel.open(
                path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
        if (align == 1) {
            this.buffer = ByteBuffer.allocateDirect(1 << 18).order(ByteOrder.LITTLE_ENDIAN);
            return;
        }
        this.buffer = ByteBuffer.allocateDirect(BULK_BUFFER + align)
                .alignedSlice(align)
                .slice(0, BULK_BUFFER)
                .order(ByteOrder.LITTLE_ENDIAN);
        this.direct = tryDirect ? DirectIo.openForWrites(path) : null;
    }

    private void writeHeader(int kind, int version) throws IOException {
        writeInt(Envelope.MAGIC);
        writeInt(kind);
        writeInt(version);
        writeInt(0);
    }

    /** True while aligned runs bypass the page cache. */
    boolean direct() {
        return direct != null;
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
     * (no trip through the heap); {@code sameBytes} is a mapping of them for the checksum. A bulk
     * output copies them through its buffer instead, as {@link #copyFrom} does.
     */
    void transferFrom(FileChannel source, long position, long length, ByteBuffer sameBytes) throws IOException {
        if (align != 1) {
            copyFrom(source, position, length);
            return;
        }
        flush();
        crc.update(sameBytes.duplicate());
        channel.position(flushed);
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
     * Appends {@code length} bytes of {@code source} from {@code position}, read into the buffer
     * that feeds both the checksum and the write: unlike {@link #transferFrom}, nothing is mapped,
     * so the bytes do not count in the process's resident memory.
     */
    void copyFrom(FileChannel source, long position, long length) throws IOException {
        long done = 0;
        while (done < length) {
            if (!buffer.hasRemaining()) {
                flush();
            }
            buffer.limit((int) Math.min(buffer.capacity(), buffer.position() + (length - done)));
            int n;
            try {
                n = source.read(buffer, position + done);
            } finally {
                buffer.limit(buffer.capacity());
            }
            if (n <= 0) {
                throw new IOException("short read from " + source + ": " + done + " of " + length + " bytes");
            }
            done += n;
        }
    }

    private void room(int bytes) throws IOException {
        if (buffer.remaining() < bytes) {
            flush();
        }
    }

    /**
     * Writes the buffer out, all of it, or for a bulk output the whole blocks, keeping the partial
     * last one (less than a block) at the buffer's start so that the next write starts aligned.
     */
    private void flush() throws IOException {
        int end = buffer.position();
        int whole = end - end % align;
        if (whole == 0) {
            return;
        }
        ByteBuffer run = buffer.duplicate().limit(whole).position(0);
        crc.update(run.duplicate());
        write(run, flushed);
        flushed += whole;
        buffer.limit(end).position(whole);
        buffer.compact();
    }

    private void write(ByteBuffer run, long at) throws IOException {
        if (direct != null) {
            try {
                while (run.hasRemaining()) {
                    at += direct.write(run, at);
                }
                return;
            } catch (IOException e) {
                // A file system that took O_DIRECT at open may still refuse the write; a disk that
                // is full fails the buffered write below as well, and that error is the one thrown.
                closeDirect();
            }
        }
        while (run.hasRemaining()) {
            at += channel.write(run, at);
        }
    }

    private void closeDirect() throws IOException {
        FileChannel open = direct;
        direct = null;
        if (open != null) {
            open.close();
        }
    }

    /** Writes the footer, forces the bytes to disk and closes. */
    public void finish() throws IOException {
        flush();
        // What is left is a bulk output's last partial block: it goes with the footer, buffered.
        crc.update(buffer.duplicate().flip());
        long length = flushed + buffer.position() + Envelope.FOOTER;
        buffer.putLong(length);
        buffer.putInt((int) crc.getValue());
        buffer.putInt(Envelope.END_MAGIC);
        buffer.flip();
        long at = flushed;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
        closeDirect();
        channel.force(true);
        channel.close();
    }

    @Override
    public void close() throws IOException {
        try {
            closeDirect();
        } finally {
            channel.close();
        }
    }
}
