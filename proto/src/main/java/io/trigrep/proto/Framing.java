package io.trigrep.proto;

import io.netty.buffer.ByteBuf;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import org.capnproto.MessageBuilder;

/**
 * The standard Cap'n Proto stream framing (a segment table, then the segments), over Netty
 * buffers and NIO channels. The byte layout and its limits are documented in package-info.java.
 */
public final class Framing {
    private Framing() {}

    /** Nesting is at most three deep in trigrep.capnp; anything deeper is hostile. */
    static final int NESTING_LIMIT = 16;
    /** Each word may be read this many times before the runtime refuses: bounds amplification by shared pointers. */
    private static final int TRAVERSAL_FACTOR = 8;

    /** Bytes of segment table for a message of {@code segments} segments, padding included. */
    static int tableBytes(int segments) {
        return ((4 + 4 * segments) + 7) & ~7;
    }

    /** The whole frame's size in bytes, segment table included. */
    public static int frameBytes(MessageBuilder message) {
        ByteBuffer[] segments = message.getSegmentsForOutput();
        long total = tableBytes(segments.length);
        for (ByteBuffer segment : segments) {
            total += segment.remaining();
        }
        return Math.toIntExact(total);
    }

    /** Appends one framed message to {@code out}. */
    public static void write(MessageBuilder message, ByteBuf out) {
        ByteBuffer[] segments = message.getSegmentsForOutput();
        out.writeIntLE(segments.length - 1);
        for (ByteBuffer segment : segments) {
            out.writeIntLE(segment.remaining() / 8);
        }
        if ((segments.length & 1) == 0) {
            out.writeIntLE(0);
        }
        for (ByteBuffer segment : segments) {
            out.writeBytes(segment);
        }
    }

    /** Writes one framed message to {@code channel}; returns the bytes written. */
    public static long write(MessageBuilder message, WritableByteChannel channel) throws IOException {
        ByteBuffer[] segments = message.getSegmentsForOutput();
        ByteBuffer table = ByteBuffer.allocate(tableBytes(segments.length)).order(ByteOrder.LITTLE_ENDIAN);
        table.putInt(segments.length - 1);
        for (ByteBuffer segment : segments) {
            table.putInt(segment.remaining() / 8);
        }
        table.clear();
        long written = writeFully(channel, table);
        for (ByteBuffer segment : segments) {
            written += writeFully(channel, segment);
        }
        return written;
    }

    private static long writeFully(WritableByteChannel channel, ByteBuffer buffer) throws IOException {
        long written = 0;
        while (buffer.hasRemaining()) {
            written += channel.write(buffer);
        }
        return written;
    }

    /**
     * The size of the frame that starts at {@code index}, or -1 while fewer bytes than its
     * segment table are readable. Reads nothing beyond the table. Allocates one view of the
     * table's bytes: a caller walking many frames takes one NIO view of them all and uses
     * {@link #frameLength(ByteBuffer, int, int, FrameLimits)}.
     *
     * @throws MalformedMessageException when the table is invalid or the frame exceeds the limits
     */
    public static long frameLength(ByteBuf in, int index, int readable, FrameLimits limits)
            throws MalformedMessageException {
        ByteBuffer table = in.nioBuffer(index, Math.min(readable, tableBytes(limits.maxSegments())));
        return frameLength(table, table.position(), readable, limits);
    }

    /**
     * Same as {@link #frameLength(ByteBuf, int, int, FrameLimits)} for the frame at absolute
     * index {@code at} of {@code in} (either byte order; the table is read as little-endian),
     * {@code readable} bytes from there being available. Allocates nothing.
     */
    public static long frameLength(ByteBuffer in, int at, int readable, FrameLimits limits)
            throws MalformedMessageException {
        if (readable < 8) {
            return -1;
        }
        long segments = uint32(in, at) + 1;
        if (segments > limits.maxSegments()) {
            throw new MalformedMessageException(
                    "segment table announces " + segments + " segments, limit is " + limits.maxSegments());
        }
        int table = tableBytes((int) segments);
        if (readable < table) {
            return -1;
        }
        long total = table;
        for (int i = 0; i < segments; i++) {
            total += uint32(in, at + 4 + 4 * i) * 8;
            if (total > limits.maxMessageBytes()) {
                throw new MalformedMessageException(
                        "segment table announces over " + total + " bytes, limit is " + limits.maxMessageBytes());
            }
        }
        if (uint32(in, at + 4) == 0) {
            throw new MalformedMessageException("segment 0 is empty: a message needs at least its root pointer");
        }
        return total;
    }

    private static long uint32(ByteBuffer in, int index) {
        int v = in.getInt(index);
        return (in.order() == ByteOrder.LITTLE_ENDIAN ? v : Integer.reverseBytes(v)) & 0xffffffffL;
    }

    /** Same as {@link #frameLength(ByteBuf, int, int, FrameLimits)} over a NIO buffer's remaining bytes. */
    public static long frameLength(ByteBuffer in, FrameLimits limits) throws MalformedMessageException {
        return frameLength(in, in.position(), in.remaining(), limits);
    }

    /**
     * Parses exactly one frame: {@code frame} must hold it from position to limit, nothing more.
     * The message views {@code frame}'s memory; it stays valid only while that memory does.
     */
    public static FramedMessage read(ByteBuffer frame, FrameLimits limits) throws MalformedMessageException {
        long length = frameLength(frame, limits);
        if (length < 0 || length > frame.remaining()) {
            throw new MalformedMessageException("truncated frame: " + frame.remaining() + " bytes, segment table needs "
                    + (length < 0 ? "more" : Long.toString(length)));
        }
        if (length != frame.remaining()) {
            throw new MalformedMessageException(
                    "frame is " + length + " bytes but " + frame.remaining() + " were given");
        }
        ByteBuffer le = frame.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int base = le.position();
        int segments = le.getInt(base) + 1;
        ByteBuffer[] slices = new ByteBuffer[segments];
        int at = base + tableBytes(segments);
        long words = 0;
        for (int i = 0; i < segments; i++) {
            int bytes = le.getInt(base + 4 + 4 * i) * 8;
            slices[i] = le.slice(at, bytes).order(ByteOrder.LITTLE_ENDIAN);
            at += bytes;
            words += bytes / 8;
        }
        return new FramedMessage(slices, Math.max(1024, words * TRAVERSAL_FACTOR));
    }

    /** Parses one frame held in {@code frame}'s readable bytes, without copying them. */
    public static FramedMessage read(ByteBuf frame, FrameLimits limits) throws MalformedMessageException {
        return read(frame.nioBuffer(frame.readerIndex(), frame.readableBytes()), limits);
    }

    /** Reads the frame stored at {@code offset} with {@code length} bytes, e.g. from a tee file. */
    public static FramedMessage read(FileChannel channel, long offset, int length, FrameLimits limits)
            throws IOException {
        if (length < 8 || length > limits.maxMessageBytes()) {
            throw new MalformedMessageException("frame length " + length + " at offset " + offset + " is outside [8, "
                    + limits.maxMessageBytes() + "]");
        }
        ByteBuffer frame = ByteBuffer.allocate(length);
        while (frame.hasRemaining()) {
            if (channel.read(frame, offset + frame.position()) < 0) {
                throw new EOFException("file ends inside the frame at offset " + offset + " (" + frame.position()
                        + " of " + length + " bytes)");
            }
        }
        return read(frame.flip(), limits);
    }

    /**
     * Reads the next whole frame from a stream into a fresh buffer, or returns null at a clean end
     * of stream. The buffer is allocated only once the segment table has been checked.
     */
    public static ByteBuffer readFrame(ReadableByteChannel channel, FrameLimits limits) throws IOException {
        ByteBuffer first = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
        if (!fill(channel, first, true)) {
            return null;
        }
        long segments = Integer.toUnsignedLong(first.getInt(0)) + 1;
        if (segments > limits.maxSegments()) {
            throw new MalformedMessageException(
                    "segment table announces " + segments + " segments, limit is " + limits.maxSegments());
        }
        ByteBuffer table = ByteBuffer.allocate(tableBytes((int) segments)).order(ByteOrder.LITTLE_ENDIAN);
        table.put(first.flip());
        fill(channel, table, false);
        long length = frameLength(table.flip(), limits);
        ByteBuffer frame = ByteBuffer.allocate(Math.toIntExact(length)).order(ByteOrder.LITTLE_ENDIAN);
        frame.put(table.rewind());
        fill(channel, frame, false);
        return frame.flip();
    }

    private static boolean fill(ReadableByteChannel channel, ByteBuffer buffer, boolean endAllowed) throws IOException {
        int start = buffer.position();
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer);
            if (n < 0) {
                if (endAllowed && buffer.position() == start) {
                    return false;
                }
                throw new EOFException(
                        "stream ends inside a frame (" + buffer.position() + " of " + buffer.limit() + " bytes)");
            }
        }
        return true;
    }
}
