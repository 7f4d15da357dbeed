package io.trigrep.frontend.fanout;

import io.netty.buffer.ByteBuf;
import io.trigrep.frontend.fanout.ShardStatus.Outcome;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.frontend.store.TeeFile;
import io.trigrep.proto.Done;
import io.trigrep.proto.Failure;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * One query across every backend: each backend's frames are teed to disk and indexed, in
 * arrival order, by one writer (a serial executor); a backend that fails, closes early, sends
 * bytes that do not decode or misses the deadline is marked failed with its reason, and the
 * others go on. {@link #completion} completes, with results sorted, once every backend is done
 * or failed.
 */
public final class QueryRun implements AutoCloseable {
    /** Ranks answered before the full sort: the first page at the largest page size, many at the usual ones. */
    static final int FIRST_RANKS = 1000;

    private final List<String> shards;
    private final ShardStatus[] statuses;
    /** Per shard, its backend's answer while it streams; null before it started and after it ended. */
    private final StreamHandler.Stream[] streams;

    private final TeeFile tee;
    private final ResultIndex index = new ResultIndex(FIRST_RANKS);
    private final Executor writer;
    private final CompletableFuture<QueryRun> completion = new CompletableFuture<>();
    /**
     * Runs on the writer just before {@link #completion} completes: what must be recorded by the
     * time anyone sees the run done (the fan-out's metrics). A dependent of the future would run
     * after the ones registered later, so a client could read /metrics before it ran.
     */
    private volatile java.util.function.Consumer<QueryRun> beforeCompletion = run -> {};

    private final long startedNanos = System.nanoTime();
    private volatile Failure.Code errorCode;
    private volatile String errorMessage;
    private volatile int errorPosition;
    private long elapsedNanos;
    private volatile long firstResultNanos = -1;
    private long bytesReceived;
    private final long[] shardNanos;
    /** A backend answered "done" but stopped at its own deadline: what it found depended on its load. */
    private boolean cutByDeadline;

    private final QueryCaps caps;
    /** Bytes of result frames teed per shard (progress and done frames not counted: when they come depends on timing). */
    private final long[] resultBytes;
    /** Per shard, the cap that ended it, or null. */
    private final Capped[] capped;

    /** Why the frontend's own disk could not take the results; null while it could. */
    private volatile String diskFailure;

    /** What the frontend knows of the shards' generations, shared by every run; told each {@code Done}'s. */
    private final ShardGenerations known;
    /** The tick of {@link #known} taken before any backend was asked. */
    private final long askedAt;
    /** Per shard, the newest generation known when the run began (0: none was). */
    private final long[] begunOn;
    /**
     * Per shard, the generation its answer was searched on: its {@code Done}'s, else (a backend
     * that does not say, or no {@code Done}) {@link #begunOn}, else (none was known yet) the
     * {@link ShardGenerations#first first} one known.
     */
    private final long[] searchedOn;

    QueryRun(List<String> shards, TeeFile tee, Executor pool) {
        this(shards, tee, pool, pool, QueryCaps.forCache(1L << 30), new ShardGenerations(shards.size()));
    }

    /**
     * A run whose writer runs on {@code pool}, and on {@code heavy} once it has had its quantum
     * ({@link SerialExecutor}). Its full sort is made by the first page that needs a rank past
     * the first ones ({@link ResultIndex#sorted(int)}), on that page's thread.
     */
    QueryRun(List<String> shards, TeeFile tee, Executor pool, Executor heavy, QueryCaps caps, ShardGenerations known) {
        if (known.shards() != shards.size()) {
            throw new IllegalArgumentException(
                    "generations of " + known.shards() + " shards for a run of " + shards.size());
        }
        this.known = known;
        this.askedAt = known.tick();
        this.begunOn = known.newest();
        this.searchedOn = begunOn.clone();
        this.caps = caps;
        this.resultBytes = new long[shards.size()];
        this.capped = new Capped[shards.size()];
        this.shards = List.copyOf(shards);
        this.statuses = new ShardStatus[shards.size()];
        this.shardNanos = new long[shards.size()];
        this.streams = new StreamHandler.Stream[shards.size()];
        for (int i = 0; i < statuses.length; i++) {
            statuses[i] = ShardStatus.running(shards.get(i));
        }
        this.tee = tee;
        this.writer = new SerialExecutor(pool, heavy);
    }

    /** Sets what runs just before the run completes; set before any backend is asked. */
    void beforeCompletion(java.util.function.Consumer<QueryRun> hook) {
        beforeCompletion = hook;
    }

    public CompletableFuture<QueryRun> completion() {
        return completion;
    }

    public ResultIndex index() {
        return index;
    }

    public TeeFile tee() {
        return tee;
    }

    public synchronized List<ShardStatus> statuses() {
        return List.of(statuses.clone());
    }

    /** A query error a backend reported (a bad query), or null. */
    public Failure.Code errorCode() {
        return errorCode;
    }

    public String errorMessage() {
        return errorMessage;
    }

    public int errorPosition() {
        return errorPosition;
    }

    public long elapsedNanos() {
        return elapsedNanos;
    }

    synchronized void attach(int shard, StreamHandler.Stream stream) {
        streams[shard] = stream;
        if (statuses[shard].state() != ShardStatus.State.RUNNING) {
            stop(shard);
        }
    }

    /** Cuts the shard's answer short: its connection is closed and the backend stops searching. Holds the monitor. */
    private void stop(int shard) {
        if (streams[shard] != null) {
            streams[shard].stop();
            streams[shard] = null;
        }
    }

    /**
     * Tees a run of complete frames with one write, then records each: results in the index,
     * progress, done and errors in the shard's status. On the writer thread, in arrival order.
     */
    void ingest(int shard, ByteBuf frames, int bytes, java.util.function.IntConsumer written) {
        writer.execute(() -> {
            try {
                ingestAll(shard, frames);
            } finally {
                frames.release();
                written.accept(bytes);
            }
        });
    }

    private void ingestAll(int shard, ByteBuf frames) {
        if (!running(shard)) {
            return; // in flight when the shard failed (deadline, cancel): the answer is already settled
        }
        try {
            ByteBuffer view = frames.nioBuffer().order(ByteOrder.LITTLE_ENDIAN);
            int start = view.position();
            int end = withinByteCap(shard, view);
            boolean cut = end < view.limit();
            view.limit(end);
            bytesReceived += end - start;
            long base;
            try {
                base = tee.append(view); // consumes the view; one write for the whole run
            } catch (IOException e) {
                failDisk(e);
                return;
            }
            for (int at = start; at < end; ) {
                int length = (int) Framing.frameLength(view, at, end - at, FrameLimits.DEFAULT);
                view.limit(at + length).position(at);
                if (!ingestOne(shard, view, base + at - start)) {
                    return;
                }
                view.limit(end);
                at += length;
            }
            if (cut) {
                capNow(shard, new Capped("bytes", caps.maxBytes()));
            }
        } catch (IOException | RuntimeException e) {
            failNow(shard, Outcome.MALFORMED, "unreadable stream: " + e.getMessage());
        } finally {
            index.publish();
        }
    }

    /**
     * Where the run of frames in {@code view} must end so that the shard's result frames stay
     * within its part of the byte cap: the limit when all fit, else the start of the first result
     * frame that does not. Counts only result frames, as {@link #ingestOne} does once they are
     * recorded: progress frames come when the clock says, so counting them would move the cut
     * from run to run. A run that fits whole even if every byte were a result's (all but the
     * last runs of a capped query, every run of an uncapped one) is not walked here: the ingest
     * walks its frames once, not twice.
     */
    private int withinByteCap(int shard, ByteBuffer view) throws IOException {
        long quota = caps.bytesOf(shard, shards.size());
        int start = view.position();
        int end = view.limit();
        if (resultBytes[shard] + (end - start) <= quota) {
            return end;
        }
        long counted = resultBytes[shard];
        try {
            for (int at = start; at < end; ) {
                int length = (int) Framing.frameLength(view, at, end - at, FrameLimits.DEFAULT);
                view.limit(at + length).position(at);
                if (Messages.peekResponse(view).isResult()) {
                    if (counted + length > quota) {
                        return at;
                    }
                    counted += length;
                }
                view.limit(end);
                at += length;
            }
            return end;
        } finally {
            view.limit(end).position(start);
        }
    }

    /** The shard reached its part of a cap: it is done (what it sent so far is its answer) and its stream is closed. */
    private void capNow(int shard, Capped why) {
        synchronized (this) {
            if (statuses[shard].state() != ShardStatus.State.RUNNING) {
                return;
            }
            capped[shard] = why;
            ShardStatus s = statuses[shard];
            statuses[shard] = new ShardStatus(
                    s.shard(),
                    ShardStatus.State.DONE,
                    Outcome.OK,
                    "capped: " + why.reason(),
                    s.results(),
                    s.filesSearched(),
                    s.totalFiles());
            shardNanos[shard] = System.nanoTime() - startedNanos;
            stop(shard);
        }
        completeIfLast();
    }

    /** Why an answer holds fewer results than the query has: which cap ({@code results} or {@code bytes}) and its value. */
    public record Capped(String reason, long limit) {}

    /**
     * The cap this answer stopped at, or null when it holds every result: the first capped
     * shard's, in shard order (so the same answer says the same).
     */
    public synchronized Capped capped() {
        for (Capped c : capped) {
            if (c != null) {
                return c;
            }
        }
        return null;
    }

    /** Records one frame (the view's position to limit) teed at {@code offset}; false when the stream is unusable. */
    private boolean ingestOne(int shard, ByteBuffer frame, long offset) throws IOException {
        Response.Which which = Messages.peekResponse(frame);
        switch (which) {
            case RESULT, FILE_MATCH, FILE_RESULTS -> {
                int length = frame.remaining();
                if (!index.add(shard, frame, offset)) {
                    failNow(shard, Outcome.MALFORMED, "a result frame this frontend cannot read");
                    return false;
                }
                resultBytes[shard] += length;
                if (firstResultNanos < 0) {
                    firstResultNanos = System.nanoTime() - startedNanos;
                }
            }
            case DONE, ERROR -> finish(shard, Messages.response(Framing.read(frame, FrameLimits.DEFAULT)));
            case PROGRESS ->
                progress(
                        shard,
                        Messages.response(Framing.read(frame, FrameLimits.DEFAULT))
                                .getProgress());
            default -> {}
        }
        return true;
    }

    private synchronized boolean running(int shard) {
        return statuses[shard].state() == ShardStatus.State.RUNNING;
    }

    private synchronized void progress(int shard, io.trigrep.proto.Progress.Reader p) {
        ShardStatus s = statuses[shard];
        if (s.state() == ShardStatus.State.RUNNING) {
            statuses[shard] = new ShardStatus(
                    s.shard(), s.state(), Outcome.OK, null, p.getResults(), p.getFilesSearched(), p.getTotalFiles());
        }
    }

    /**
     * The best results among the first {@code among} that arrived: {@code ranks}, best first. One
     * snapshot, so that an answer's count and its page agree (the published count, read later,
     * may already hold more).
     */
    @SuppressWarnings("ArrayRecordComponent") // the ranks handed from the writer thread, read once
    public record BestSoFar(int[] ranks, int among) {}

    /**
     * The best {@code k} results so far, computed on the writer thread (the only one that touches
     * the index while the query runs), handed to {@code consumer} there.
     */
    public void bestSoFar(int k, java.util.function.Consumer<BestSoFar> consumer) {
        writer.execute(() -> consumer.accept(new BestSoFar(index.best(k), index.added())));
    }

    private void finish(int shard, Response.Reader last) {
        synchronized (this) {
            if (statuses[shard].state() != ShardStatus.State.RUNNING) {
                return;
            }
            if (last.which() == Response.Which.DONE) {
                Done.Reader d = last.getDone();
                String reason = d.getTruncation() == Done.Truncation.NONE ? null : "truncated: " + d.getTruncation();
                cutByDeadline |= d.getTruncation() == Done.Truncation.DEADLINE;
                if (d.getTruncation() == Done.Truncation.MAX_RESULTS) {
                    capped[shard] = new Capped("results", caps.maxResults());
                }
                if (d.getGeneration() != 0) {
                    searchedOn[shard] = d.getGeneration();
                    known.learn(shard, d.getGeneration(), askedAt);
                }
                statuses[shard] = new ShardStatus(
                        shards.get(shard),
                        ShardStatus.State.DONE,
                        Outcome.OK,
                        reason,
                        d.getResults(),
                        d.getFilesSearched(),
                        d.getTotalFiles());
            } else {
                Failure.Reader f = last.getError();
                if (f.getCode() == Failure.Code.BAD_QUERY) {
                    errorCode = f.getCode();
                    errorMessage = f.getMessage().toString();
                    errorPosition = f.getPosition();
                }
                statuses[shard] = ShardStatus.failed(
                        shards.get(shard),
                        f.getCode() == Failure.Code.BAD_QUERY ? Outcome.BAD_QUERY : Outcome.ERROR,
                        f.getCode() + ": " + f.getMessage());
            }
            shardNanos[shard] = System.nanoTime() - startedNanos;
            // The answer ended as the protocol says: its connection serves the next query.
            if (streams[shard] != null) {
                streams[shard].answered();
                streams[shard] = null;
            }
        }
        completeIfLast();
    }

    /** A backend failed: recorded after every frame it sent before failing has been teed. */
    void fail(int shard, Outcome outcome, String reason) {
        writer.execute(() -> failNow(shard, outcome, reason));
    }

    void closed(int shard) {
        fail(shard, Outcome.CLOSED, "connection closed before the answer ended");
    }

    private void failNow(int shard, Outcome outcome, String reason) {
        synchronized (this) {
            if (statuses[shard].state() != ShardStatus.State.RUNNING) {
                return;
            }
            statuses[shard] = ShardStatus.failed(shards.get(shard), outcome, reason);
            shardNanos[shard] = System.nanoTime() - startedNanos;
            stop(shard);
        }
        completeIfLast();
    }

    /**
     * The tee could not be written (a full or failing disk): the query cannot be answered, and it
     * is the frontend's failure, not any backend's. Every backend still running is stopped.
     */
    private void failDisk(IOException e) {
        if (diskFailure == null) {
            diskFailure = diskMessage(e);
        }
        for (int i = 0; i < statuses.length; i++) {
            failNow(i, Outcome.FRONTEND_DISK, diskFailure);
        }
    }

    /** The innermost cause's words, which say what the disk did without the file's path. */
    private static String diskMessage(IOException e) {
        Throwable cause = e;
        while (cause.getCause() != null) {
            cause = cause.getCause();
        }
        return "the frontend's disk cannot hold the results: "
                + (cause.getMessage() == null ? cause.toString() : cause.getMessage());
    }

    /** Why the frontend's disk failed this query, or null when it did not. */
    public String diskFailure() {
        return diskFailure;
    }

    /** An operator stopped the query: every backend still running is marked failed and closed. */
    public void cancel() {
        for (int i = 0; i < statuses.length; i++) {
            fail(i, Outcome.CANCELLED, "cancelled");
        }
    }

    /** The deadline passed: every backend still running is marked failed. */
    void expire() {
        for (int i = 0; i < statuses.length; i++) {
            fail(i, Outcome.DEADLINE, "deadline exceeded");
        }
    }

    private void completeIfLast() {
        synchronized (this) {
            for (ShardStatus s : statuses) {
                if (s.state() == ShardStatus.State.RUNNING) {
                    return;
                }
            }
        }
        writer.execute(() -> {
            if (completion.isDone()) {
                return;
            }
            index.selectFirst(FIRST_RANKS);
            try {
                tee.finish();
            } catch (IOException e) {
                diskFailure = diskFailure != null ? diskFailure : diskMessage(e);
            }
            elapsedNanos = System.nanoTime() - startedNanos;
            beforeCompletion.accept(this);
            completion.complete(this);
        });
    }

    /** Time from start to the first result, or -1 when there was none. */
    public long firstResultNanos() {
        return firstResultNanos;
    }

    /** Bytes of frames received from all backends; read after completion. */
    public long bytesReceived() {
        return bytesReceived;
    }

    /** How long backend {@code shard} took, start to its last message or failure. */
    public synchronized long shardNanos(int shard) {
        return shardNanos[shard];
    }

    /**
     * Whether the finished answer may be served again to a later request: every shard answered
     * in full (or every one refused the query as invalid, which it will do again). A failed
     * shard or one cut at its deadline made the answer depend on a moment, not on the query.
     */
    public synchronized boolean reusable() {
        for (ShardStatus s : statuses) {
            if (s.state() != ShardStatus.State.DONE && s.outcome() != Outcome.BAD_QUERY) {
                return false;
            }
        }
        return !cutByDeadline && diskFailure == null;
    }

    /**
     * Whether this run may be served or joined: every shard that answered did so on the newest
     * generation known of it ({@link ShardGenerations#isNewest}), and every shard still streaming
     * was asked after its newest was learnt. A run whose shards answered on different generations
     * is current as long as each is its shard's newest.
     */
    public synchronized boolean current() {
        for (int shard = 0; shard < statuses.length; shard++) {
            if (statuses[shard].state() == ShardStatus.State.RUNNING) {
                boolean onFirst = begunOn[shard] == 0 && known.onFirst(shard);
                if (!onFirst && !known.askedSince(shard, askedAt)) {
                    return false;
                }
                continue;
            }
            long on = searchedOn[shard] != 0 ? searchedOn[shard] : known.first(shard);
            if (!known.isNewest(shard, on, askedAt)) {
                return false;
            }
        }
        return true;
    }

    /** Shards that failed, with reasons. */
    public synchronized List<ShardStatus> failed() {
        List<ShardStatus> out = new ArrayList<>();
        for (ShardStatus s : statuses) {
            if (s.state() == ShardStatus.State.FAILED) {
                out.add(s);
            }
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            for (int shard = 0; shard < streams.length; shard++) {
                stop(shard);
            }
        }
        tee.delete();
    }
}
