package io.trigrep.backend.server;

import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.capnproto.MessageBuilder;

/**
 * A blocking client: sends a request, then hands each response message to a callback until the
 * answer's last message (done, error, file or status). {@link #exchange} and {@link #count} use
 * a connection once; a {@link Connection} carries request after request, as a frontend does.
 * For the command-line client, benchmarks and tests; the frontend has its own non-blocking client.
 */
public final class BackendClient {
    private BackendClient() {}

    /** Sends a request as one write: no Nagle delay between segment table and segments. */
    static void send(SocketChannel channel, MessageBuilder request) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(Framing.frameBytes(request));
        io.netty.buffer.ByteBuf view = io.netty.buffer.Unpooled.wrappedBuffer(frame);
        view.writerIndex(0);
        Framing.write(request, view);
        while (frame.hasRemaining()) {
            channel.write(frame);
        }
    }

    /** Counts one search's results on a connection used once. */
    public static long count(InetSocketAddress backend, MessageBuilder request, Handler last) throws IOException {
        try (Connection connection = new Connection(backend)) {
            return connection.count(request, last);
        }
    }

    public interface Handler {
        /** Returns false to stop reading (and close the connection). */
        boolean message(Response.Reader response) throws IOException;
    }

    public static void exchange(InetSocketAddress backend, MessageBuilder request, Handler handler) throws IOException {
        try (Connection connection = new Connection(backend)) {
            connection.exchange(request, handler);
        }
    }

    /** A kept-alive connection to one backend. Not thread-safe. */
    public static final class Connection implements AutoCloseable {
        private final SocketChannel channel;
        private ByteBuffer buffer = ByteBuffer.allocateDirect(1 << 20).order(java.nio.ByteOrder.LITTLE_ENDIAN);

        public Connection(InetSocketAddress backend) throws IOException {
            channel = SocketChannel.open(backend);
            channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
            buffer.flip();
        }

        /** Sends {@code request} and hands every message of its answer to {@code handler}. */
        public void exchange(MessageBuilder request, Handler handler) throws IOException {
            send(channel, request);
            while (true) {
                ByteBuffer frame = next();
                if (frame == null) {
                    throw new java.io.EOFException("the backend closed the connection before the answer ended");
                }
                Response.Reader response = Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
                boolean last = isLast(response.which());
                if (!handler.message(response) || last) {
                    return;
                }
            }
        }

        /** Sends a search and counts its results without decoding them; the last message goes to {@code last}. */
        public long count(MessageBuilder request, Handler last) throws IOException {
            send(channel, request);
            long results = 0;
            while (true) {
                ByteBuffer frame = next();
                if (frame == null) {
                    throw new java.io.EOFException("the backend closed the connection before the answer ended");
                }
                Response.Which which = Messages.peekResponse(frame);
                if (which == Response.Which.RESULT) {
                    results++;
                } else if (which != Response.Which.PROGRESS) {
                    ByteBuffer copy = ByteBuffer.allocate(frame.remaining());
                    copy.put(frame).flip();
                    last.message(Messages.response(Framing.read(copy, FrameLimits.DEFAULT)));
                    if (isLast(which)) {
                        return results;
                    }
                }
            }
        }

        /** The next whole frame, a view of the buffer valid until the next call; null at end of stream. */
        private ByteBuffer next() throws IOException {
            while (true) {
                long length = buffer.remaining() >= 8 ? Framing.frameLength(buffer, FrameLimits.DEFAULT) : -1;
                if (length >= 0 && length <= buffer.remaining()) {
                    ByteBuffer frame = buffer.slice(buffer.position(), (int) length);
                    buffer.position(buffer.position() + (int) length);
                    return frame;
                }
                if (length > buffer.capacity()) {
                    ByteBuffer bigger = ByteBuffer.allocateDirect((int) length).order(java.nio.ByteOrder.LITTLE_ENDIAN);
                    bigger.put(buffer).flip();
                    buffer = bigger;
                }
                buffer.compact();
                int n = channel.read(buffer);
                buffer.flip();
                if (n < 0) {
                    return null;
                }
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }

    static boolean isLast(Response.Which which) {
        return which != Response.Which.RESULT && which != Response.Which.PROGRESS;
    }
}
