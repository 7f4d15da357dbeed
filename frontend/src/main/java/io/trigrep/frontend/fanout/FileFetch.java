package io.trigrep.frontend.fanout;

import io.trigrep.proto.Call;
import io.trigrep.proto.Failure;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.capnproto.MessageBuilder;

/**
 * Fetches one file's contents from whichever backend's shard holds it: each backend is asked in
 * turn; the first that has the file answers. Blocking; call off the event loop.
 */
public final class FileFetch {
    private FileFetch() {}

    /** The outcome: the content, or why there is none (not found, bad request, or backends down). */
    public record Outcome(byte[] content, Failure.Code code, String message) {}

    public static Outcome fetch(List<InetSocketAddress> backends, String pkg, String path, int timeoutMillis) {
        String lastFailure = null;
        boolean anyAnswered = false;
        for (InetSocketAddress backend : backends) {
            try {
                MessageBuilder request = Messages.newBuilder();
                request.initRoot(Request.factory).initFetchFile().setPackage(pkg).setPath(path);
                ByteBuffer frame = Call.ask(backend, request, timeoutMillis, 5 * timeoutMillis);
                if (frame == null) {
                    lastFailure = backend + " closed without answering";
                    continue;
                }
                Response.Reader response = Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
                anyAnswered = true;
                if (response.which() == Response.Which.FILE) {
                    org.capnproto.Data.Reader data = response.getFile().getContent();
                    byte[] content = new byte[data.size];
                    data.buffer.get(data.offset, content, 0, data.size);
                    return new Outcome(content, null, null);
                }
                if (response.which() == Response.Which.ERROR && response.getError().getCode() == Failure.Code.BAD_REQUEST) {
                    return new Outcome(null, Failure.Code.BAD_REQUEST, response.getError().getMessage().toString());
                }
            } catch (IOException e) {
                lastFailure = backend + ": " + e.getMessage();
            }
        }
        return anyAnswered ? new Outcome(null, Failure.Code.NOT_FOUND, "no file " + pkg + "/" + path)
                : new Outcome(null, Failure.Code.INTERNAL, "no backend answered: " + lastFailure);
    }
}
