package io.trigrep.frontend.fanout;

import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Failure;
import io.trigrep.proto.File;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.LineCut;
import io.trigrep.proto.MalformedMessageException;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.Tls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import org.capnproto.MessageBuilder;

/**
 * Fetches a file from whichever backend's shard holds it: the whole file, a window of its lines or
 * a byte range. Each backend is asked in turn; the first that has the file answers, and the
 * outcome says which one it was, so the next piece of the same file goes straight there.
 * Blocking; call off the event loop.
 */
public final class FileFetch {
    private FileFetch() {}

    /**
     * What to ask for: lines {@code [firstLine, firstLine + maxLines)} each cut at {@code maxLineBytes},
     * or a byte range when {@code byteCount > 0}; of a git repository package, the file as
     * {@code branch} holds it (empty: any branch).
     */
    public record Ask(int firstLine, int maxLines, int maxLineBytes, long byteOffset, int byteCount, String branch) {
        public static final Ask WHOLE = new Ask(0, 0, 0, 0, 0, "");

        public static Ask lines(int firstLine, int maxLines, int maxLineBytes) {
            return new Ask(firstLine, maxLines, maxLineBytes, 0, 0, "");
        }

        public static Ask bytes(long offset, int count) {
            return new Ask(0, 0, 0, offset, count, "");
        }

        public Ask onBranch(String name) {
            return new Ask(firstLine, maxLines, maxLineBytes, byteOffset, byteCount, name);
        }
    }

    /**
     * The outcome: the content with the window it covers, or why there is none (not found, bad
     * request, or backends down). {@code cutLines[i]} was cut; its full length is {@code cutBytes[i]}
     * (both as the backend sent them: unsigned, and not to be trusted beyond the window).
     */
    @SuppressWarnings("ArrayRecordComponent") // parallel arrays by design: a carrier, never compared
    public record Outcome(
            byte[] content,
            long firstLine,
            long totalLines,
            long totalBytes,
            long[] cutLines,
            long[] cutBytes,
            int backend,
            Failure.Code code,
            String message) {
        static Outcome failed(Failure.Code code, String message) {
            return new Outcome(null, 0, 0, 0, new long[0], new long[0], -1, code, message);
        }
    }

    /** The whole file (older callers). */
    public static Outcome fetch(List<InetSocketAddress> backends, Tls tls, String pkg, String path, int timeoutMillis) {
        return fetch(backends, tls, -1, pkg, path, Ask.WHOLE, timeoutMillis);
    }

    /**
     * Asks backend {@code preferred} first when it is a valid index (it had the file before), then
     * the others, each over {@code tls}.
     */
    public static Outcome fetch(
            List<InetSocketAddress> backends,
            Tls tls,
            int preferred,
            String pkg,
            String path,
            Ask ask,
            int timeoutMillis) {
        String lastFailure = null;
        boolean anyAnswered = false;
        for (int k = -1; k < backends.size(); k++) {
            int i = k < 0 ? preferred : k;
            if (i < 0 || i >= backends.size() || (k >= 0 && k == preferred)) {
                continue;
            }
            InetSocketAddress backend = backends.get(i);
            try {
                MessageBuilder request = Messages.newBuilder();
                request.initRoot(Request.factory)
                        .initFetchFile()
                        .setPackage(pkg)
                        .setPath(path)
                        .setFirstLine(ask.firstLine())
                        .setMaxLines(ask.maxLines())
                        .setMaxLineBytes(ask.maxLineBytes())
                        .setByteOffset(ask.byteOffset())
                        .setByteCount(ask.byteCount())
                        .setBranch(ask.branch());
                ByteBuffer frame = BackendClient.ask(tls, backend, request, timeoutMillis, 5 * timeoutMillis);
                if (frame == null) {
                    lastFailure = backend + " closed without answering";
                    continue;
                }
                Response.Reader response = Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
                anyAnswered = true;
                if (response.which() == Response.Which.FILE) {
                    return outcome(response.getFile(), i);
                }
                if (response.which() == Response.Which.ERROR
                        && response.getError().getCode() == Failure.Code.BAD_REQUEST) {
                    return Outcome.failed(
                            Failure.Code.BAD_REQUEST,
                            response.getError().getMessage().toString());
                }
            } catch (MalformedMessageException e) {
                lastFailure = backend + ": " + e.getMessage();
            } catch (IOException e) {
                String tlsReason = Tls.reason(e);
                lastFailure = backend + ": " + (tlsReason != null ? tlsReason : e.getMessage());
            }
        }
        return anyAnswered
                ? Outcome.failed(Failure.Code.NOT_FOUND, "no file " + pkg + "/" + path)
                : Outcome.failed(Failure.Code.INTERNAL, "no backend answered: " + lastFailure);
    }

    private static Outcome outcome(File.Reader file, int backend) {
        org.capnproto.Data.Reader data = file.getContent();
        byte[] content = new byte[data.size];
        data.buffer.get(data.offset, content, 0, data.size);
        org.capnproto.StructList.Reader<LineCut.Reader> cuts = file.getCuts();
        long[] lines = new long[cuts.size()];
        long[] bytes = new long[cuts.size()];
        for (int i = 0; i < lines.length; i++) {
            lines[i] = Integer.toUnsignedLong(cuts.get(i).getLine());
            bytes[i] = Integer.toUnsignedLong(cuts.get(i).getBytes());
        }
        return new Outcome(
                content,
                Integer.toUnsignedLong(file.getFirstLine()),
                Integer.toUnsignedLong(file.getTotalLines()),
                file.getTotalBytes(),
                lines,
                bytes,
                backend,
                null,
                null);
    }
}
