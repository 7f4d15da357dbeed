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

    public interface Handler {
        /** Returns false to stop reading (and close the connection). */
        boolean message(Response.Reader response) throws IOException;
    }

    public static void exchange(InetSocketAddress backend, MessageBuilder request, Handler handler) throws IOException {
        try (SocketChannel channel = SocketChannel.open(backend)) {
            Framing.write(request, channel);
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
