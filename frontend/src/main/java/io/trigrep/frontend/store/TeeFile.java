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
 */
public final class TeeFile implements Closeable {
    private final Path path;
    private final FileChannel channel;
    private volatile long end;

    public TeeFile(Path path) throws IOException {
        this.path = path;
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
    }

    public Path path() {
        return path;
    }

    /** Appends the frame (position to limit); returns the offset it starts at. */
    public long append(ByteBuffer frame) throws IOException {
        long at = end;
        long position = at;
        while (frame.hasRemaining()) {
            position += channel.write(frame, position);
        }
        end = position;
        return at;
    }

    public long size() {
        return end;
    }

    /** One frame, read into a fresh little-endian buffer. */
    public ByteBuffer read(long offset, int length) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        while (out.hasRemaining()) {
            if (channel.read(out, offset + out.position()) < 0) {
                throw new EOFException(path + ": frame at " + offset + " runs past the end of the tee");
            }
        }
        return out.flip();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    /** Closes and removes the file. */
    public void delete() throws IOException {
        channel.close();
        Files.deleteIfExists(path);
    }
}
