package io.trigrep.frontend.fanout;

import io.netty.buffer.ByteBuf;
import io.trigrep.frontend.fanout.ShardStatus.Outcome;
import io.trigrep.frontend.metrics.FrontendMetrics;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.frontend.store.TeeFile;
import io.trigrep.proto.Done;
import io.trigrep.proto.Failure;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Progress;
import io.trigrep.proto.Response;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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

    private final ReplicaAttempts attempts;

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
    private volatile long firstResultNanos = -1;
    private long bytesReceived;

    private final QueryCaps caps;

    /** Why the frontend's own disk could not take the results; null while it could. */
    private volatile String diskFailure;

    /** Guarded by this. */
    private final SearchedGenerations generations;

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
        this.caps = caps;
        this.shards = List.copyOf(shards);
        this.statuses = new ShardStatuses(this.shards, startedNanos, caps);
        this.tee = tee;
        this.writer = new SerialExecutor(pool, heavy);
        this.attempts = new ReplicaAttempts(this, this.shards, statuses, writer);
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
        if (attempt.staged != null && attempt.staged.size() > 0) {
            index.addStaged(attempt.staged);
            if (firstResultNanos < 0) {
                firstResultNanos = System.nanoTime() - startedNanos;
            }
        }
        attempts.won(attempt);
    }

    /** {@link #ingest(Attempt, ByteBuf, int, IntConsumer)} of the shard's one attempt. */
    void ingest(int shard, ByteBuf frames, int bytes, IntConsumer written) {
        ingest(attempts.direct(shard), frames, bytes, written);
    }

    /**
     * Tees a run of complete frames with one write, then records each: results in the index (or
     * the attempt's stage), progress, done and errors in the shard's status. On the writer
     * thread, in arrival order.
     */
    void ingest(Attempt attempt, ByteBuf frames, int bytes, IntConsumer written) {
        writer.execute(() -> {
            try {
                ingestAll(attempt, frames);
            } finally {
                frames.release();
                written.accept(bytes);
            }
        });
    }

    private void ingestAll(Attempt attempt, ByteBuf frames) {
        if (!attempts.counts(attempt)) {
            return; // in flight when the shard settled (deadline, cancel, another replica won) or the attempt failed
        }
        try {
            ByteBuffer view = frames.nioBuffer().order(ByteOrder.LITTLE_ENDIAN);
            int start = view.position();
            int end = withinByteCap(attempt, view);
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
                if (!ingestOne(attempt, view, base + at - start)) {
                    return;
                }
                view.limit(end);
                at += length;
            }
            if (cut) {
                capNow(attempt, new Capped("bytes", caps.maxBytes()));
            }
        } catch (IOException | RuntimeException e) {
            attempts.failNow(attempt, Outcome.MALFORMED, "unreadable stream: " + e.getMessage());
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
    private int withinByteCap(Attempt attempt, ByteBuffer view) throws IOException {
        long quota = caps.bytesOf(attempt.shard, shards.size());
        int start = view.position();
        int end = view.limit();
        if (attempt.resultBytes + (end - start) <= quota) {
            return end;
        }
        long counted = attempt.resultBytes;
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
    private void capNow(Attempt attempt, Capped why) {
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

    /** Records one frame (the view's position to limit) teed at {@code offset}; false when the stream is unusable. */
    private boolean ingestOne(Attempt attempt, ByteBuffer frame, long offset) throws IOException {
        int shard = attempt.shard;
        Response.Which which = Messages.peekResponse(frame);
        switch (which) {
            case RESULT, FILE_MATCH, FILE_RESULTS -> {
                int length = frame.remaining();
                boolean read = attempt.staged == null
                        ? index.add(shard, frame, offset)
                        : index.stage(attempt.staged, shard, frame, offset);
                if (!read) {
                    attempts.failNow(attempt, Outcome.MALFORMED, "a result frame this frontend cannot read");
                    return false;
                }
                attempt.resultBytes += length;
                if (attempt.staged == null && firstResultNanos < 0) {
                    firstResultNanos = System.nanoTime() - startedNanos;
                }
            }
            case DONE, ERROR -> {
                finish(attempt, Messages.response(Framing.read(frame, FrameLimits.DEFAULT)));
                return attempts.counts(attempt);
            }
            case PROGRESS ->
                progress(
                        shard,
                        Messages.response(Framing.read(frame, FrameLimits.DEFAULT))
                                .getProgress());
            default -> {}
        }
        return true;
    }

    private synchronized void progress(int shard, Progress.Reader p) {
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

    private void finish(Attempt attempt, Response.Reader last) {
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
    private void failDisk(IOException e) {
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
        return firstResultNanos;
    }

    /** Bytes of frames received from all backends; read after completion. */
    public long bytesReceived() {
        return bytesReceived;
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
