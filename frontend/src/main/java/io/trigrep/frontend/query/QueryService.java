package io.trigrep.frontend.query;

import io.trigrep.frontend.fanout.CorpusStatus;
import io.trigrep.frontend.fanout.FanOut;
import io.trigrep.frontend.fanout.FileFetch;
import io.trigrep.frontend.fanout.QueryCache;
import io.trigrep.frontend.fanout.QueryCaps;
import io.trigrep.frontend.fanout.QueryRun;
import io.trigrep.frontend.fanout.Readiness;
import io.trigrep.frontend.fanout.ShardStatus;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.proto.Failure;
import io.trigrep.proto.FileResultsIndex;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.QueryException;
import io.trigrep.query.QueryParser;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The queries and files behind the JSON API and the web UI alike, which only render what it
 * answers. It starts a search or joins an identical one: the query is checked with the backends'
 * own code (a bad one is refused here, before any backend is asked; a full scan is known as one),
 * a running or finished identical query is shared through the {@link QueryCache}, and only a new
 * one is admitted ({@link Admission}) and fanned out under the per-query {@link QueryCaps}. It
 * says how a run stands, reads its results back, and fetches files and readiness from the
 * backends. Fetches and readiness block: callers run them off the event loop.
 */
public final class QueryService {
    static final Duration DEADLINE = Duration.ofSeconds(30);
    /** Context lines asked of the backends per result: every user's query asks this many. */
    public static final int CONTEXT_LINES = 2;
    /** How long a file fetch or a readiness ping waits for one backend. */
    static final int BACKEND_TIMEOUT_MILLIS = 1000;

    /** How a run stands, in the order the views check: the first that holds is the answer. */
    public enum Outcome {
        /** Not done yet. */
        RUNNING,
        /** The frontend itself failed while running it. */
        CRASHED,
        /** A backend refused the query. */
        BAD_QUERY,
        /** The frontend's disk could not take the results. */
        DISK_FULL,
        /** Every shard failed. */
        NO_SHARD,
        /** Results, perhaps partial. */
        ANSWERED
    }

    /** How far a run is: shards and files done, results so far. */
    public record Progress(
            int shardsTotal, int shardsDone, int shardsFailed, long filesSearched, long filesTotal, int results) {}

    /** A running query, for operators. */
    public record Running(String mode, String query, int resultsSoFar) {}

    /**
     * Whether the frontend should get traffic; {@code disk} says why not when its disk is short,
     * {@code unreachable} lists backends down, {@code warming} says it is still warming up.
     */
    public record Ready(boolean ready, String disk, List<String> unreachable, boolean warming) {}

    private final FanOut fanOut;
    private final QueryCache cache;
    private final Admission admission;
    private final QueryCaps caps;
    private final CorpusStatus corpus;
    /** True from {@link #warming} until {@link #warmed}: not ready meanwhile, whatever the backends say. */
    private volatile boolean warming;

    /** At most {@code maxQueries} new searches at once, {@code maxExpensive} of them full scans, {@code maxPerClient} per client. */
    public QueryService(
            FanOut fanOut,
            QueryCache cache,
            CorpusStatus corpus,
            int maxQueries,
            int maxExpensive,
            int maxPerClient,
            QueryCaps caps) {
        this.fanOut = fanOut;
        this.cache = cache;
        this.corpus = corpus;
        this.caps = caps;
        this.admission = new Admission(
                maxQueries,
                maxExpensive,
                maxPerClient,
                reason -> fanOut.metrics().rejected(reason.label));
    }

    /**
     * A query's cache entry as a request got it; {@code cached} when the request neither started
     * its run nor joined it running, but found it finished.
     */
    public record Opened(QueryCache.Entry entry, boolean cached) {}

    /**
     * The entry for the query, to {@link #release} once read. Throws the query's error, or why a
     * new search was not admitted; a running or finished identical query is never refused.
     */
    @SuppressWarnings(
            "FutureReturnValueIgnored") // a completion callback run for its effect: nothing waits on the stage it
    // returns
    public Opened start(String client, String mode, String query, boolean fresh)
            throws IOException, QueryException, Admission.Rejected {
        String text = query.strip();
        boolean literal = mode.equals("literal");
        // The backends would refuse it in the same words; refused here, it costs them nothing.
        // Parsing and planning are bounded by the query's length (4,096) and program size (20,000).
        // Parsed as given, so that an error's position counts the blanks before the first term.
        CompiledQuery compiled = CompiledQuery.of(QueryParser.parse(query, literal));
        boolean[] started = {false};
        QueryCache.Entry entry = cache.acquire(key(mode, query), fresh, () -> {
            started[0] = true;
            Admission.Ticket ticket = admission.admit(client, compiled.fullScan());
            QueryRun run;
            try {
                run = fanOut.search(
                        text,
                        literal,
                        CONTEXT_LINES,
                        DEADLINE,
                        caps(compiled.query().count()));
            } catch (IOException | RuntimeException e) {
                ticket.release();
                throw e;
            }
            run.completion().whenComplete((done, failure) -> ticket.release());
            return run;
        });
        return new Opened(entry, !started[0] && entry.run().completion().isDone());
    }

    /**
     * The caps of a query with {@code count:N} (0: none): the server's, the results' lowered to N,
     * but not below one per shard, since each shard is asked for its part and a part of none would
     * ask for the backend's own cap.
     */
    QueryCaps caps(int count) {
        int least = Math.max(count, fanOut.shardNames().size());
        return count > 0 && least < caps.maxResults() ? new QueryCaps(least, caps.maxBytes(), true) : caps;
    }

    /** Gives back an entry from {@link #start}: the run may be evicted once no one reads it. */
    public void release(QueryCache.Entry entry) {
        cache.release(entry);
    }

    /** Cancels the running query of this mode and text; false when none is running. */
    public boolean cancel(String mode, String query) {
        QueryRun running = cache.runningQuery(key(mode, query));
        if (running == null) {
            return false;
        }
        running.cancel();
        return true;
    }

    /** Identical queries share one run: the key is the mode and the query without outer blanks. */
    static String key(String mode, String query) {
        return mode + "\u0000" + query.strip();
    }

    public static Outcome outcome(QueryRun run) {
        if (!run.completion().isDone()) {
            return Outcome.RUNNING;
        } else if (run.completion().isCompletedExceptionally()) {
            return Outcome.CRASHED;
        } else if (run.errorCode() == Failure.Code.BAD_QUERY) {
            return Outcome.BAD_QUERY;
        } else if (run.diskFailure() != null) {
            return Outcome.DISK_FULL;
        } else if (run.failed().size() == run.statuses().size()) {
            // A run has a status per backend and a fan-out at least one backend: never true of an empty list.
            return Outcome.NO_SHARD;
        }
        return Outcome.ANSWERED;
    }

    public static Progress progress(QueryRun run) {
        List<ShardStatus> statuses = run.statuses();
        long searched = 0;
        long total = 0;
        int done = 0;
        int failed = 0;
        for (ShardStatus s : statuses) {
            searched += s.filesSearched();
            total += s.totalFiles();
            done += s.state() == ShardStatus.State.DONE ? 1 : 0;
            failed += s.state() == ShardStatus.State.FAILED ? 1 : 0;
        }
        return new Progress(
                statuses.size(), done, failed, searched, total, run.index().size());
    }

    /**
     * Result {@code r} of the run (an index into its {@link ResultIndex}), read back from its tee by
     * offset: a {@code result} (a line), one match of a {@code fileResults} (a file's lines), or a
     * {@code fileMatch} (a whole file).
     */
    public static StoredResult read(QueryRun run, int r) throws IOException {
        return read(run, new int[] {r})[0];
    }

    /** A page's span of the tee read with one call at most: a selective query's page is a few kilobytes. */
    private static final long PAGE_SPAN_BYTES = 256 << 10;

    /**
     * The {@code results} of the run (a page's), as {@link #read} reads each. When their frames lie
     * within {@link #PAGE_SPAN_BYTES} of the tee, as a selective query's do, the span is read once:
     * one system call per page instead of one per result, each tens of microseconds on a virtual
     * machine. Results of one frame share its reading.
     */
    public static StoredResult[] read(QueryRun run, int[] results) throws IOException {
        return read(run, results, PAGE_SPAN_BYTES);
    }

    static StoredResult[] read(QueryRun run, int[] results, long maxSpan) throws IOException {
        ResultIndex index = run.index();
        StoredResult[] out = new StoredResult[results.length];
        long first = Long.MAX_VALUE;
        long end = Long.MIN_VALUE;
        for (int r : results) {
            first = Math.min(first, index.offset(r));
            end = Math.max(end, index.offset(r) + index.length(r));
        }
        ByteBuffer span =
                results.length == 0 || end - first > maxSpan ? null : run.tee().read(first, (int) (end - first));
        Map<Long, StoredResult> frames = new HashMap<>();
        for (int i = 0; i < results.length; i++) {
            int r = results[i];
            long offset = index.offset(r);
            StoredResult same = frames.get(offset);
            if (same != null) {
                out[i] = new StoredResult(same.response(), same.file(), index.match(r));
                continue;
            }
            ByteBuffer frame;
            if (span == null) {
                frame = run.tee().read(offset, index.length(r));
            } else {
                int at = (int) (offset - first);
                frame = span.duplicate()
                        .limit(at + index.length(r))
                        .position(at)
                        .slice()
                        .order(ByteOrder.LITTLE_ENDIAN);
            }
            Response.Reader response = Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
            FileResultsIndex file = response.which() == Response.Which.FILE_RESULTS
                    ? new FileResultsIndex(response.getFileResults())
                    : null;
            out[i] = new StoredResult(response, file, index.match(r));
            frames.put(offset, out[i]);
        }
        return out;
    }

    /** The queries running now. */
    public List<Running> running() {
        List<Running> running = new ArrayList<>();
        for (String key : cache.running()) {
            int split = key.indexOf('\u0000');
            QueryRun run = cache.runningQuery(key);
            running.add(new Running(
                    key.substring(0, split),
                    key.substring(split + 1),
                    run == null ? 0 : run.index().size()));
        }
        return running;
    }

    /** Queries whose results are kept, running or finished. */
    public int cachedQueries() {
        return cache.size();
    }

    /** Bytes the kept results take on disk. */
    public long storeBytes() {
        return cache.bytes();
    }

    /** Why a file request cannot be sent to a backend, or null when it can. */
    public static String fileProblem(String pkg, String path) {
        if (pkg == null
                || path == null
                || pkg.isEmpty()
                || path.isEmpty()
                || path.startsWith("/")
                || pkg.contains("/")
                || List.of(path.split("/", -1)).contains("..")
                || pkg.equals("..")
                || path.length() > 4096) {
            return "give package=NAME and a relative path=P without ..";
        }
        return null;
    }

    /** What {@code ask} names of a file, from backend {@code preferred} when it is not -1, else from whichever has it. Blocks. */
    public FileFetch.Outcome fetch(int preferred, String pkg, String path, FileFetch.Ask ask) {
        return FileFetch.fetch(fanOut.backends(), fanOut.tls(), preferred, pkg, path, ask, BACKEND_TIMEOUT_MILLIS);
    }

    /**
     * Ready when the disk can take results and every backend answers, or, with {@code partialOk},
     * any backend. Blocks: it pings them.
     */
    public Ready readiness(boolean partialOk) {
        List<String> down = Readiness.unreachable(fanOut.backends(), fanOut.tls(), BACKEND_TIMEOUT_MILLIS);
        String disk = cache.diskShortage();
        boolean ready = !warming
                && disk == null
                && (down.isEmpty()
                        || (partialOk && down.size() < fanOut.backends().size()));
        return new Ready(ready, disk, down, warming);
    }

    /** Not ready from now until {@link #warmed}: the frontend is warming up. */
    public void warming() {
        warming = true;
    }

    /** Warming up ended (or was given up): readiness is the backends' and the disk's again. */
    public void warmed() {
        warming = false;
    }

    /** What is searchable and what was left out, as last refreshed; null before the first refresh ended. */
    public CorpusStatus.Snapshot corpus() {
        return corpus.latest();
    }

    /** The corpus status asked of the backends now. Blocks. */
    public CorpusStatus.Snapshot refreshCorpus() {
        return corpus.refresh();
    }

    /** The metrics in Prometheus' text format. */
    public String metrics() {
        return fanOut.metrics().scrape();
    }
}
