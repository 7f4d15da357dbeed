package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.segments.LiveShard;
import io.trigrep.indexer.segments.Segment;
import io.trigrep.indexer.symbols.Symbols;
import io.trigrep.proto.Done;
import io.trigrep.proto.Failure;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.capnproto.MessageBuilder;

/**
 * One running search over one shard's live segments. Its candidate docs ({@link SearchInputs})
 * are handed out in chunks to up to {@code parallelism} tasks on a shared pool; each task
 * searches one chunk, writes its results and, while the sink is writable, queues the next chunk.
 * Where it queues is {@link SearchPool}'s to say, by when the query arrived and whether it has
 * run for more than {@link #QUANTUM_NANOS}. While the sink is not writable no task is queued at
 * all: the search is paused, holding no thread, until {@link #resume}. What a task does is its
 * {@link SearchTasks}' to say: send as it finds, or hold its results until they can leave in doc
 * order. The stream ends with exactly one done or error message, or with nothing once cancelled.
 * Where the search is ({@link Phase}) and why it stops ({@link Stop}) are explicit; the searching
 * itself is {@link ChunkWorker}'s.
 */
public final class SearchExecution {
    /**
     * A chunk also ends once it holds this much content, so that the few large candidates of a
     * selective query (a multi-megabyte ChangeLog, a configure script) go to different tasks
     * instead of one task scanning them all while the others have nothing to do.
     */
    private static final long CHUNK_BYTES = 1 << 20;

    /**
     * Time on the pool after which a search's chunks go to {@link SearchPool}'s background: above
     * the slowest selective query of bench/queries.txt, far below a full scan.
     */
    static final long QUANTUM_NANOS = 50_000_000;

    /** Where a search is in its life. */
    private enum Phase {
        /** Built; {@link #start} has not run. */
        NEW,
        /** Tasks are queued or running. */
        RUNNING,
        /**
         * A task stopped because the sink was not writable and queued no successor; the others
         * finish their chunks. {@link #resume} tops the tasks up again.
         */
        PAUSED,
        /** Done or error is written (or, cancelled, nothing is) and {@code onEnd} ran: no task is left. */
        ENDED;

        boolean canMoveTo(Phase next) {
            return switch (this) {
                case NEW -> next == RUNNING || next == ENDED;
                case RUNNING, PAUSED -> next != NEW;
                case ENDED -> false;
            };
        }
    }

    /**
     * Why no more work is handed out, weakest first: a stronger reason replaces a weaker one, so a
     * failure outranks a truncation and a cancelled search writes nothing at all.
     */
    private enum Stop {
        NONE(Done.Truncation.NONE),
        DEADLINE(Done.Truncation.DEADLINE),
        MAX_RESULTS(Done.Truncation.MAX_RESULTS),
        FAILED(Done.Truncation.NONE),
        CANCELLED(Done.Truncation.NONE);

        final Done.Truncation truncation;

        Stop(Done.Truncation truncation) {
            this.truncation = truncation;
        }
    }

    private final LiveShard live;
    private final List<Segment> segments;
    /** Each segment's doc table, by segment index: read per candidate. */
    private final DocTable[] tables;

    private final SearchSpec spec;
    private final FrameSink sink;
    private final Executor pool;
    /** Tasks at most at once. */
    private final int parallelism;

    private final SearchTasks tasks;
    /** Bytes of results after which a task writes them out (to the sink, or to its piece). */
    private final int batchBytes;
    /** This search's place in {@link SearchQueue}'s foreground order. */
    private final long arrival = SearchQueue.arrival();
    /** Time its chunks have run on the pool, all tasks together. */
    private final LongAdder ranNanos = new LongAdder();

    private final Runnable onEnd;
    private final boolean fullScan;
    private final boolean filesOnly;
    private final SearchTally tally;
    private final Scratch scratch;

    private final Object lock = new Object();
    // Guarded by lock; stop is also read without it, by the tasks' checks between docs.
    private Phase phase = Phase.NEW;
    private volatile Stop stop = Stop.NONE;
    /** The error message, once stop is FAILED. */
    private String failure;
    /** Tasks queued or running. */
    private int active;
    /** Set by start; read by tasks, which start runs after it. */
    private SearchInputs inputs;
    /** No candidate is left to hand out (work handed back may be). */
    private boolean exhausted;

    /** A search of a shard without symbols (no definition boost). */
    public SearchExecution(
            Shard shard,
            SearchSpec spec,
            FrameSink sink,
            Executor pool,
            Parallelism parallelism,
            LongSupplier nanoTime,
            Runnable onEnd,
            LongAdder produced,
            Scratch scratch) {
        this(
                LiveShard.of(shard, Symbols.absent("not given to this search")),
                spec,
                sink,
                pool,
                parallelism,
                nanoTime,
                onEnd,
                produced,
                scratch);
    }

    /**
     * A search of {@code live}'s segments, whose symbols rank definition lines above uses. The
     * caller keeps {@code live} open until {@code onEnd} has run.
     */
    public SearchExecution(
            LiveShard live,
            SearchSpec spec,
            FrameSink sink,
            Executor pool,
            Parallelism parallelism,
            LongSupplier nanoTime,
            Runnable onEnd,
            LongAdder produced,
            Scratch scratch) {
        this.live = live;
        this.segments = live.segments();
        this.tables = new DocTable[segments.size()];
        for (int i = 0; i < tables.length; i++) {
            tables[i] = segments.get(i).shard().docs();
        }
        this.spec = spec;
        this.sink = sink;
        this.pool = pool;
        this.parallelism = parallelism.tasks();
        this.batchBytes = Math.min(ResultEncoder.BATCH_BYTES, parallelism.pieceBytes());
        this.onEnd = onEnd;
        this.fullScan = spec.compiled().fullScan();
        this.filesOnly = spec.compiled().query().filesOnly();
        this.tally = new SearchTally(spec.maxResults(), live.liveDocs(), nanoTime, produced);
        this.scratch = scratch;
        PackageNames packageNames = new PackageNames(segments);
        this.tasks = parallelism.reorders()
                ? new InOrderTasks(this, sink, tally, packageNames, spec.maxResults(), parallelism)
                : new UnorderedTasks(this, sink, tally, packageNames);
    }

    /** True when no trigram could be extracted and every file is searched. */
    public boolean fullScan() {
        return fullScan;
    }

    /** Reads the candidates off the index and starts the tasks; an unreadable index ends the search with an error. */
    public void start() {
        SearchInputs read;
        try {
            read = SearchInputs.read(spec.compiled(), segments, tables);
        } catch (IllegalArgumentException e) {
            // Too many definitions match: the query's fault, said as such.
            failToStart(e.getMessage());
            return;
        } catch (Exception e) {
            failToStart("cannot read the index: " + e.getMessage());
            return;
        }
        synchronized (lock) {
            if (!startable()) {
                return;
            }
            inputs = read;
            moveTo(Phase.RUNNING);
            // One task to begin with: more join as chunks are drawn while candidates remain
            // (widen), so a query whose candidates fit in one chunk makes one worker, not one per thread.
            active++;
        }
        pool.execute(task());
    }

    private void failToStart(String message) {
        synchronized (lock) {
            if (!startable()) {
                return;
            }
            stop(Stop.FAILED, message);
        }
        finishIfLast(false);
    }

    /** The sink became writable again: continue a paused search. */
    public void resume() {
        synchronized (lock) {
            if (phase != Phase.PAUSED) {
                return;
            }
            moveTo(Phase.RUNNING);
        }
        schedule();
    }

    /** The peer went away: stop at the next doc; nothing more is written. */
    public void cancel() {
        boolean end;
        synchronized (lock) {
            stop(Stop.CANCELLED, null);
            end = active == 0 && phase != Phase.ENDED;
            if (end) {
                moveTo(Phase.ENDED);
            }
        }
        if (end) {
            onEnd.run();
        }
    }

    /** True when new; false when cancelled before it started, which leaves nothing to do. */
    private boolean startable() {
        if (phase == Phase.ENDED && stop == Stop.CANCELLED) {
            return false;
        }
        if (phase != Phase.NEW) {
            throw new IllegalStateException("a search starts once, but this one is already " + phase);
        }
        return true;
    }

    private void moveTo(Phase next) {
        assert Thread.holdsLock(lock);
        assert phase.canMoveTo(next) : "a search cannot go from " + phase + " to " + next;
        phase = next;
        if (next == Phase.ENDED) {
            tasks.ended();
        }
    }

    /** Records why the search stops unless a stronger reason already did; no more work is handed out. */
    private void stop(Stop reason, String message) {
        assert Thread.holdsLock(lock);
        assert (reason == Stop.FAILED) == (message != null) : "a message comes with a failure, and only with one";
        if (reason.compareTo(stop) > 0) {
            stop = reason;
            failure = message;
        }
    }

    private void schedule() {
        int start;
        synchronized (lock) {
            if (phase == Phase.ENDED || stop == Stop.CANCELLED) {
                return;
            }
            start = Math.max(0, parallelism - active);
            active += start;
        }
        for (int i = 0; i < start; i++) {
            pool.execute(task());
        }
    }

    /** The next chunk's task, placed by this search's arrival and the time it has run. */
    private Runnable task() {
        return new SearchQueue.Task(arrival, ranNanos.sum() > QUANTUM_NANOS, tasks::run);
    }

    /** Called when a task has no more work: the last one writes done (or error) and ends the stream. */
    private void finishIfLast(boolean wasActive) {
        Stop reason;
        synchronized (lock) {
            if (wasActive) {
                active--;
            }
            reason = stop;
            if (active > 0 || phase == Phase.ENDED || (reason == Stop.NONE && !(exhausted && !tasks.holdsWork()))) {
                return;
            }
            moveTo(Phase.ENDED);
        }
        if (reason == Stop.CANCELLED) {
            onEnd.run();
            return;
        }
        try {
            ByteBuf out = sink.allocator().buffer(256);
            if (reason == Stop.FAILED) {
                MessageBuilder message = Messages.newBuilder();
                message.initRoot(Response.factory)
                        .initError()
                        .setCode(Failure.Code.INTERNAL)
                        .setMessage(ShardPaths.without(live, failure));
                Framing.write(message, out);
            } else {
                tally.done(out, reason.truncation, fullScan, live.generation());
            }
            sink.finish(out);
        } finally {
            // Also when the last message cannot be made: the search holds its generation until this runs.
            onEnd.run();
        }
    }

    // What the tasks ask of their search (SearchTasks and the workers' coordinators):

    /** The lock that guards the search's phase, its candidates and its tasks' shared state. */
    Object lock() {
        return lock;
    }

    /** A worker for one task, writing to {@code to} and coordinated by {@code by}. */
    ChunkWorker newWorker(FrameSink to, ChunkWorker.Coordinator by) {
        return new ChunkWorker(spec, inputs, segments, to, by, scratch, batchBytes);
    }

    /** Adds a task's time on the pool. */
    void ran(long nanos) {
        ranNanos.add(nanos);
    }

    /** True once any reason stops the search: no more work is taken. */
    boolean stopping() {
        return stop != Stop.NONE;
    }

    boolean cancelled() {
        return stop == Stop.CANCELLED;
    }

    /** True when the search failed or was cancelled: results held are never sent. */
    boolean withholdsResults() {
        Stop s = stop;
        return s == Stop.FAILED || s == Stop.CANCELLED;
    }

    /** Holds the lock: every candidate has been drawn. */
    boolean exhausted() {
        assert Thread.holdsLock(lock);
        return exhausted;
    }

    /** The one deadline check, between docs and every 256 results: past it, the search is truncated. */
    boolean pastDeadline() {
        if (tally.elapsedNanos() <= spec.deadlineNanos()) {
            return false;
        }
        synchronized (lock) {
            stop(Stop.DEADLINE, null);
        }
        return true;
    }

    /** Holds the lock: the result cap was reached, and no more work is handed out. */
    void stopAtMaxResults() {
        stop(Stop.MAX_RESULTS, null);
    }

    /**
     * Holds the lock: adds candidates after the first {@code n} items, up to a chunk's docs or
     * bytes, and counts them; returns the items now.
     */
    int drawCandidates(int[] segs, int[] docs, int[] froms, int[] lines, int n) throws Exception {
        assert Thread.holdsLock(lock);
        RankedMerge candidates = inputs.candidates();
        int first = n;
        long bytes = 0;
        while (n < docs.length && !exhausted && bytes < CHUNK_BYTES) {
            int doc = candidates.next();
            if (doc == DocIterator.NO_MORE_DOCS) {
                exhausted = true;
                break;
            }
            // A file-name query reads no content: its chunks are bounded by docs alone.
            int segment = candidates.segment();
            bytes += filesOnly ? 0 : tables[segment].contentLength(doc);
            segs[n] = segment;
            docs[n] = doc;
            froms[n] = 0;
            lines[n++] = 1;
        }
        tally.countCandidates(n - first);
        return n;
    }

    /**
     * Holds the lock: a chunk was just drawn and candidates remain, so another task joins while
     * fewer than {@link #parallelism} run. Each task makes a worker (its matchers and buffers): a
     * query whose candidates fit in one chunk needs one, not one per thread.
     */
    void widen() {
        assert Thread.holdsLock(lock);
        if (active < parallelism && phase == Phase.RUNNING && stop == Stop.NONE && !exhausted) {
            active++;
            pool.execute(task());
        }
    }

    /** A task's successor goes on the pool. */
    void queueTask() {
        pool.execute(task());
    }

    /** Holds the lock: a task ends while another holds the work it waits for. */
    void taskLeft() {
        assert Thread.holdsLock(lock);
        active--;
    }

    /** A task stopped because the sink is full: the search waits for {@link #resume}. */
    void pause() {
        boolean stopped;
        boolean resumeNow = false;
        synchronized (lock) {
            stopped = stop != Stop.NONE;
            if (!stopped) {
                active--;
                // The sink may have drained since the check, and its writability event with it.
                resumeNow = sink.isWritable();
                moveTo(resumeNow ? Phase.RUNNING : Phase.PAUSED);
            }
        }
        if (stopped) {
            // Stopped (cancelled, say) since the task looked: paused now, the search would never end.
            finishIfLast(true);
        } else if (resumeNow) {
            schedule();
        }
    }

    /** A task ended with no more work for it. */
    void taskEnded() {
        finishIfLast(true);
    }

    /** Whatever ends a chunk ends the search with an error: a task that died silently would leave its search, and its client, waiting for ever. */
    void failed(Throwable e) {
        synchronized (lock) {
            stop(
                    Stop.FAILED,
                    e instanceof OutOfMemoryError
                            ? "out of memory while searching"
                            : e.getMessage() == null ? e.toString() : e.getMessage());
        }
        finishIfLast(true);
    }

    static void release(ByteBuf buf) {
        if (buf != null) {
            buf.release();
        }
    }
}
