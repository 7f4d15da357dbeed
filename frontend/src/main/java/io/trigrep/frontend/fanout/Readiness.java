package io.trigrep.frontend.fanout;

import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Tls;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/** Pings every backend (a real ping request, answered by a status message) to decide readiness. Blocking: call off the event loop. */
public final class Readiness {
    private Readiness() {}

    /** The backends that did not answer a ping within {@code timeoutMillis}, with why. */
    public static List<String> unreachable(List<InetSocketAddress> backends, Tls tls, int timeoutMillis) {
        List<String> down = new ArrayList<>();
        for (InetSocketAddress backend : backends) {
            String problem = BackendClient.ping(tls, backend, timeoutMillis);
            if (problem != null) {
                down.add(backend.getHostString() + ":" + backend.getPort() + " (" + problem + ")");
            }
        }
        return down;
    }
}
