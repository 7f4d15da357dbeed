package io.trigrep.proto;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import org.capnproto.MessageBuilder;

/**
 * One request answered by one message, on a fresh blocking connection with timeouts: pings and
 * file fetches. Blocking: never call it on an event loop.
 */
public final class Call {
    private Call() {}

    /** The answer's frame over plain TCP, or null when the backend closed without one. */
    public static ByteBuffer ask(InetSocketAddress backend, MessageBuilder request, int connectMillis, int readMillis) throws IOException {
        return ask(Tls.PLAIN, backend, request, connectMillis, readMillis);
    }

    /** The answer's frame, or null when the backend closed without one; over TLS when {@code tls} is enabled. */
    public static ByteBuffer ask(Tls tls, InetSocketAddress backend, MessageBuilder request, int connectMillis, int readMillis)
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
        try {
            MessageBuilder ping = Messages.newBuilder();
            ping.initRoot(Request.factory).setPing();
            ByteBuffer frame = ask(tls, backend, ping, timeoutMillis, timeoutMillis);
            if (frame == null) {
                return "closed without answering";
            }
            Response.Which which = Messages.peekResponse(frame);
            if (which == Response.Which.STATUS) {
                return null;
            }
            // A backend that is up but not serving (verifying or corrupt shard) says why.
            return which == Response.Which.ERROR ? Messages.response(Framing.read(frame, FrameLimits.DEFAULT)).getError().getMessage().toString()
                    : "no status";
        } catch (IOException | RuntimeException e) {
            String tlsReason = Tls.reason(e);
            return tlsReason != null ? tlsReason : e.getMessage() == null ? e.toString() : e.getMessage();
        }
    }
}
