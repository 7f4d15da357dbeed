package io.trigrep.frontend.fanout;

import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import org.capnproto.MessageBuilder;

/** One request answered by one message, on a fresh blocking connection with timeouts. Call off the event loop. */
final class BackendCall {
    private BackendCall() {}

    /** The answer's frame, or null when the backend closed without one. */
    static ByteBuffer ask(InetSocketAddress backend, MessageBuilder request, int connectMillis, int readMillis) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(backend, connectMillis);
            socket.setSoTimeout(readMillis);
            Framing.write(request, Channels.newChannel(socket.getOutputStream()));
            return Framing.readFrame(Channels.newChannel(socket.getInputStream()), FrameLimits.DEFAULT);
        }
    }
}
