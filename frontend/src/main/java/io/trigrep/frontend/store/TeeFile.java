package io.trigrep.frontend.store;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A query's tee: every frame the backends sent, appended as received (no conversion), and read
 * back one frame at a time by offset and length when a page is rendered. One writer thread;
 * reads are positional and may come from any thread.
 *
 * <p>Small appends gather in a 64 KiB buffer: a result frame is about 100 bytes, and one positional
 * write per frame cost about 1.5 µs of system time each, most of the frontend's time per result.
 * Appends of a quarter of the buffer or more (the frontend appends a socket read's frames at
 * once) go straight to the file after what is buffered.
 * A read that reaches into the buffered tail flushes it first, so offsets are valid the moment
 * {@link #append} returns. {@link #finish} flushes and drops the buffer once the query is done.
 */
public final class TeeFile implements Closeable {
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Path path;
    private final FileChannel channel;
    private volatile long end;
    /** Bytes on disk; everything from here to {@link #end} is in {@link #buffer}. */
    private volatile long flushed;
    private ByteBuffer buffer;

    public TeeFile(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    public Path path() {
        return path;
    }

    /** Appends the frame (position to limit); returns the offset it starts at. */
    public synchronized long append(ByteBuffer frame) throws IOException {
        long at = end;
        int length = frame.remaining();
        if (buffer == null) {
            buffer = ByteBuffer.allocate(BUFFER_BYTES);
        }
        boolean direct = length >= buffer.capacity() / 4;
        if (direct || length > buffer.remaining()) {
            flushLocked();
        }
        if (direct) {
            // A run of frames from one socket read (often 64 KiB): written as it is, not copied first.
            writeFully(frame, at);
            flushed = at + length;
        } else {
            buffer.put(frame);
        }
        end = at + length;
        return at;
    }

    /** Writes out the buffered tail and lets the buffer go: the query is complete. */
    public synchronized void finish() throws IOException {
        flushLocked();
        buffer = null;
    }

    private void flushLocked() throws IOException {
        if (buffer == null || buffer.position() == 0) {
            return;
        }
        buffer.flip();
        long at = flushed;
        int length = buffer.remaining();
        writeFully(buffer, at);
        buffer.clear();
        flushed = at + length;
    }

    private void writeFully(ByteBuffer bytes, long position) throws IOException {
        while (bytes.hasRemaining()) {
            position += channel.write(bytes, position);
        }
    }

    public long size() {
        return end;
    }

    /** One frame, read into a fresh little-endian buffer. */
    public ByteBuffer read(long offset, int length) throws IOException {
        if (offset + length > flushed) {
            synchronized (this) {
                flushLocked();
            }
        }
        ByteBuffer out = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (out.hasRemaining()) {
            if (channel.read(out, offset + out.position()) < 0) {
                throw new EOFException(path + ": frame at " + offset + " runs past the end of the tee");
            }
        }
        return out.flip();
    }

    @Override
    public synchronized void close() throws IOException {
        flushLocked();
        channel.close();
    }

    /** Closes and removes the file. */
    public synchronized void delete() throws IOException {
        channel.close();
        Files.deleteIfExists(path);
    }
}
