package io.trigrep.backend.server;

import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import io.trigrep.proto.Tls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.net.Socket;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
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
    static void send(WritableByteChannel channel, MessageBuilder request) throws IOException {
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
        exchange(backend, Tls.PLAIN, request, handler);
    }

    /** {@link #exchange(InetSocketAddress, MessageBuilder, Handler)} over mutual TLS when {@code tls} is enabled. */
    public static void exchange(InetSocketAddress backend, Tls tls, MessageBuilder request, Handler handler) throws IOException {
        try (Connection connection = new Connection(backend, tls)) {
            connection.exchange(request, handler);
        }
    }

    /**
     * A kept-alive connection to one backend. Not thread-safe. Plain TCP reads straight into a
     * direct buffer; TLS reads the socket's decrypted stream into a heap buffer's array, since a
     * channel over a stream would copy through 8 KiB chunks.
     */
    public static final class Connection implements AutoCloseable {
        private final java.io.Closeable socket;
        private final WritableByteChannel out;
        private final java.io.InputStream in;
        private final SocketChannel channel;
        private ByteBuffer buffer;

        public Connection(InetSocketAddress backend) throws IOException {
            this(backend, Tls.PLAIN);
        }

        /** Connects over mutual TLS when {@code tls} (a client configuration) is enabled. */
        public Connection(InetSocketAddress backend, Tls tls) throws IOException {
            if (tls.enabled()) {
                Socket tlsSocket = tls.connect(backend, 10_000, 0);
                socket = tlsSocket;
                out = Channels.newChannel(tlsSocket.getOutputStream());
                in = tlsSocket.getInputStream();
                channel = null;
                buffer = ByteBuffer.allocate(1 << 20);
            } else {
                channel = SocketChannel.open(backend);
                channel.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
                socket = channel;
                out = channel;
                in = null;
                buffer = ByteBuffer.allocateDirect(1 << 20);
            }
            buffer.order(java.nio.ByteOrder.LITTLE_ENDIAN).flip();
        }

        /** Sends {@code request} and hands every message of its answer to {@code handler}. */
        public void exchange(MessageBuilder request, Handler handler) throws IOException {
            send(out, request);
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
            send(out, request);
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
                    ByteBuffer bigger = (buffer.isDirect() ? ByteBuffer.allocateDirect((int) length) : ByteBuffer.allocate((int) length))
                            .order(java.nio.ByteOrder.LITTLE_ENDIAN);
                    bigger.put(buffer).flip();
                    buffer = bigger;
                }
                buffer.compact();
                int n = read();
                buffer.flip();
                if (n < 0) {
                    return null;
                }
            }
        }

        /** Reads what the socket has into the buffer (in write mode); -1 at end of stream. */
        private int read() throws IOException {
            if (channel != null) {
                return channel.read(buffer);
            }
            int n = in.read(buffer.array(), buffer.arrayOffset() + buffer.position(), buffer.remaining());
            if (n > 0) {
                buffer.position(buffer.position() + n);
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    static boolean isLast(Response.Which which) {
        return which != Response.Which.RESULT && which != Response.Which.PROGRESS;
    }
}
