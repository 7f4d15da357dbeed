package io.trigrep.backend.server;

import io.trigrep.backend.warm.Rounds;
import io.trigrep.backend.warm.Settling;
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
 * kernels and encoder as a user's, in rounds, until a round is no faster than the one before and
 * the JIT was quiet in it ({@link Rounds}), or the rounds' share of the budget is spent. A cold
 * JVM answered its first result-heavy query several times slower than a warm one; the compiler needs the hot loops run many times, on real
 * bytes, to compile them well. The shard's pages are warmed by the checksum verification that
 * precedes this (with {@code --verify off}, only the pages these searches touch).
 *
 * <p>Then a selective query's path (up to three rare identifiers of the shard, their literals and
 * call regexes), for at least {@link #MIN_BATCHES} batches and until its latency stops falling
 * ({@link Settling}): the rounds run it a few dozen times, and its per-search code (request
 * decoding, planning, posting-list intersection) reaches the JIT's last tier after thousands. Right after a ready stack, a selective query asked of the
 * backends directly took a median 9.6 ms, and 5.3 ms once they had answered 3,000 more.
 */
final class Warmup {
    /**
     * What warming did: searches sent in the rounds, the whole rounds (of which some after the
     * selective path), time taken and the slowest search; then the selective path: its
     * words, the timed one first (none when none was found, and then it did not run), and how it ran.
     */
    record Outcome(
            int searches,
            Rounds.Summary rounds,
            int roundsAfter,
            long nanos,
            String slowest,
            long slowestNanos,
            List<String> selective,
            Settling.Run selectivePath) {}

    /** The selective path's part of an outcome: its words, the timed one first, and how it ran. */
    private record Selective(List<String> words, Settling.Run run) {
        static final Selective NONE = new Selective(List.of(), Settling.Run.NOT_RUN);
    }

    /** Results one search may send: enough to warm the encoder and the writes, bounded. */
    static final int BROAD_RESULTS = 20_000;

    static final int MIN_ROUNDS = 2;
    /**
     * The every-file search ({@link #rarePair}) may take this part of a round's time: enough for
     * a cold JVM to scan a shard of the Linux tree to its end, which the code that ends a scan
     * (the every-file iterator, the lanes handing out chunks) must have seen before a user's
     * first such query; cut short by its deadline, it left those to be compiled again in that query.
     */
    static final int EVERY_FILE_PART = 3;
    /** The shortest deadline a round's search gets, however small the budget: a search needs a few files' time to run its code. */
    static final int MIN_SEARCH_MILLIS = 50;
    /** The share of the budget the rounds may take, in tenths: the selective path gets the rest. */
    static final int ROUNDS_SHARE = 5;
    /** Rare words tried for the selective path, at most, each asked once; the quickest that finds 1 to {@link #SELECTIVE_RESULTS} is kept. */
    static final int PROBES = 8;

    private static final int SELECTIVE_RESULTS = 100;
    /** Selective searches per batch, half of them timed (the literal); {@link Settling} weighs a batch's median. */
    private static final int BATCH = 32;

    /**
     * Batches at the least: about 5,000 searches, the calls after which HotSpot compiles a method
     * that does not loop at its last tier ({@code Tier4InvocationThreshold}). A search's own code
     * (decoding, planning) runs once per search, so no fewer make it fast, however flat the
     * latency looks: a backend that stopped after 576 searches, its median down from 2.2 to
     * 0.4 ms, still compiled for seconds under its first load.
     */
    private static final int MIN_BATCHES = 5_000 / BATCH + 1;

    private static final int PATIENCE = 8;
    /** The rounds go on while the JIT compiles for more than this part of a round's time ({@link Rounds}). */
    static final int JIT_QUIET_PART = 10;
    /** Rare words asked, at most: plans of several shapes. */
    private static final int SELECTIVE_WORDS = 3;
    /** At most this many selective searches, however the latency moves. */
    static final int MAX_SELECTIVE_SEARCHES = 12_000;

    private static final int SAMPLED_DOCS = 64;
    /** Words taken from the shard: the first four make the rounds, the long ones the selective path's candidates. */
    static final int SAMPLED_WORDS = 48;

    private static final int SAMPLED_BYTES = 64 << 10;

    private Warmup() {}

    /**
     * Up to {@code words} distinct identifiers (6 to 40 characters, ASCII) taken from files spread
     * over the shard's doc order, so that searches find something, in several files.
     */
    static List<String> words(Shard shard, int words) throws CorruptIndexException {
        Set<String> found = new LinkedHashSet<>();
        StringBuilder word = new StringBuilder();
        for (ByteBuffer content : samples(shard)) {
            if (found.size() >= words) {
                break;
            }
            int end = content.limit();
            int taken = 0;
            for (int at = 0; at <= end && taken < 2; at++) {
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

    /**
     * Two ASCII letters found next to each other least often (never, mostly) in the files {@link
     * #words} samples (the first in A-Z, a-z order when several tie). Their
     * literal has no trigram, so its plan is every file of the shard, and few files hold it, so
     * that the search reads the shard to its end: what a user's short literal or trigram-less
     * regex does. The rounds' other searches stop at their cap of results after a few hundred
     * files: on a Linux shard, during the first such query after ready (a two-letter literal),
     * the compiler compiled the every-file iterator, then threw it and the lanes' code away when
     * the scan first reached the end of the shard, and compiled them again in the next query.
     */
    static String rarePair(Shard shard) throws CorruptIndexException {
        int[] seen = new int[LETTERS * LETTERS];
        for (ByteBuffer content : samples(shard)) {
            int previous = -1;
            for (int at = 0; at < content.limit(); at++) {
                int letter = letter(content.get(at) & 0xff);
                if (previous >= 0 && letter >= 0) {
                    seen[previous * LETTERS + letter]++;
                }
                previous = letter;
            }
        }
        int best = 0;
        for (int pair = 1; pair < seen.length; pair++) {
            if (seen[pair] < seen[best]) {
                best = pair;
            }
        }
        return new String(new char[] {letterChar(best / LETTERS), letterChar(best % LETTERS)});
    }

    private static final int LETTERS = 52;

    /** 0-25 for A-Z, 26-51 for a-z, -1 for any other byte. */
    private static int letter(int b) {
        if (b >= 'A' && b <= 'Z') {
            return b - 'A';
        }
        return b >= 'a' && b <= 'z' ? 26 + b - 'a' : -1;
    }

    private static char letterChar(int letter) {
        return (char) (letter < 26 ? 'A' + letter : 'a' + letter - 26);
    }

    /** The first {@link #SAMPLED_BYTES} of up to {@link #SAMPLED_DOCS} files spread over the shard's doc order. */
    private static List<ByteBuffer> samples(Shard shard) throws CorruptIndexException {
        List<ByteBuffer> samples = new ArrayList<>();
        int docs = shard.docs().docCount();
        int step = Math.max(1, docs / SAMPLED_DOCS);
        for (int doc = 0; doc < docs; doc += step) {
            ByteBuffer content = shard.content(doc);
            samples.add(content.slice(content.position(), Math.min(content.remaining(), SAMPLED_BYTES)));
        }
        return samples;
    }

    /** The words of {@code words} of 10 characters or more, in order: rare enough, most of them, for a selective query. */
    static List<String> rare(List<String> words) {
        List<String> rare = new ArrayList<>();
        for (String w : words) {
            if (w.length() >= 10) {
                rare.add(w);
            }
        }
        return rare;
    }

    /**
     * One search of a round, and whether its answer is read slowly ({@link #STREAM_PACE_MILLIS}
     * between reads), as a frontend reads while its tee lags.
     */
    record Search(MessageBuilder request, boolean slow) {}

    /**
     * The searches of one round: for each word a literal, a case-folded, a call and a word-prefix
     * regex; one broad capped scan; the first word's literal again, read slowly ({@link
     * #stream}); the literal {@code everyFile} ({@link #rarePair}), when not null, whose plan is
     * every file, last. Each carries a deadline ({@link #searchDeadlineMillis}) so that at least
     * {@link #MIN_ROUNDS} whole rounds fit in the rounds' share of {@code budgetNanos}; the
     * every-file search may take one {@link #EVERY_FILE_PART}th of a round's time alone, the slow
     * one a {@link #STREAM_PART}th, the others share the rest.
     */
    static List<Search> searches(List<String> words, String everyFile, long budgetNanos) {
        // The shapes first, so that the deadline is shared among as many searches as the round holds.
        record Shape(String query, boolean literal) {}
        List<Shape> shapes = new ArrayList<>();
        for (String w : words) {
            shapes.add(new Shape(w, true));
            shapes.add(new Shape("(?i)" + w, false));
            shapes.add(new Shape(w + "\\s*\\(", false));
            shapes.add(new Shape("\\b" + w.substring(0, 4) + "[A-Za-z0-9_]*\\b", false));
        }
        shapes.add(new Shape("[a-z]+_[a-z]+\\(", false));
        long everyFileBudget = everyFile == null ? 0 : budgetNanos / EVERY_FILE_PART;
        long streamBudget = words.isEmpty() ? 0 : budgetNanos / STREAM_PART;
        int deadline = searchDeadlineMillis(budgetNanos - everyFileBudget - streamBudget, shapes.size());
        // Every search capped, as the frontend's are: a prefix as common as "stat" matches millions
        // of lines, and one such uncapped search took the whole warm-up budget.
        List<Search> out = new ArrayList<>();
        for (Shape shape : shapes) {
            out.add(new Search(search(shape.query(), shape.literal(), BROAD_RESULTS, deadline), false));
        }
        if (!words.isEmpty()) {
            out.add(new Search(stream(words.get(0), searchDeadlineMillis(streamBudget, 1)), true));
        }
        if (everyFile != null) {
            // Last, when the others have compiled the scan, and with time to reach the shard's end.
            out.add(new Search(
                    search(everyFile, true, BROAD_RESULTS, searchDeadlineMillis(everyFileBudget, 1)), false));
        }
        return out;
    }

    /**
     * The search a round reads slowly: {@code word}, found in many files, without the cap of the
     * others, until its deadline, {@link #STREAM_PART} of a round's time (550 ms with the default
     * budget: past two progress messages). What a user's result-heavy query does that capped
     * searches read at once never did: the
     * backend pauses when its reader lags and resumes, hands a file back mid-way, and sends
     * progress ({@code SearchExecution.PROGRESS_NANOS}). A backend restarted alone behind a warm
     * frontend had run none of it, and its first heavy query after ready threw its compiled scan
     * loop away at the first progress message, then compiled it again.
     */
    private static MessageBuilder stream(String word, int deadlineMillis) {
        return search(word, true, STREAM_RESULTS, deadlineMillis);
    }

    /** The slow search ({@link #stream}) may take this part of a round's time. */
    static final int STREAM_PART = 6;
    /** The slow search's pause before each read of the socket: its reader takes at most a buffer (1 MiB) per pause. */
    static final int STREAM_PACE_MILLIS = 20;
    /** The slow search's cap of results: its deadline ends it, not this. */
    private static final int STREAM_RESULTS = 10_000_000;

    /**
     * How long one of a round's {@code searches} may run: the rounds' share of {@code budgetNanos}
     * over one round more than {@link #MIN_ROUNDS}, and at least {@link #MIN_SEARCH_MILLIS}. A cap
     * of results alone did not bound them: on a shard of the Linux tree the first word,
     * {@code License}, is in every file's first lines, so its 20,000 results came from 20,000
     * files scanned whole, 2.4 to 4.3 s a search in a cold JVM with two backends warming on two
     * cores; the share went on five to seventeen searches, the regex shapes of the later words never
     * ran, and no round was whole. Cut short by its deadline, a search has still run its code on
     * thousands of files. The round more: a search ends at its first check past the deadline, and
     * cold ones overran it by half and more (17 searches of 294 ms took 5.1 to 6.7 s).
     */
    static int searchDeadlineMillis(long budgetNanos, int searches) {
        long share = budgetNanos / 10 * ROUNDS_SHARE;
        long each = share / ((MIN_ROUNDS + 1L) * Math.max(1, searches)) / 1_000_000L;
        return (int) Math.max(MIN_SEARCH_MILLIS, Math.min(Integer.MAX_VALUE, each));
    }

    /** Shaped as the frontend's and the CLI's searches are (FileResults), so that their code is what gets compiled. */
    private static MessageBuilder search(String query, boolean literal, int maxResults) {
        return search(query, literal, maxResults, 0);
    }

    /** The same, cut short by the backend after {@code deadlineMillis} (0: the backend's default). */
    private static MessageBuilder search(String query, boolean literal, int maxResults, int deadlineMillis) {
        MessageBuilder request = Messages.newBuilder();
        request.initRoot(Request.factory)
                .initSearch()
                .setQuery(query)
                .setLiteral(literal)
                .setContextLines(2)
                .setMaxResults(maxResults)
                .setDeadlineMillis(deadlineMillis)
                .setFileResults(true);
        return request;
    }

    /**
     * Sends {@code round} to the backend at {@code self} again and again on one connection, for at
     * least {@link #MIN_ROUNDS} rounds, until a round takes no less than 0.9 of the one before it
     * with the JIT quiet ({@link Rounds}; {@code jitMillis} tells its compile time so far) or
     * {@link #ROUNDS_SHARE} of {@code budgetNanos} have passed; then the selective path, with
     * the quickest of {@code rare}'s first {@link #PROBES} words that find a few results timed and
     * up to two more between, until its latency settles or the budget is spent; then, when the
     * rounds ended at their share with the JIT still compiling, more rounds in what is left of the
     * budget, until one ends them. A search the backend refuses ends the warm-up: it is only a
     * warm-up, never a reason not to serve.
     */
    static Outcome run(
            InetSocketAddress self,
            Tls tls,
            List<Search> round,
            List<String> rare,
            long budgetNanos,
            LongSupplier clock,
            LongSupplier jitMillis)
            throws IOException {
        long start = clock.getAsLong();
        long deadline = start + budgetNanos;
        Sender sender = new Sender(round, new Rounds(MIN_ROUNDS, jitMillis, JIT_QUIET_PART), clock);
        try (BackendClient.Connection connection = new BackendClient.Connection(self, tls)) {
            RoundsEnd end = sender.rounds(connection, start + budgetNanos / 10 * ROUNDS_SHARE);
            Selective selective =
                    end == RoundsEnd.REFUSED ? Selective.NONE : selective(connection, rare, deadline, clock);
            int before = sender.rounds.count();
            if (end == RoundsEnd.SHARE) {
                // A backend restarted alone on a Linux shard ended its share of rounds with its JIT
                // compiling 2 s a round, had its selective path settled 2.5 s later, and was ready
                // with 7.7 s of its budget unused; its first heavy query then paid for 0.45 s of compiling.
                sender.rounds(connection, deadline);
            }
            return new Outcome(
                    sender.searches,
                    sender.rounds.summary(),
                    sender.rounds.count() - before,
                    clock.getAsLong() - start,
                    sender.slowest,
                    sender.slowestNanos,
                    selective.words(),
                    selective.run());
        }
    }

    /** Why rounds ended: {@link Rounds} said so, a search was refused, or their time was spent. */
    private enum RoundsEnd {
        ENDED,
        REFUSED,
        SHARE
    }

    /** Sends a warm-up's rounds and keeps what they did. */
    private static final class Sender {
        final List<Search> round;
        final Rounds rounds;
        final LongSupplier clock;
        int searches;
        String slowest = "";
        long slowestNanos;

        Sender(List<Search> round, Rounds rounds, LongSupplier clock) {
            this.round = round;
            this.rounds = rounds;
            this.clock = clock;
        }

        /** Rounds on {@code connection} until {@link #rounds} ends them, a search is refused, or {@code until} (a clock reading) passes. */
        RoundsEnd rounds(BackendClient.Connection connection, long until) throws IOException {
            while (true) {
                long roundStart = clock.getAsLong();
                if (rounds.count() > 0 && roundStart + rounds.lastNanos() - until > 0) {
                    return RoundsEnd.SHARE; // the next round would likely end past its time
                }
                rounds.begin();
                for (Search search : round) {
                    long searchStart = clock.getAsLong();
                    long results = send(connection, search.request(), search.slow());
                    long took = clock.getAsLong() - searchStart;
                    if (took > slowestNanos && !search.slow()) {
                        slowestNanos = took;
                        slowest = queryOf(search.request());
                    }
                    searches++;
                    if (results < 0) {
                        return RoundsEnd.REFUSED;
                    }
                    if (clock.getAsLong() - until > 0) {
                        return RoundsEnd.SHARE;
                    }
                }
                if (rounds.end(clock.getAsLong() - roundStart)) {
                    return RoundsEnd.ENDED;
                }
            }
        }
    }

    /** The selective path: finds its word among {@code rare}, then sends batches until {@link Settling} says settled. */
    private static Selective selective(
            BackendClient.Connection connection, List<String> rare, long deadline, LongSupplier clock)
            throws IOException {
        try {
            return findAndRun(connection, rare, deadline, clock);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Selective.NONE;
        }
    }

    private static Selective findAndRun(
            BackendClient.Connection connection, List<String> rare, long deadline, LongSupplier clock)
            throws IOException, InterruptedException {
        java.util.TreeMap<Long, String> found = new java.util.TreeMap<>();
        for (int i = 0; i < Math.min(PROBES, rare.size()) && clock.getAsLong() - deadline < 0; i++) {
            long before = clock.getAsLong();
            long results = send(connection, search(rare.get(i), true, SELECTIVE_RESULTS + 1));
            if (results < 0) {
                return Selective.NONE;
            }
            if (results >= 1 && results <= SELECTIVE_RESULTS) {
                found.putIfAbsent(clock.getAsLong() - before, rare.get(i));
            }
        }
        if (found.isEmpty()) {
            return Selective.NONE;
        }
        // The quickest word's literal is timed; between, the call regex of each and the others' literals.
        List<String> words = found.values().stream().limit(SELECTIVE_WORDS).toList();
        MessageBuilder timed = search(words.get(0), true, BROAD_RESULTS);
        List<MessageBuilder> between = new ArrayList<>();
        for (String w : words) {
            between.add(search(w + "\\s*\\(", false, BROAD_RESULTS));
            if (!w.equals(words.get(0))) {
                between.add(search(w, true, BROAD_RESULTS));
            }
        }
        int[] turn = {0};
        Settling.Run run = new Settling(MIN_BATCHES, PATIENCE)
                .run(
                        () -> send(connection, timed) >= 0,
                        () -> send(connection, between.get(turn[0]++ % between.size())) >= 0,
                        BATCH,
                        MAX_SELECTIVE_SEARCHES,
                        deadline,
                        clock);
        return new Selective(words, run);
    }

    /** Sends one search; its results, or -1 when the backend refused it. */
    private static long send(BackendClient.Connection connection, MessageBuilder search) throws IOException {
        return send(connection, search, false);
    }

    /** Sends one search, its answer read {@code slowly} ({@link #STREAM_PACE_MILLIS} before each read) or at once. */
    private static long send(BackendClient.Connection connection, MessageBuilder search, boolean slowly)
            throws IOException {
        boolean[] refused = {false};
        BackendClient.Handler last = end -> {
            refused[0] = end.which() == Response.Which.ERROR;
            return true;
        };
        long results = connection.count(search, last, slowly ? Warmup::pace : null);
        return refused[0] ? -1 : results;
    }

    /** The slow reader's pause; interrupted, it stops pausing (the interrupt is kept for the caller). */
    private static void pace() {
        if (Thread.currentThread().isInterrupted()) {
            return;
        }
        try {
            Thread.sleep(STREAM_PACE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String queryOf(MessageBuilder search) {
        return search.getRoot(Request.factory).asReader().getSearch().getQuery().toString();
    }
}
