package io.trigrep.proto;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.channels.WritableByteChannel;
import java.util.function.Consumer;
import org.capnproto.MessageBuilder;

/**
 * The blocking client of a backend, plain or over mutual TLS ({@link Tls}): {@link #ask} and
 * {@link #ping} send one request on a fresh connection with timeouts and read its one answer
 * (status, file), for the frontend's pings and file fetches; a {@link Connection} carries request
 * after request and hands each message of an answer to a callback until its last one (done,
 * error, file or status), for the command-line client, benchmarks and tests. Every frame is read
 * within {@link FrameLimits#DEFAULT}. Blocking: never call it on an event loop (the frontend's
 * fan-out has its own non-blocking client).
 */
public final class BackendClient {
    /** Connect timeout of a {@link Connection} over TLS, handshake included. */
    static final int CONNECT_MILLIS = 10_000;

    private BackendClient() {}

    /**
     * A backend's address as an operator writes it, {@code host:port} (the last colon splits, so an
     * IPv6 host may be written bare); a clear refusal otherwise, naming what was given.
     */
    public static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        int port = -1;
        try {
            port = colon <= 0 ? -1 : Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            // refused below, with the whole address
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("backend must be host:port, got '" + hostPort + "'");
        }
        return new InetSocketAddress(hostPort.substring(0, colon), port);
    }

    /** Takes each message of an answer. */
    public interface Handler {
        /** Returns false to stop reading (and close the connection). */
        boolean message(Response.Reader response) throws IOException;
    }

    /**
     * The answer's frame, or null when the backend closed without one; over TLS when {@code tls}
     * is enabled. Errors do not name the backend: the callers, which ask several, do.
     */
    public static ByteBuffer ask(
            Tls tls, InetSocketAddress backend, MessageBuilder request, int connectMillis, int readMillis)
            throws IOException {
        try (Socket socket = tls.connect(backend, connectMillis, readMillis)) {
            Framing.write(request, Channels.newChannel(socket.getOutputStream()));
            return Framing.readFrame(Channels.newChannel(socket.getInputStream()), FrameLimits.DEFAULT);
        }
    }

    /** Pings a backend over plain TCP: null when it answered with its status within {@code timeoutMillis}, else why not. */
    public static String ping(InetSocketAddress backend, int timeoutMillis) {
        return ping(Tls.PLAIN, backend, timeoutMillis);
    }

    /** Pings a backend: null when it answered with its status within {@code timeoutMillis}, else why not. */
    public static String ping(Tls tls, InetSocketAddress backend, int timeoutMillis) {
        return ping(tls, backend, Messages.ping(), timeoutMillis, answer -> {});
    }

    /**
     * Sends {@code request}, a ping or a heartbeat, and hands its answer to {@code answered}
     * (on this thread, before returning): null when the answer was a status within {@code
     * timeoutMillis}, else why not.
     */
    public static String ping(
            Tls tls,
            InetSocketAddress backend,
            MessageBuilder request,
            int timeoutMillis,
            Consumer<Response.Reader> answered) {
        try {
            ByteBuffer frame = ask(tls, backend, request, timeoutMillis, timeoutMillis);
            if (frame == null) {
                return "closed without answering";
            }
            Response.Reader answer = Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
            answered.accept(answer);
            return switch (answer.which()) {
                case STATUS -> null;
                // A backend that is up but not serving (verifying or corrupt shard) says why.
                case ERROR -> answer.getError().getMessage().toString();
                default -> "no status";
            };
        } catch (IOException | RuntimeException e) {
            String tlsReason = Tls.reason(e);
            return tlsReason != null ? tlsReason : e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }

    /** Sends {@code request} over plain TCP and hands every message of its answer to {@code handler}, on a connection used once. */
    public static void exchange(InetSocketAddress backend, MessageBuilder request, Handler handler) throws IOException {
        exchange(backend, Tls.PLAIN, request, handler);
    }

    /** {@link #exchange(InetSocketAddress, MessageBuilder, Handler)} over mutual TLS when {@code tls} is enabled. */
    public static void exchange(InetSocketAddress backend, Tls tls, MessageBuilder request, Handler handler)
            throws IOException {
        try (Connection connection = new Connection(backend, tls)) {
            connection.exchange(request, handler);
        }
    }

    /** Sends a request as one write: no Nagle delay between segment table and segments. */
    static void send(WritableByteChannel channel, MessageBuilder request) throws IOException {
        ByteBuffer frame = ByteBuffer.allocate(Framing.frameBytes(request));
        ByteBuf view = Unpooled.wrappedBuffer(frame);
        view.writerIndex(0);
        Framing.write(request, view);
        while (frame.hasRemaining()) {
            channel.write(frame);
        }
    }

    /** Whether {@code which} ends an answer: anything but results and progress. */
    static boolean isLast(Response.Which which) {
        return !which.isResult() && which != Response.Which.PROGRESS;
    }

    /**
     * A kept-alive connection to one backend, without a read timeout (a search streams for as long
     * as it takes). Not thread-safe. Plain TCP reads straight into a direct buffer; TLS reads the
     * socket's decrypted stream into a heap buffer's array, since a channel over a stream would
     * copy through 8 KiB chunks.
     */
    public static final class Connection implements AutoCloseable {
        private final String backend;
        private final Closeable socket;
        private final WritableByteChannel out;
        private final InputStream in;
        private final SocketChannel channel;
        private ByteBuffer buffer;
        private final ResultPeek peek = new ResultPeek();

        public Connection(InetSocketAddress backend) throws IOException {
            this(backend, Tls.PLAIN);
        }

        /** Connects over mutual TLS when {@code tls} (a client configuration) is enabled. */
        public Connection(InetSocketAddress backend, Tls tls) throws IOException {
            this.backend = backend.getHostString() + ":" + backend.getPort();
            if (tls.enabled()) {
                Socket tlsSocket = tls.connect(backend, CONNECT_MILLIS, 0);
                socket = tlsSocket;
                out = Channels.newChannel(tlsSocket.getOutputStream());
                in = tlsSocket.getInputStream();
                channel = null;
                buffer = ByteBuffer.allocate(1 << 20);
            } else {
                channel = SocketChannel.open(backend);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                socket = channel;
                out = channel;
                in = null;
                buffer = ByteBuffer.allocateDirect(1 << 20);
            }
            buffer.order(ByteOrder.LITTLE_ENDIAN).flip();
        }

        /** Sends {@code request} and hands every message of its answer to {@code handler}. */
        public void exchange(MessageBuilder request, Handler handler) throws IOException {
            send(out, request);
            while (true) {
                Response.Reader response = Messages.response(Framing.read(next(), FrameLimits.DEFAULT));
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
                Response.Which which = Messages.peekResponse(frame);
                if (which == Response.Which.FILE_RESULTS) {
                    if (!peek.peek(frame)) {
                        throw new MalformedMessageException("malformed fileResults message from " + backend);
                    }
                    results += peek.results();
                } else if (which.isResult()) {
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

        /** The next whole frame, a view of the buffer valid until the next call. */
        private ByteBuffer next() throws IOException {
            while (true) {
                long length = buffer.remaining() >= 8 ? Framing.frameLength(buffer, FrameLimits.DEFAULT) : -1;
                if (length >= 0 && length <= buffer.remaining()) {
                    ByteBuffer frame = buffer.slice(buffer.position(), (int) length);
                    buffer.position(buffer.position() + (int) length);
                    return frame;
                }
                if (length > buffer.capacity()) {
                    ByteBuffer bigger = (buffer.isDirect()
                                    ? ByteBuffer.allocateDirect((int) length)
                                    : ByteBuffer.allocate((int) length))
                            .order(ByteOrder.LITTLE_ENDIAN);
                    bigger.put(buffer).flip();
                    buffer = bigger;
                }
                buffer.compact();
                int n = read();
                buffer.flip();
                if (n < 0) {
                    throw new EOFException("backend " + backend + " closed the connection before the answer ended");
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
}
