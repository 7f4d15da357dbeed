package io.trigrep.backend.server;

import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.io.BufferedInputStream;
import org.capnproto.MessageBuilder;

/**
 * A blocking client for one backend request: sends the request, then hands each response
 * message to a callback until the backend closes. For the command-line client, benchmarks and
 * tests; the frontend has its own non-blocking client.
 */
public final class BackendClient {
    private BackendClient() {}

    /** Connects and sends the request as one write (no Nagle delay between table and segments). */
    private static SocketChannel open(InetSocketAddress backend, MessageBuilder request) throws IOException {
        SocketChannel channel = SocketChannel.open(backend);
        channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
        ByteBuffer frame = ByteBuffer.allocate(Framing.frameBytes(request));
        Framing.write(request, new java.nio.channels.WritableByteChannel() {
            @Override
            public int write(ByteBuffer src) {
                int n = src.remaining();
                frame.put(src);
                return n;
            }

            @Override
            public boolean isOpen() {
                return true;
            }

            @Override
            public void close() {}
        });
        frame.flip();
        while (frame.hasRemaining()) {
            channel.write(frame);
        }
        return channel;
    }

    /**
     * Reads a search's stream, counting results without decoding them; only the final done or
     * error message is decoded and handed to {@code last}. Returns the number of results.
     */
    public static long count(InetSocketAddress backend, MessageBuilder request, Handler last) throws IOException {
        long results = 0;
        try (SocketChannel channel = open(backend, request)) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            buffer.flip();
            while (true) {
                long length = buffer.remaining() >= 8 ? Framing.frameLength(buffer, FrameLimits.DEFAULT) : -1;
                if (length < 0 || length > buffer.remaining()) {
                    if (length > buffer.capacity()) {
                        ByteBuffer bigger = ByteBuffer.allocateDirect((int) length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                        bigger.put(buffer).flip();
                        buffer = bigger;
                    }
                    buffer.compact();
                    int n = channel.read(buffer);
                    buffer.flip();
                    if (n < 0) {
                        return results;
                    }
                    continue;
                }
                ByteBuffer frame = buffer.slice(buffer.position(), (int) length);
                buffer.position(buffer.position() + (int) length);
                Response.Which which = Messages.peekResponse(frame);
                if (which == Response.Which.RESULT) {
                    results++;
                } else if (which != Response.Which.PROGRESS) {
                    ByteBuffer copy = ByteBuffer.allocate((int) length);
                    copy.put(frame).flip();
                    last.message(Messages.response(Framing.read(copy, FrameLimits.DEFAULT)));
                }
            }
        }
    }

    public interface Handler {
        /** Returns false to stop reading (and close the connection). */
        boolean message(Response.Reader response) throws IOException;
    }

    public static void exchange(InetSocketAddress backend, MessageBuilder request, Handler handler) throws IOException {
        try (SocketChannel channel = open(backend, request)) {
            // Frames are small: read through a buffer, not three system calls per message.
            ReadableByteChannel in = Channels.newChannel(new BufferedInputStream(Channels.newInputStream(channel), 1 << 16));
            while (true) {
                ByteBuffer frame = Framing.readFrame(in, FrameLimits.DEFAULT);
                if (frame == null) {
                    return;
                }
                if (!handler.message(Messages.response(Framing.read(frame, FrameLimits.DEFAULT)))) {
                    return;
                }
            }
        }
    }
}
