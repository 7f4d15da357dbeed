package io.trigrep.backend.server;

import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.Tls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.LongSupplier;
import org.capnproto.MessageBuilder;

/**
 * A backend's warm-up: a fixed list of query shapes, one of each class a user sends, replayed
 * {@link #ROUNDS} times through the backend's own port (decoder, planner, kernels, encoder), or
 * until the budget is spent. Every shape is capped and streamed as a user's search is, so the
 * warm-up holds no more memory than one user query. The result-heavy shape streams as many results
 * as a heavy user query does (a small stream leaves the code of large ones cold), and the budget,
 * its deadline, ends it sooner on a slow machine; it comes last, after one of each other class.
 * A refused shape (a shard without symbols refuses {@code sym:}) is counted,
 * not fatal. The shapes need no word of the shard: a shape that finds nothing still runs the code
 * it names.
 */
final class Warmup {
    /** One query as the frontend sends it: the query text, whether it is a literal, its cap of results. */
    record Shape(String query, boolean literal, int maxResults) {}

    static final List<Shape> SHAPES = List.of(
            new Shape("main", true, 50), // selective literal
            new Shape("[a-z]+_init\\s*\\(", false, 50), // regex
            new Shape("(?i)copyright", false, 50), // case-insensitive
            new Shape("malloc\\( AND NOT free\\(", false, 50), // boolean
            new Shape("sym:^main$", false, 50), // definitions
            new Shape("path:\\.h$", false, 50), // file names
            new Shape("re", true, 200_000)); // a result-heavy stream

    static final int ROUNDS = 20;

    /** What warming did: searches answered, searches refused, rounds completed, time taken. */
    record Outcome(int answered, int refused, int rounds, long nanos) {}

    private Warmup() {}

    /**
     * Sends {@link #SHAPES} to the backend at {@code self} on one connection, round after round,
     * until {@link #ROUNDS} are done or {@code budgetNanos} have passed (checked between searches;
     * each search also carries the time left as its deadline).
     */
    static Outcome run(InetSocketAddress self, Tls tls, long budgetNanos, LongSupplier clock) throws IOException {
        long start = clock.getAsLong();
        int answered = 0;
        int refused = 0;
        int rounds = 0;
        try (BackendClient.Connection connection = new BackendClient.Connection(self, tls)) {
            rounds:
            for (; rounds < ROUNDS; rounds++) {
                for (Shape shape : SHAPES) {
                    long left = budgetNanos - (clock.getAsLong() - start);
                    if (left <= 0) {
                        break rounds;
                    }
                    if (send(connection, shape, left)) {
                        answered++;
                    } else {
                        refused++;
                    }
                }
            }
        }
        return new Outcome(answered, refused, rounds, clock.getAsLong() - start);
    }

    /** Sends one search with {@code leftNanos} as its deadline; whether it was answered rather than refused. */
    private static boolean send(BackendClient.Connection connection, Shape shape, long leftNanos) throws IOException {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory)
                .initSearch()
                .setQuery(shape.query())
                .setLiteral(shape.literal())
                .setContextLines(2)
                .setMaxResults(shape.maxResults())
                .setDeadlineMillis((int) Math.max(1, Math.min(Integer.MAX_VALUE, leftNanos / 1_000_000)))
                .setFileResults(true);
        boolean[] refused = {false};
        connection.count(request, end -> {
            refused[0] = end.which() == Response.Which.ERROR;
            return true;
        });
        return !refused[0];
    }
}
