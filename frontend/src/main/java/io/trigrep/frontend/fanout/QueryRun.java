package io.trigrep.frontend.fanout;

import io.netty.buffer.ByteBuf;
import io.trigrep.frontend.fanout.ShardStatus.Outcome;
import io.trigrep.frontend.metrics.FrontendMetrics;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.frontend.store.StagedResults;
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
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
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
 * <p>A shard served by several replicas ({@link #start}) is asked of one, and of another when
 * the first has sent nothing within the shard's hedge delay or has failed; the first attempt to
 * finish wins and the others are cut. Its results are staged per attempt and indexed only when
 * it wins, so a failed or losing replica leaves no result behind. An attempt on a replica whose
 * pings fail that has sent nothing for {@link #STALL_NANOS} is given up: a shard without a
 * healthy replica fails within about a second, not at the deadline.
 */
public final class QueryRun implements AutoCloseable {
    /** Ranks answered before the full sort: the first page at the largest page size, many at the usual ones. */
    static final int FIRST_RANKS = 1000;

    /** An attempt silent this long on a replica whose pings fail is given up. */
    static final long STALL_NANOS = 500_000_000;

    /** How often the run looks for such attempts. */
    static final long WATCH_MILLIS = 100;

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
    /** Per shard, its attempts still answering; guarded by this. */
    private final List<List<Attempt>> live = new ArrayList<>();
    /** Per shard, the replicas asked so far, each at most once a run; guarded by this. */
    private final List<List<Replica>> tried = new ArrayList<>();
    /** Per shard, why each of its attempts that failed did; guarded by this. */
    private final List<List<String>> failures = new ArrayList<>();
    /** How to ask replicas; null for a run whose streams are begun from outside ({@link #ingest(int, ByteBuf, int, java.util.function.IntConsumer)}). */
    private volatile Replicated replicated;

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
        for (int i = 0; i < shards.size(); i++) {
            live.add(new ArrayList<>(2));
            tried.add(new ArrayList<>(2));
            failures.add(new ArrayList<>(0));
        }
        this.tee = tee;
        this.writer = new SerialExecutor(pool, heavy);
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
    @SuppressWarnings("FutureReturnValueIgnored") // hedge checks end on their own; the watch is cancelled on completion
    void start(Replicated how) {
        if (how.groups().size() != shards.size()) {
            throw new IllegalArgumentException(
                    how.groups().size() + " replica groups for a run of " + shards.size() + " shards");
        }
        replicated = how;
        for (int shard = 0; shard < shards.size(); shard++) {
            launch(shard, false, true);
        }
        ScheduledFuture<?> watch = how.timer()
                .scheduleWithFixedDelay(
                        () -> writer.execute(this::watch), WATCH_MILLIS, WATCH_MILLIS, TimeUnit.MILLISECONDS);
        completion.whenComplete((done, failure) -> watch.cancel(false));
    }

    /**
     * Asks {@code shard} of a replica it has not asked in this run: a healthy one, or, with
     * {@code orUnhealthy}, whichever is least bad. False when there is none or the shard is settled.
     */
    @SuppressWarnings("FutureReturnValueIgnored") // a hedge check that finds the attempt over does nothing
    private boolean launch(int shard, boolean hedge, boolean orUnhealthy) {
        Replicated how = replicated;
        ReplicaGroup group = how.groups().get(shard);
        Attempt attempt;
        synchronized (this) {
            if (!statuses.running(shard)) {
                return false;
            }
            Replica replica = group.choose(tried.get(shard), orUnhealthy);
            if (replica == null) {
                return false;
            }
            tried.get(shard).add(replica);
            attempt = new Attempt(shard, replica, hedge, group.replicated() ? new StagedResults() : null);
            live.get(shard).add(attempt);
            replica.started();
        }
        attempt.replica.connections().ask(this, attempt, how.requests().apply(shard));
        if (group.replicated()) {
            how.timer()
                    .schedule(
                            () -> writer.execute(() -> hedge(attempt)), group.hedgeDelayNanos(), TimeUnit.NANOSECONDS);
        }
        return true;
    }

    /** {@code attempt} has sent nothing within its shard's hedge delay: the same is asked of another healthy replica. */
    private void hedge(Attempt attempt) {
        synchronized (this) {
            if (attempt.ended
                    || attempt.heardAny()
                    || !statuses.running(attempt.shard)
                    || live.get(attempt.shard).size() > 1) {
                return;
            }
        }
        if (launch(attempt.shard, true, false)) {
            replicated.metrics().hedgeSent(shards.get(attempt.shard));
        }
    }

    /** Gives up the attempts silent for {@link #STALL_NANOS} on replicas whose pings fail. On the writer. */
    private void watch() {
        long now = System.nanoTime();
        List<Attempt> stalled = new ArrayList<>();
        synchronized (this) {
            for (List<Attempt> attempts : live) {
                for (Attempt a : attempts) {
                    if (a.replica != null && !a.replica.healthy() && a.silentNanos(now) >= STALL_NANOS) {
                        stalled.add(a);
                    }
                }
            }
        }
        for (Attempt a : stalled) {
            String problem = a.replica.problem();
            if (problem != null && problem.startsWith("TLS ")) {
                // The handshake the attempt waits on fails as the ping's did (Tls.reason's words).
                failNow(a, Outcome.TLS, problem);
                continue;
            }
            failNow(
                    a,
                    Outcome.STALLED,
                    "no answer for " + TimeUnit.NANOSECONDS.toMillis(a.silentNanos(now)) + " ms, and "
                            + (problem == null ? "its pings failed" : "its ping failed: " + problem));
        }
    }

    /** {@code attempt}'s first bytes came at {@code now}: how soon its replica and shard answer. */
    void firstFrame(Attempt attempt, long now) {
        Replicated how = replicated;
        if (how != null && attempt.replica != null) {
            long nanos = now - attempt.startedNanos;
            attempt.replica.firstFrame(nanos);
            how.groups().get(attempt.shard).firstFrame(nanos);
        }
    }

    synchronized void attach(Attempt attempt, StreamHandler.Stream stream) {
        attempt.stream = stream;
        if (attempt.ended) {
            stream.stop();
            attempt.stream = null;
        }
    }

    /**
     * Ends {@code attempt}: nothing more of it counts. Its connection is given back when its
     * answer ended as the protocol says ({@code answered}), else closed, which stops the backend.
     * Holds the monitor.
     */
    private void end(Attempt attempt, boolean answered) {
        attempt.ended = true;
        live.get(attempt.shard).remove(attempt);
        if (attempt.replica != null) {
            attempt.replica.ended();
        }
        if (attempt.stream != null) {
            if (answered) {
                attempt.stream.answered();
            } else {
                attempt.stream.stop();
            }
            attempt.stream = null;
        }
    }

    /** Ends every attempt of {@code shard} still answering. Holds the monitor. */
    private void endAll(int shard) {
        for (Attempt a : List.copyOf(live.get(shard))) {
            end(a, false);
        }
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
        for (Attempt other : List.copyOf(live.get(attempt.shard))) {
            if (other != attempt) {
                end(other, false);
            }
        }
        Replicated how = replicated;
        if (how != null && attempt.replica != null) {
            how.metrics()
                    .replicaAnswered(
                            shards.get(attempt.shard),
                            attempt.replica.name(),
                            System.nanoTime() - attempt.startedNanos,
                            attempt.hedge);
        }
    }

    /** The attempt of {@code shard} that frames come on when its streams are begun from outside the run. */
    private synchronized Attempt direct(int shard) {
        List<Attempt> attempts = live.get(shard);
        if (attempts.isEmpty()) {
            Attempt a = new Attempt(shard, null, false, null);
            attempts.add(a);
            return a;
        }
        return attempts.get(0);
    }

    /** {@link #ingest(Attempt, ByteBuf, int, java.util.function.IntConsumer)} of the shard's one attempt. */
    void ingest(int shard, ByteBuf frames, int bytes, IntConsumer written) {
        ingest(direct(shard), frames, bytes, written);
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

    private synchronized boolean counts(Attempt attempt) {
        return !attempt.ended && statuses.running(attempt.shard);
    }

    private void ingestAll(Attempt attempt, ByteBuf frames) {
        if (!counts(attempt)) {
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
            failNow(attempt, Outcome.MALFORMED, "unreadable stream: " + e.getMessage());
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
            if (!counts(attempt)) {
                return;
            }
            win(attempt);
            statuses.cap(attempt.shard, why);
            end(attempt, false);
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
                    failNow(attempt, Outcome.MALFORMED, "a result frame this frontend cannot read");
                    return false;
                }
                attempt.resultBytes += length;
                if (attempt.staged == null && firstResultNanos < 0) {
                    firstResultNanos = System.nanoTime() - startedNanos;
                }
            }
            case DONE, ERROR -> {
                finish(attempt, Messages.response(Framing.read(frame, FrameLimits.DEFAULT)));
                return counts(attempt);
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
                && replicatedShard(shard)) {
            // Another replica may answer what this one could not (overloaded, internal error).
            Failure.Reader f = last.getError();
            failNow(attempt, Outcome.ERROR, f.getCode() + ": " + f.getMessage());
            return;
        }
        synchronized (this) {
            if (!counts(attempt)) {
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
            end(attempt, true);
        }
        completeIfLast();
    }

    private boolean replicatedShard(int shard) {
        Replicated how = replicated;
        return how != null && how.groups().get(shard).replicated();
    }

    /** A backend failed the whole shard (or the run did): recorded after every frame it sent before failing has been teed. */
    void fail(int shard, Outcome outcome, String reason) {
        writer.execute(() -> failNow(shard, outcome, reason));
    }

    /** One attempt failed: recorded after every frame it sent before failing has been teed. */
    void fail(Attempt attempt, Outcome outcome, String reason) {
        writer.execute(() -> failNow(attempt, outcome, reason));
    }

    void closed(Attempt attempt) {
        fail(attempt, Outcome.CLOSED, "connection closed before the answer ended");
    }

    private void failNow(int shard, Outcome outcome, String reason) {
        synchronized (this) {
            if (!statuses.fail(shard, outcome, reason)) {
                return;
            }
            endAll(shard);
        }
        completeIfLast();
    }

    /**
     * {@code attempt} failed. Its replica is marked unhealthy when the fault is the backend's.
     * A shard with one replica fails with it; a replicated one goes on with its other attempt
     * still answering, or asks a healthy replica not asked yet (its staged results are dropped
     * with the failed attempt), and fails, naming every replica's reason, when there is none.
     */
    private void failNow(Attempt attempt, Outcome outcome, String reason) {
        int shard = attempt.shard;
        synchronized (this) {
            if (!counts(attempt)) {
                return;
            }
            if (attempt.replica != null && outcome.backendFailed()) {
                attempt.replica.failed(reason);
            }
            if (!replicatedShard(shard)) {
                failNow(shard, outcome, reason);
                return;
            }
            end(attempt, false);
            failures.get(shard).add(attempt.replica.name() + ": " + reason);
            if (!live.get(shard).isEmpty()) {
                return;
            }
        }
        if (launch(shard, false, false)) {
            replicated.metrics().failover(shards.get(shard));
            return;
        }
        failNow(shard, outcome, noReplica(shard));
    }

    /** Why no replica of {@code shard} answered: each one asked, with its reason, and each one not asked, with its problem. */
    private synchronized String noReplica(int shard) {
        StringJoiner why = new StringJoiner("; ", "no replica answered: ", "");
        for (String failure : failures.get(shard)) {
            why.add(failure);
        }
        for (Replica r : replicated.groups().get(shard).replicas()) {
            if (!tried.get(shard).contains(r)) {
                String problem = r.problem();
                why.add(r.name() + ": not asked, " + (problem == null ? "unhealthy" : problem));
            }
        }
        return why.toString();
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
                endAll(shard);
            }
        }
        tee.delete();
    }
}
