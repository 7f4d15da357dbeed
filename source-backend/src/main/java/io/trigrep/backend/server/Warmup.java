package io.trigrep.backend.server;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.BackendClient;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Request;
import io.trigrep.proto.Response;
import io.trigrep.proto.Tls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.capnproto.MessageBuilder;

/**
 * Brings a freshly started backend to the speed of a warm one before it reports ready: searches
 * drawn from the shard's own files are sent to its own port, through the same decoder, planner,
 * kernels and encoder as a user's, in rounds, until a round is no faster than the one before or
 * the time budget is spent. A cold JVM answered its first result-heavy query several times
 * slower than a warm one; the compiler needs the hot loops run many times, on real bytes, to
 * compile them well. The shard's pages are warmed by the checksum verification that precedes
 * this (with {@code --verify off}, only the pages these searches touch).
 */
final class Warmup {
    /** What warming did: searches sent, whole rounds, time taken, and the first and last whole rounds' times (-1 without one). */
    record Outcome(
            int searches,
            int rounds,
            long nanos,
            long firstRoundNanos,
            long lastRoundNanos,
            String slowest,
            long slowestNanos) {}

    /** Results one search may send: enough to warm the encoder and the writes, bounded. */
    static final int BROAD_RESULTS = 20_000;

    private static final int MIN_ROUNDS = 2;
    private static final int SAMPLED_DOCS = 64;
    private static final int SAMPLED_BYTES = 64 << 10;

    private Warmup() {}

    /**
     * Up to {@code words} distinct identifiers (6 to 40 characters, ASCII) taken from files spread
     * over the shard's doc order, so that searches find something, in several files.
     */
    static List<String> words(Shard shard, int words) throws CorruptIndexException {
        Set<String> found = new LinkedHashSet<>();
        int docs = shard.docs().docCount();
        int step = Math.max(1, docs / SAMPLED_DOCS);
        StringBuilder word = new StringBuilder();
        for (int doc = 0; doc < docs && found.size() < words; doc += step) {
            ByteBuffer content = shard.content(doc);
            int end = content.position() + Math.min(content.remaining(), SAMPLED_BYTES);
            int taken = 0;
            for (int at = content.position(); at <= end && taken < 2; at++) {
                int b = at < end ? content.get(at) & 0xff : ' ';
                boolean part = b == '_'
                        || (b >= 'a' && b <= 'z')
                        || (b >= 'A' && b <= 'Z')
                        || (word.length() > 0 && b >= '0' && b <= '9');
                if (part) {
                    word.append((char) b);
                    continue;
                }
                if (word.length() >= 6 && word.length() <= 40 && found.add(word.toString())) {
                    taken++;
                }
                word.setLength(0);
            }
        }
        return new ArrayList<>(found);
    }

    /** The searches of one round: for each word a literal, a case-folded, a call and a word-prefix regex; one broad capped scan. */
    static List<MessageBuilder> searches(List<String> words) {
        List<MessageBuilder> out = new ArrayList<>();
        // Every search capped, as the frontend's are: a prefix as common as "stat" matches millions
        // of lines, and one such uncapped search took the whole warm-up budget.
        for (String w : words) {
            out.add(search(w, true, BROAD_RESULTS));
            out.add(search("(?i)" + w, false, BROAD_RESULTS));
            out.add(search(w + "\\s*\\(", false, BROAD_RESULTS));
            out.add(search("\\b" + w.substring(0, 4) + "[A-Za-z0-9_]*\\b", false, BROAD_RESULTS));
        }
        out.add(search("[a-z]+_[a-z]+\\(", false, BROAD_RESULTS));
        return out;
    }

    private static MessageBuilder search(String query, boolean literal, int maxResults) {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory)
                .initSearch()
                .setQuery(query)
                .setLiteral(literal)
                .setContextLines(2)
                .setMaxResults(maxResults);
        return request;
    }

    /**
     * Sends {@code round} to the backend at {@code self} again and again on one connection, for at
     * least {@link #MIN_ROUNDS} rounds, until a round takes no less than 0.9 of the one before it
     * or {@code budgetNanos} have passed. A search the backend refuses ends the warm-up: it is
     * only a warm-up, never a reason not to serve.
     */
    static Outcome run(
            InetSocketAddress self, Tls tls, List<MessageBuilder> round, long budgetNanos, LongSupplier clock)
            throws IOException {
        long start = clock.getAsLong();
        long first = -1;
        long previous = Long.MAX_VALUE;
        long last = -1;
        int searches = 0;
        int rounds = 0;
        String slowest = "";
        long slowestNanos = 0;
        try (BackendClient.Connection connection = new BackendClient.Connection(self, tls)) {
            warming:
            while (true) {
                long roundStart = clock.getAsLong();
                for (MessageBuilder search : round) {
                    boolean[] refused = {false};
                    long searchStart = clock.getAsLong();
                    connection.count(search, end -> {
                        refused[0] = end.which() == Response.Which.ERROR;
                        return true;
                    });
                    long took = clock.getAsLong() - searchStart;
                    if (took > slowestNanos) {
                        slowestNanos = took;
                        slowest = search.getRoot(Request.factory)
                                .asReader()
                                .getSearch()
                                .getQuery()
                                .toString();
                    }
                    searches++;
                    if (refused[0] || clock.getAsLong() - start > budgetNanos) {
                        break warming;
                    }
                }
                last = clock.getAsLong() - roundStart;
                first = rounds++ == 0 ? last : first;
                if (rounds >= MIN_ROUNDS && last >= previous * 9 / 10) {
                    break;
                }
                previous = last;
            }
        }
        return new Outcome(searches, rounds, clock.getAsLong() - start, first, last, slowest, slowestNanos);
    }
}
