package io.trigrep.indexer.format;

import java.io.Closeable;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A read-only file mapped whole and seen as buffers of chunks, so that files larger than one
 * {@code ByteBuffer} can address work. Chunks overlap by {@code maxSpan} bytes: any span of at most that length lies
 * inside one chunk and is returned as one buffer, without copying. Every access is bounds-checked
 * here, and a bad offset is a {@link CorruptIndexException} naming the file. The mapping belongs
 * to a shared arena, so {@link #close} releases it at once.
 */
public final class MappedFile implements Closeable {
    static final long DEFAULT_CHUNK = 1L << 30;
    /** Longest span one call may ask for: a whole file's contents or one posting list. */
    public static final int DEFAULT_MAX_SPAN = 64 << 20;

    private final Path path;
    private final long size;
    private final long chunk;
    private final int maxSpan;
    private final ByteBuffer[] maps;
    private final Arena arena;
    private boolean closed;

    private MappedFile(Path path, long size, long chunk, int maxSpan, ByteBuffer[] maps, Arena arena) {
        this.path = path;
        this.size = size;
        this.chunk = chunk;
        this.maxSpan = maxSpan;
        this.maps = maps;
        this.arena = arena;
    }

    public static MappedFile open(Path path) throws IOException {
        return open(path, DEFAULT_CHUNK, DEFAULT_MAX_SPAN);
    }

    static MappedFile open(Path path, long chunk, int maxSpan) throws IOException {
        Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            MemorySegment file = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            int count = (int) Math.max(1, (size + chunk - 1) / chunk);
            ByteBuffer[] maps = new ByteBuffer[count];
            for (int i = 0; i < count; i++) {
                long start = i * chunk;
                long length = Math.min(size - start, chunk + maxSpan);
                maps[i] = file.asSlice(start, length).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
            }
            return new MappedFile(path, size, chunk, maxSpan, maps, arena);
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    public long size() {
        return size;
    }

    /** A little-endian view of {@code [offset, offset + length)}, sharing the mapping. */
    public ByteBuffer slice(long offset, int length) throws CorruptIndexException {
        check(offset, length);
        int i = (int) (offset / chunk);
        return maps[i].slice((int) (offset - i * chunk), length).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * The mapping that holds {@code [offset, offset + length)} in one piece; {@link #base} gives the
     * file offset of its first byte. Lets hot loops index a buffer directly without a slice per access.
     */
    public ByteBuffer bufferFor(long offset, int length) throws CorruptIndexException {
        check(offset, length);
        return maps[(int) (offset / chunk)];
    }

    public long base(long offset) {
        return offset / chunk * chunk;
    }

    public int getInt(long offset) throws CorruptIndexException {
        check(offset, 4);
        int i = (int) (offset / chunk);
        return maps[i].getInt((int) (offset - i * chunk));
    }

    public long getLong(long offset) throws CorruptIndexException {
        check(offset, 8);
        int i = (int) (offset / chunk);
        return maps[i].getLong((int) (offset - i * chunk));
    }

    public void check(long offset, long length) throws CorruptIndexException {
        if (offset < 0 || length < 0 || offset + length > size) {
            throw new CorruptIndexException(
                    path, offset, "span of " + length + " bytes runs outside the file of " + size + " bytes");
        }
        if (length > maxSpan) {
            throw new CorruptIndexException(
                    path, offset, "span of " + length + " bytes exceeds the " + maxSpan + "-byte limit");
        }
    }

    /**
     * Releases the mapping now: a server that swaps generations must not keep a replaced file's
     * pages, or the file itself once deleted, until a collection happens to run. Meant for a file no
     * thread reads any more; a later access, through this object or a buffer it handed out, throws
     * {@link IllegalStateException}. Closing twice is harmless.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        arena.close();
    }
}
