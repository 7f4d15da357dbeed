package io.trigrep.backend;

import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.capnproto.MessageBuilder;

/**
 * A test's connection to a backend that reads an answer frame by frame, as slowly as the test
 * likes (with a small receive buffer, a backend whose answer it does not read is soon held by
 * backpressure), until the done or error message: file matches included, which
 * {@code BackendClient} takes for an answer's last message.
 */
public final class StreamClient implements AutoCloseable {
    private final SocketChannel channel;

    /** A connection with the system's receive buffer. */
    public StreamClient(InetSocketAddress backend) throws IOException {
        this(backend, 0);
    }

    /** A connection with a receive buffer of {@code receiveBuffer} bytes (0: the system's). */
    public StreamClient(InetSocketAddress backend, int receiveBuffer) throws IOException {
        channel = SocketChannel.open();
        if (receiveBuffer > 0) {
            channel.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
        }
        channel.connect(backend);
    }

    public void send(MessageBuilder request) throws IOException {
        Framing.write(request, channel);
    }

    /** The next message of the answer; blocks until it has come. */
    public Response.Reader next() throws IOException {
        ByteBuffer frame = Framing.readFrame(channel, FrameLimits.DEFAULT);
        if (frame == null) {
            throw new java.io.EOFException("the backend closed the connection before the answer ended");
        }
        return Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
    }

    /** Takes each message of an answer. */
    public interface Handler {
        void message(Response.Reader response) throws IOException;
    }

    /** Sends {@code request} and hands every message of the answer, the done or error message included, to {@code handler}. */
    public static void exchange(InetSocketAddress backend, MessageBuilder request, Handler handler) throws IOException {
        try (StreamClient client = new StreamClient(backend)) {
            client.send(request);
            while (true) {
                Response.Reader r = client.next();
                handler.message(r);
                if (r.which() == Response.Which.DONE || r.which() == Response.Which.ERROR) {
                    return;
                }
            }
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
