package io.trigrep.frontend.store;

import io.trigrep.indexer.format.DirectIo;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedByInterruptException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * A query's tee: every frame the backends sent, appended as received (no conversion), and read
 * back one frame at a time by offset and length when a page is rendered. The file is the frames
 * end to end, nothing else. One writer thread; reads are positional and may come from any thread.
 *
 * <p>Appends gather in 1 MiB buffers written when full, up to {@link #DEPTH} at once by the I/O
 * executor while the writer fills the next. By default they go through the page cache; with
 * direct I/O ({@code direct}) block-aligned buffers go to the device as they are, and where the
 * file system refuses it, through the page cache.
 *
 * <p>Invariants, under the monitor: bytes {@code [0, flushed)} are in the file for good, and
 * {@code flushed} is a multiple of the block size; {@code [flushed, submitted)} are being written
 * from buffers in flight; {@code [submitted, end)} are at the start of {@link #buffer} while there
 * is one, and in the file once {@link #finish} let the buffers go. The tail always goes through
 * the page cache, so that no answer waits for the device.
 *
 * <p>The file is created by the first append, on the writer thread (a query starts on an event
 * loop, which must not wait for the disk), and opened once; the direct channel only when the first
 * buffer fills, which a selective answer never does. Offsets are readable the moment {@link
 * #append} returns: a read past {@code flushed} waits for the writes in flight and takes the rest
 * from the buffer.
 */
public final class TeeFile implements Closeable {
    private static final int BUFFER_BYTES = TeeBuffers.BUFFER_BYTES;
    public static final int DEPTH = 4;
    private static final long REMOVE_STEP_BYTES = 32L << 20;
    private static final long REMOVE_PAUSE_MILLIS = 20;

    private final Path path;
    /**
     * Null until the first append creates the file; then open until closed: reads, the tail, and
     * full buffers where direct I/O is off or refused.
     */
    private volatile FileChannel file;
    /** The direct channel full buffers are written through; null until the first buffer fills, or without direct I/O. */
    private FileChannel directWrites;
    /** Whether the first full buffer tried to open {@link #directWrites}: once per file, refused or not. */
    private boolean directTried;

    private final Executor io;
    /** Whether to try direct I/O when the file is created. */
    private final boolean tryDirect;
    /** Direct writes' alignment when the caller knows it; 0 to find it when the file is created. */
    private final int alignment;
    /**
     * Alignment of the buffers' addresses, which direct writes need (their positions and lengths
     * are whole buffers); 1 without direct I/O. Set when the file is created.
     */
    private int block = 1;

    private volatile long end;
    private volatile long flushed;
    private long submitted;
    /** File positions of the buffers being written, in the order they were handed to {@link #io}. */
    private final long[] inFlight = new long[DEPTH];

    private int inFlightCount;
    private IOException writeFailure;
    /** The buffer being filled: exactly {@link #BUFFER_BYTES}, block-aligned; null once the query is done. */
    private ByteBuffer buffer;

    private final ArrayDeque<ByteBuffer> spare = new ArrayDeque<>();
    /** The buffers taken from {@link #buffers} (at most {@link #DEPTH}), to give them back. */
    private final List<TeeBuffers.Buffer> allocations = new ArrayList<>();
    /** Where buffers come from and go back to. */
    private final TeeBuffers buffers;

    /** A tee whose full buffers are written by the thread that appends, in buffers of its own. */
    public TeeFile(Path path) throws IOException {
        this(path, Runnable::run, true);
    }

    /** Full buffers are written on {@code io}, which must not run them on a thread that waits for this tee. */
    public TeeFile(Path path, Executor io) throws IOException {
        this(path, io, true);
    }

    /** {@code direct} false writes through the page cache even where direct I/O is possible (tests both). */
    TeeFile(Path path, Executor io, boolean direct) throws IOException {
        this(path, io, direct, 0, new TeeBuffers(0));
    }

    /**
     * Full buffers are written on {@code io}, with direct I/O when {@code direct} and the file
     * system allows it, else through the page cache; direct writes are aligned to {@code
     * alignment}, the folder's {@link #directAlignment} found once by the caller rather than once
     * per query (the lookup reads the mount table), or 0 to find it when the file is created;
     * buffers come from {@code buffers}, shared by the tees.
     */
    public TeeFile(Path path, Executor io, boolean direct, int alignment, TeeBuffers buffers) {
        if (alignment != 0 && (alignment < 512 || alignment > BUFFER_BYTES || Integer.bitCount(alignment) != 1)) {
            throw new IllegalArgumentException(
                    "alignment must be a power of two in [512, " + BUFFER_BYTES + "], got " + alignment);
        }
        this.path = path;
        this.io = io;
        this.tryDirect = direct;
        this.alignment = alignment;
        this.buffers = buffers;
    }

    /** Creates the file and opens it, once. Under the monitor. */
    private void create() throws IOException {
        if (file != null) {
            return;
        }
        file = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        block = tryDirect ? (alignment != 0 ? alignment : directAlignment(path.getParent())) : 1;
    }

    /** The channel full buffers go through: the direct one, opened by the first, else {@link #file}. Under the monitor. */
    private FileChannel fullBufferChannel() {
        if (!directTried && tryDirect) {
            directTried = true;
            directWrites = DirectIo.openForWrites(path);
        }
        return directWrites != null ? directWrites : file;
    }

    /** The alignment direct writes need in {@code folder}: its file system's block size, or 4096 when unknown. */
    public static int directAlignment(Path folder) {
        return DirectIo.alignment(folder, BUFFER_BYTES);
    }

    public Path path() {
        return path;
    }

    /** True when full buffers bypass the page cache (known once the first buffer filled). */
    public synchronized boolean direct() {
        return directWrites != null;
    }

    /** Appends the frame (position to limit; consumed); returns the offset it starts at. */
    public synchronized long append(ByteBuffer frame) throws IOException {
        throwIfFailed();
        long at = end;
        ensureBuffer();
        int limit = frame.limit();
        while (frame.hasRemaining()) {
            int n = Math.min(frame.remaining(), buffer.remaining());
            frame.limit(frame.position() + n);
            buffer.put(frame);
            frame.limit(limit);
            end += n;
            if (!buffer.hasRemaining()) {
                submit();
            }
        }
        return at;
    }

    /** Hands the full buffer to the I/O executor and takes a spare one, waiting while {@link #DEPTH} are in flight. */
    private void submit() throws IOException {
        ByteBuffer full = buffer;
        long position = submitted;
        buffer = null;
        inFlight[inFlightCount++] = position;
        submitted += BUFFER_BYTES;
        full.flip();
        FileChannel channel = fullBufferChannel();
        io.execute(() -> {
            IOException failure = null;
            try {
                writeFully(channel, full, position);
            } catch (IOException e) {
                failure = e;
            }
            written(full, position, failure);
        });
        while (spare.isEmpty() && allocations.size() >= DEPTH && writeFailure == null) {
            awaitWrite();
        }
        throwIfFailed();
        buffer = spare.isEmpty() ? allocate() : spare.pop();
        buffer.clear();
    }

    private synchronized void written(ByteBuffer full, long position, IOException failure) {
        int i = 0;
        while (inFlight[i] != position) {
            i++;
        }
        System.arraycopy(inFlight, i + 1, inFlight, i, inFlightCount - i - 1);
        inFlightCount--;
        flushed = inFlightCount == 0 ? submitted : inFlight[0];
        if (failure != null && writeFailure == null) {
            writeFailure = failure;
        }
        spare.push(full); // buffers are freed only once no write is in flight
        notifyAll();
    }

    /** Waits for one write to finish (or a spurious wakeup): every caller loops on its own condition. */
    @SuppressWarnings("WaitNotInLoop") // the loops are the callers'
    private void awaitWrite() throws IOException {
        try {
            wait();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException(path + ": interrupted while waiting for the disk");
        }
    }

    private void awaitAllWrites() throws IOException {
        while (inFlightCount > 0) {
            awaitWrite();
        }
        throwIfFailed();
    }

    private void throwIfFailed() throws IOException {
        if (writeFailure != null) {
            throw new IOException(path + ": " + writeFailure.getMessage(), writeFailure);
        }
    }

    private ByteBuffer allocate() {
        TeeBuffers.Buffer b = buffers.take(block);
        allocations.add(b);
        return b.aligned();
    }

    private void ensureBuffer() throws IOException {
        if (buffer != null) {
            return;
        }
        create();
        buffer = allocate();
        // After finish, the last partial block lives only in the file: bring it back, since
        // direct writes cannot start inside a block.
        int tail = (int) (end - submitted);
        buffer.limit(tail);
        readFully(buffer, submitted);
        buffer.limit(BUFFER_BYTES);
    }

    /** Waits for the writes in flight, writes out the buffered tail and lets the buffers go: the query is complete. */
    public synchronized void finish() throws IOException {
        if (buffer == null) {
            return;
        }
        awaitAllWrites();
        int tail = buffer.position();
        if (tail > 0) {
            buffer.limit(tail).position(0);
            writeFully(file, buffer, submitted);
            // submitted and flushed stay block-aligned; the tail is in the file now and no longer buffered
        }
        free();
    }

    /** Gives every buffer back; only when none is in flight (the I/O executor would write from memory another tee then fills). */
    private void free() {
        for (TeeBuffers.Buffer b : allocations) {
            buffers.give(b);
        }
        allocations.clear();
        spare.clear();
        buffer = null;
    }

    private static void writeFully(FileChannel channel, ByteBuffer bytes, long position) throws IOException {
        while (bytes.hasRemaining()) {
            position += channel.write(bytes, position);
        }
    }

    private void readFully(ByteBuffer into, long position) throws IOException {
        while (into.hasRemaining()) {
            int n = file.read(into, position);
            if (n < 0) {
                throw new EOFException(path + ": " + into.remaining() + " bytes missing at " + position);
            }
            position += n;
        }
    }

    public long size() {
        return end;
    }

    /** One frame, read into a fresh little-endian buffer. */
    public ByteBuffer read(long offset, int length) throws IOException {
        if (offset < 0 || length < 0 || offset + length > end) {
            throw new EOFException(path + ": frame at " + offset + " runs past the end of the tee (" + end + " bytes)");
        }
        ByteBuffer out = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
        if (offset + length <= flushed) {
            readFully(out, offset);
            return out.flip();
        }
        synchronized (this) {
            awaitAllWrites();
            if (buffer == null) {
                readFully(out, offset);
                return out.flip();
            }
            // The part before the buffer is in the file now; a range that ended below it (it only
            // waited for writes in flight) is read from the file alone.
            long fromFile = Math.min(length, Math.max(0, submitted - offset));
            out.limit((int) fromFile);
            readFully(out, offset);
            out.limit(length);
            if (fromFile < length) {
                ByteBuffer buffered = buffer.duplicate();
                int from = (int) (offset + fromFile - submitted);
                buffered.limit(from + length - (int) fromFile).position(from);
                out.put(buffered);
            }
        }
        return out.flip();
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            finish();
        } finally {
            drain();
            closeChannels();
        }
    }

    private void closeChannels() throws IOException {
        try {
            if (directWrites != null) {
                directWrites.close();
            }
        } finally {
            if (file != null) {
                file.close();
            }
        }
    }

    /**
     * Closes the file and removes it, a large one cut down {@link #REMOVE_STEP_BYTES} at a time with
     * a pause after each cut, so that freeing its blocks never stalls other queries' writes on a
     * file system that discards them. Slow for a large file: call it off the request path.
     */
    public void delete() throws IOException {
        synchronized (this) {
            drain();
            closeChannels();
        }
        if (file == null) {
            return; // never created
        }
        // Off the monitor: nothing else touches a closed tee, and the cuts take a while.
        remove(path);
    }

    /**
     * Removes {@code path}, a file within one step at once, a larger one cut down
     * {@link #REMOVE_STEP_BYTES} at a time (see {@link #delete}).
     */
    static void remove(Path path) throws IOException {
        long size;
        try {
            size = Files.size(path);
        } catch (NoSuchFileException e) {
            return;
        }
        if (size <= REMOVE_STEP_BYTES) {
            Files.deleteIfExists(path);
            return;
        }
        try (FileChannel shrink = FileChannel.open(path, StandardOpenOption.WRITE)) {
            for (long left = shrink.size(); left > REMOVE_STEP_BYTES; ) {
                left -= REMOVE_STEP_BYTES;
                shrink.truncate(left);
                Thread.sleep(REMOVE_PAUSE_MILLIS);
            }
        } catch (NoSuchFileException e) {
            return;
        } catch (ClosedByInterruptException e) {
            // Interrupted before or during a cut: the channel refused it and the interrupt stays
            // set. The file is removed at once below, as after an interrupted pause.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // removed at once below
        }
        Files.deleteIfExists(path);
    }

    /** Waits for the writes in flight whatever their outcome, then frees the buffers. */
    private void drain() {
        boolean interrupted = false;
        while (inFlightCount > 0) {
            try {
                wait();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        free();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
