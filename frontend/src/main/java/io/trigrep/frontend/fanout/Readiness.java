package io.trigrep.frontend.fanout;

import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.capnproto.MessageBuilder;

/** Pings every backend (a real ping request, answered by a status message) to decide readiness. Blocking: call off the event loop. */
public final class Readiness {
    private Readiness() {}

    /** The backends that did not answer a ping within {@code timeoutMillis}, with why. */
    public static List<String> unreachable(List<InetSocketAddress> backends, int timeoutMillis) {
        List<String> down = new ArrayList<>();
        for (InetSocketAddress backend : backends) {
            String name = backend.getHostString() + ":" + backend.getPort();
            try {
                MessageBuilder ping = Messages.newBuilder();
                ping.initRoot(Request.factory).setPing();
                ByteBuffer frame = BackendCall.ask(backend, ping, timeoutMillis, timeoutMillis);
                if (frame == null || Messages.peekResponse(frame) != Response.Which.STATUS) {
                    down.add(name + " (no status)");
                }
            } catch (IOException e) {
                down.add(name + " (" + e.getMessage() + ")");
            }
        }
        return down;
    }
}
