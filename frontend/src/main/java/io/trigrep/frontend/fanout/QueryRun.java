package io.trigrep.frontend.fanout;

import io.netty.buffer.ByteBuf;
import io.trigrep.frontend.fanout.ShardStatus.Outcome;
import io.trigrep.frontend.metrics.FrontendMetrics;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.frontend.store.TeeFile;
import io.trigrep.proto.Done;
import io.trigrep.proto.Failure;
import io.trigrep.proto.Progress;
import io.trigrep.proto.Response;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.function.Consumer;
import java.util.function.IntConsumer;
import java.util.function.IntFunction;
import org.capnproto.MessageBuilder;

/**
 * One query across every shard: each backend's frames are teed to disk and indexed, in
 * arrival order, by one writer (a serial executor); a backend that fails, closes early, sends
 * bytes that do not decode or misses the deadline is marked failed with its reason, and the
 * others go on. {@link #completion} completes, with results sorted, once every shard is done
 * or failed.
 *
 * <p>A shard served by several replicas ({@link #start}) may be asked of more than one
 * ({@link ReplicaAttempts}); the first attempt to finish wins. Its results are staged per attempt
 * and indexed only when it wins, so a failed or losing replica leaves no result behind.
 *
 * <p>Each shard's status ({@link ShardStatuses}), the generations searched
 * ({@link SearchedGenerations}) and the attempts ({@link ReplicaAttempts}) change under this
 * run's monitor; the frames are read by {@link FrameIngest}, on the writer.
 */
public final class QueryRun implements AutoCloseable {
    /** Ranks answered before the full sort: the first page at the largest page size, many at the usual ones. */
    static final int FIRST_RANKS = 1000;

    /**
     * What a run needs to ask replicas itself: each shard's group, each shard's request (built
     * anew for each attempt), a timer for hedges and watching, and the metrics.
     */
    record Replicated(
            List<ReplicaGroup> groups,
            IntFunction<MessageBuilder> requests,
            ScheduledExecutorService timer,
            FrontendMetrics metrics) {}

    private final List<String> shards;
    /** Guarded by this. */
    private final ShardStatuses statuses;
    /** Guarded by this. */
    private final SearchedGenerations generations;

    private final ReplicaAttempts attempts;
    private final FrameIngest frameIngest;

    private final TeeFile tee;
    private final ResultIndex index = new ResultIndex(FIRST_RANKS);
    private final Executor writer;
    private final CompletableFuture<QueryRun> completion = new CompletableFuture<>();
    /**
     * Runs on the writer just before {@link #completion} completes: what must be recorded by the
     * time anyone sees the run done (the fan-out's metrics). A dependent of the future would run
     * after the ones registered later, so a client could read /metrics before it ran.
     */
    private volatile Consumer<QueryRun> beforeCompletion = run -> {};

    private final long startedNanos = System.nanoTime();
    private volatile Failure.Code errorCode;
    private volatile String errorMessage;
    private volatile int errorPosition;
    private long elapsedNanos;

    /** Why the frontend's own disk could not take the results; null while it could. */
    private volatile String diskFailure;

    QueryRun(List<String> shards, TeeFile tee, Executor pool) {
        this(shards, tee, pool, pool, QueryCaps.forCache(1L << 30), new ShardGenerations(shards.size()));
    }

    /**
     * A run whose writer runs on {@code pool}, and on {@code heavy} once it has had its quantum
     * ({@link SerialExecutor}). Its full sort is made by the first page that needs a rank past
     * the first ones ({@link ResultIndex#sorted(int)}), on that page's thread.
     */
    QueryRun(List<String> shards, TeeFile tee, Executor pool, Executor heavy, QueryCaps caps, ShardGenerations known) {
        this.generations = new SearchedGenerations(known, shards.size());
        this.shards = List.copyOf(shards);
        this.statuses = new ShardStatuses(this.shards, startedNanos, caps);
        this.tee = tee;
        this.writer = new SerialExecutor(pool, heavy);
        this.attempts = new ReplicaAttempts(this, this.shards, statuses, writer);
        this.frameIngest = new FrameIngest(this, attempts, tee, index, caps, shards.size(), startedNanos);
    }

    /** Sets what runs just before the run completes; set before any backend is asked. */
    void beforeCompletion(Consumer<QueryRun> hook) {
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
        return statuses.all();
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

    /**
     * Asks each shard of one of its replicas, and from now until the run completes watches for
     * attempts to hedge or give up. Call once, right after the run is made.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // the stage of a callback that cancels the watch: nothing waits on it
    void start(Replicated how) {
        ScheduledFuture<?> watch = attempts.start(how);
        completion.whenComplete((done, failure) -> watch.cancel(false));
    }

    /** {@code attempt}'s first bytes came at {@code now}: how soon its replica and shard answer. */
    void firstFrame(Attempt attempt, long now) {
        attempts.firstFrame(attempt, now);
    }

    void attach(Attempt attempt, StreamHandler.Stream stream) {
        attempts.attach(attempt, stream);
    }

    /**
     * {@code attempt} finished first: its staged results go into the index and the shard's other
     * attempts are cut. Holds the monitor.
     */
    private void win(Attempt attempt) {
        frameIngest.indexStaged(attempt);
        attempts.won(attempt);
    }

    /** {@link #ingest(Attempt, ByteBuf, int, IntConsumer)} of the shard's one attempt. */
    void ingest(int shard, ByteBuf frames, int bytes, IntConsumer written) {
        ingest(attempts.direct(shard), frames, bytes, written);
    }

    /**
     * Tees a run of complete frames with one write, then records each: results in the index (or
     * the attempt's stage), progress, done and errors in the shard's status. On the writer
     * thread, in arrival order; the run owns {@code frames} from here and releases them there.
     */
    void ingest(Attempt attempt, ByteBuf frames, int bytes, IntConsumer written) {
        writer.execute(() -> {
            try {
                frameIngest.ingest(attempt, frames);
            } finally {
                frames.release();
                written.accept(bytes);
            }
        });
    }

    /** The shard reached its part of a cap: it is done (what it sent so far is its answer) and its stream is closed. */
    void capNow(Attempt attempt, Capped why) {
        synchronized (this) {
            if (!attempts.counts(attempt)) {
                return;
            }
            win(attempt);
            statuses.cap(attempt.shard, why);
            attempts.end(attempt, false);
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
        return statuses.capped();
    }

    /** A progress frame of {@code shard}: its counts so far. */
    synchronized void progress(int shard, Progress.Reader p) {
        statuses.progress(shard, p);
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
    public void bestSoFar(int k, Consumer<BestSoFar> consumer) {
        writer.execute(() -> consumer.accept(new BestSoFar(index.best(k), index.added())));
    }

    /** {@code attempt}'s answer ended with {@code last}, a done or an error. On the writer. */
    void finish(Attempt attempt, Response.Reader last) {
        int shard = attempt.shard;
        if (last.which() == Response.Which.ERROR
                && last.getError().getCode() != Failure.Code.BAD_QUERY
                && attempts.replicatedShard(shard)) {
            // Another replica may answer what this one could not (overloaded, internal error).
            Failure.Reader f = last.getError();
            attempts.failNow(attempt, Outcome.ERROR, f.getCode() + ": " + f.getMessage());
            return;
        }
        synchronized (this) {
            if (!attempts.counts(attempt)) {
                return;
            }
            win(attempt);
            if (last.which() == Response.Which.DONE) {
                Done.Reader d = last.getDone();
                generations.searched(shard, d.getGeneration());
                statuses.done(shard, d);
            } else {
                Failure.Reader f = last.getError();
                if (f.getCode() == Failure.Code.BAD_QUERY) {
                    errorCode = f.getCode();
                    errorMessage = f.getMessage().toString();
                    errorPosition = f.getPosition();
                }
                statuses.error(shard, f);
            }
            // The answer ended as the protocol says: its connection serves the next query.
            attempts.end(attempt, true);
        }
        completeIfLast();
    }

    /** A backend failed the whole shard (or the run did): recorded after every frame it sent before failing has been teed. */
    void fail(int shard, Outcome outcome, String reason) {
        writer.execute(() -> failNow(shard, outcome, reason));
    }

    /** One attempt failed: recorded after every frame it sent before failing has been teed. */
    void fail(Attempt attempt, Outcome outcome, String reason) {
        writer.execute(() -> attempts.failNow(attempt, outcome, reason));
    }

    void closed(Attempt attempt) {
        fail(attempt, Outcome.CLOSED, "connection closed before the answer ended");
    }

    /** Fails {@code shard} if it is still running, and ends its attempts. On the writer. */
    void failNow(int shard, Outcome outcome, String reason) {
        synchronized (this) {
            if (!statuses.fail(shard, outcome, reason)) {
                return;
            }
            attempts.endAll(shard);
        }
        completeIfLast();
    }

    /**
     * The tee could not be written (a full or failing disk): the query cannot be answered, and it
     * is the frontend's failure, not any backend's. Every backend still running is stopped.
     */
    void failDisk(IOException e) {
        if (diskFailure == null) {
            diskFailure = diskMessage(e);
        }
        for (int i = 0; i < shards.size(); i++) {
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
        for (int i = 0; i < shards.size(); i++) {
            fail(i, Outcome.CANCELLED, "cancelled");
        }
    }

    /** The deadline passed: every backend still running is marked failed. */
    void expire() {
        for (int i = 0; i < shards.size(); i++) {
            fail(i, Outcome.DEADLINE, "deadline exceeded");
        }
    }

    private void completeIfLast() {
        synchronized (this) {
            if (!statuses.settled()) {
                return;
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
        return frameIngest.firstResultNanos();
    }

    /** Bytes of frames received from all backends; read after completion. */
    public long bytesReceived() {
        return frameIngest.bytesReceived();
    }

    /** How long backend {@code shard} took, start to its last message or failure. */
    public synchronized long shardNanos(int shard) {
        return statuses.nanos(shard);
    }

    /**
     * Whether the finished answer may be served again to a later request: every shard answered
     * in full (or every one refused the query as invalid, which it will do again). A failed
     * shard or one cut at its deadline made the answer depend on a moment, not on the query.
     */
    public synchronized boolean reusable() {
        return statuses.answeredInFull() && diskFailure == null;
    }

    /**
     * Whether this run may be served or joined: every shard answered, or is answering, on the
     * newest generation known of it ({@link SearchedGenerations#current}).
     */
    public synchronized boolean current() {
        return generations.current(statuses);
    }

    /** Shards that failed, with reasons. */
    public synchronized List<ShardStatus> failed() {
        return statuses.failed();
    }

    @Override
    public void close() throws IOException {
        synchronized (this) {
            for (int shard = 0; shard < shards.size(); shard++) {
                attempts.endAll(shard);
            }
        }
        tee.delete();
    }
}
