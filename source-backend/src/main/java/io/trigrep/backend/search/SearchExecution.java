package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
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
import io.trigrep.query.CompiledQuery;
import io.trigrep.query.Operands;
import io.trigrep.query.plan.Query;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.capnproto.MessageBuilder;

/**
 * One running search over one shard's live segments. Candidate docs (in static-rank order across
 * segments, {@link RankedMerge}; deleted docs left out, {@link LiveDocs}) are handed out in chunks to up to {@code parallelism} tasks on a shared pool; each task
 * searches one chunk, writes its results and, while the sink is writable, queues the next chunk.
 * Where it queues is {@link SearchPool}'s to say, by when the query arrived and whether it has
 * run for more than {@link #QUANTUM_NANOS}. While the sink is not writable
 * no task is queued at all: the search is paused, holding no thread, until {@link #resume}.
 * A search whose results must leave in doc order ({@link Parallelism#inOrder}) runs its tasks
 * the same way, but each task searches a piece and holds what it found until the pieces before it
 * are sent ({@link PieceOrder}); the pieces, not the candidates, are then what is handed out.
 * The stream ends with exactly one done or error message, or with nothing once cancelled. Where
 * the search is ({@link Phase}) and why it stops ({@link Stop}) are explicit; the searching
 * itself is {@link ChunkWorker}'s.
 */
public final class SearchExecution {
    /**
     * A chunk also ends once it holds this much content, so that the few large candidates of a
     * selective query (a multi-megabyte ChangeLog, a configure script) go to different tasks
     * instead of one task scanning them all while the others have nothing to do.
     */
    private static final long CHUNK_BYTES = 1 << 20;

    private static final long PROGRESS_NANOS = 250_000_000;

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
    /** Live docs of the shard: the total a search reports, however many segments hold them. */
    private final int totalFiles;

    private final SearchSpec spec;
    private final CompiledQuery compiled;
    private final FrameSink sink;
    private final Executor pool;
    /** Tasks at most at once. */
    private final int parallelism;
    /** The pieces not yet sent when results are held to leave in doc order; null when each task writes straight to the sink. */
    private final PieceOrder order;
    /** Bytes of results after which a task writes them out (to the sink, or to its piece). */
    private final int batchBytes;
    /** An in-order task's piece holds about this many bytes at most before it hands on the rest. */
    private final int pieceBytes;
    /** This search's place in {@link SearchQueue}'s foreground order. */
    private final long arrival = SearchQueue.arrival();
    /** Time its chunks have run on the pool, all tasks together. */
    private final LongAdder ranNanos = new LongAdder();

    private final LongSupplier nanoTime;
    private final long started;
    private final Runnable onEnd;
    private final boolean fullScan;
    private final boolean filesOnly;
    /** Per segment: its packages' names in UTF-8, read once each. */
    private final List<AtomicReferenceArray<byte[]>> packageNames;
    /**
     * Workers between chunks: a chunk takes one (or makes one, at most one per task running at
     * once) and gives it back, so a search's matchers and DFA caches are made once per task, not
     * per chunk. They belong to this search alone: a ThreadLocal per search kept every finished
     * search reachable from the pool's threads (its value, the worker, points back at the search
     * that holds the key), about 29 KiB of heap per query, for ever.
     */
    private final ConcurrentLinkedQueue<ChunkWorker> idleWorkers = new ConcurrentLinkedQueue<>();
    /** The same for an in-order search's tasks, each worker with the lane it reports through. */
    private final ConcurrentLinkedQueue<Lane> idleLanes = new ConcurrentLinkedQueue<>();

    private final ChunkWorker.Coordinator coordinator = new Coordination();
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
    private RankedMerge candidates;

    private List<String> needles;
    /** A sym: query's definitions, per segment; null otherwise. */
    private SymbolHits[] hits;
    /** A boolean query's sym: operands' definitions, per segment then operand (null for a regex operand); null without such operands. */
    private SymbolHits[][] defined;
    /** A boolean query's needles per operand; empty otherwise. */
    private List<List<String>> operandNeedles;
    /** No candidate is left to hand out (work handed back may be). */
    private boolean exhausted;

    /** Work handed back: {segment, doc, from, line}. */
    private final ArrayDeque<int[]> resumable = new ArrayDeque<>();

    private final AtomicLong filesSearched = new AtomicLong();
    private final AtomicLong candidateFiles = new AtomicLong();
    private final AtomicLong results = new AtomicLong();
    private final AtomicLong lastProgress;
    private final LongAdder produced;

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
        this.totalFiles = live.liveDocs();
        this.produced = produced;
        this.spec = spec;
        this.compiled = spec.compiled();
        this.sink = sink;
        this.pool = pool;
        this.parallelism = parallelism.tasks();
        this.order = parallelism.reorders() ? new PieceOrder(parallelism.window()) : null;
        this.pieceBytes = parallelism.pieceBytes();
        this.batchBytes = Math.min(ChunkWorker.BATCH_BYTES, parallelism.pieceBytes());
        this.nanoTime = nanoTime;
        this.started = nanoTime.getAsLong();
        this.lastProgress = new AtomicLong(started);
        this.onEnd = onEnd;
        this.fullScan = compiled.fullScan();
        this.filesOnly = compiled.query().filesOnly();
        List<AtomicReferenceArray<byte[]>> names = new ArrayList<>(segments.size());
        for (Segment s : segments) {
            names.add(new AtomicReferenceArray<>(s.shard().docs().packageCount()));
        }
        this.packageNames = names;
        this.scratch = scratch;
    }

    /** True when no trigram could be extracted and every file is searched. */
    public boolean fullScan() {
        return fullScan;
    }

    /** Reads the candidates off the index and starts the tasks; an unreadable index ends the search with an error. */
    public void start() {
        RankedMerge iterator;
        List<String> needlesFound;
        List<List<String>> perOperand = new ArrayList<>();
        SymbolHits[] found = null;
        SymbolHits[][] definedFound = null;
        try {
            List<DocIterator> perSegment = new ArrayList<>(segments.size());
            if (compiled.query().isSymbolQuery()) {
                found = new SymbolHits[segments.size()];
            }
            if (compiled.operands() != null && compiled.operands().hasSymbols()) {
                definedFound = new SymbolHits[segments.size()][];
            }
            for (int i = 0; i < segments.size(); i++) {
                Segment s = segments.get(i);
                DocIterator docs;
                if (found != null) {
                    found[i] = SymbolHits.find(s.symbols(), compiled.plan(), compiled.symbolNames());
                    docs = found[i].docIterator();
                } else if (definedFound != null) {
                    definedFound[i] = defined(s);
                    docs = Candidates.of(compiled.plan(), s.shard().index(), definedFound[i]);
                } else {
                    docs = Candidates.of(compiled.plan(), s.shard().index());
                }
                perSegment.add(s.deletes().count() == 0 ? docs : new LiveDocs(docs, s.deletes()));
            }
            iterator = new RankedMerge(perSegment, List.of(tables));
            // Needles only prefilter lines, so any segment's serve all; the largest's counts choose best.
            Segment largest = largest();
            Shard shard = largest == null ? null : largest.shard();
            boolean fold = compiled.query().caseInsensitive();
            Operands operands = compiled.operands();
            if (shard == null) {
                needlesFound = List.of(); // a shard without segments has no candidate to search
            } else if (operands == null) {
                needlesFound = compiled.literal() == null && compiled.pattern() != null
                        ? Needles.of(compiled.plan(), shard.index(), fold)
                        : List.of();
            } else {
                List<Query> shownPlans = new ArrayList<>();
                for (int i = 0; i < operands.size(); i++) {
                    // A sym: operand's plan is over names: it has no needles in contents.
                    perOperand.add(
                            operands.sym(i)
                                    ? List.of()
                                    : Needles.of(operands.plans().get(i), shard.index(), fold));
                    if (operands.shown().get(i) && !operands.sym(i)) {
                        shownPlans.add(operands.plans().get(i));
                    }
                }
                // The shown lines match one of the shown operands: each holds one of its operand's needles.
                needlesFound = Needles.of(Query.anyOf(shownPlans), shard.index(), fold);
            }
        } catch (IllegalArgumentException e) {
            // Too many definitions match: the query's fault, said as such.
            synchronized (lock) {
                if (!startable()) {
                    return;
                }
                stop(Stop.FAILED, e.getMessage());
            }
            finishIfLast(false);
            return;
        } catch (Exception e) {
            synchronized (lock) {
                if (!startable()) {
                    return;
                }
                stop(Stop.FAILED, "cannot read the index: " + e.getMessage());
            }
            finishIfLast(false);
            return;
        }
        synchronized (lock) {
            if (!startable()) {
                return;
            }
            candidates = iterator;
            needles = needlesFound;
            operandNeedles = perOperand;
            hits = found;
            defined = definedFound;
            moveTo(Phase.RUNNING);
            // One task to begin with: more join as chunks are drawn while candidates remain
            // (widen), so a query whose candidates fit in one chunk makes one worker, not one per thread.
            active++;
        }
        pool.execute(task());
    }

    /** Segment {@code s}'s definitions for each sym: operand of the boolean query, by operand index (null for a regex operand). */
    private SymbolHits[] defined(Segment s) throws Exception {
        Operands operands = compiled.operands();
        SymbolHits[] out = new SymbolHits[operands.size()];
        for (int i = 0; i < out.length; i++) {
            if (operands.sym(i)) {
                out[i] = SymbolHits.find(
                        s.symbols(),
                        operands.plans().get(i),
                        operands.patterns().get(i));
            }
        }
        return out;
    }

    /** The segment with the most docs; null when there is none. */
    private Segment largest() {
        Segment best = null;
        for (Segment s : segments) {
            if (best == null || s.deletes().docCount() > best.deletes().docCount()) {
                best = s;
            }
        }
        return best;
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
        if (next == Phase.ENDED && order != null) {
            // Pieces no task searches any more: what they hold is never sent.
            order.dropAll();
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

    /**
     * Holds the lock: a chunk was just drawn and candidates remain, so another task joins while
     * fewer than {@link #parallelism} run. Each task makes a worker (its matchers and buffers): a
     * query whose candidates fit in one chunk needs one, not one per thread.
     */
    private void widen() {
        assert Thread.holdsLock(lock);
        if (active < parallelism && phase == Phase.RUNNING && stop == Stop.NONE && !exhausted) {
            active++;
            pool.execute(task());
        }
    }

    /** The next chunk's task, placed by this search's arrival and the time it has run. */
    private Runnable task() {
        return new SearchQueue.Task(arrival, ranNanos.sum() > QUANTUM_NANOS, this::runChunk);
    }

    private void runChunk() {
        if (order != null) {
            runPiece();
            return;
        }
        ChunkWorker idle = idleWorkers.poll();
        ChunkWorker worker = idle != null ? idle : newWorker(sink, coordinator);
        boolean more;
        long started = System.nanoTime();
        try {
            more = worker.search();
            ranNanos.add(System.nanoTime() - started);
        } catch (Exception | OutOfMemoryError e) {
            release(worker.takeOutput());
            failed(e);
            return;
        }
        ByteBuf out = worker.takeOutput();
        idleWorkers.offer(worker);
        boolean cancelled = stop == Stop.CANCELLED;
        if (cancelled || !out.isReadable()) {
            out.release();
        } else {
            sink.write(out);
        }
        if (more && !cancelled && sink.isWritable()) {
            pool.execute(task());
            return;
        }
        if (more && !cancelled) {
            pause();
            return;
        }
        finishIfLast(true);
    }

    /**
     * An in-order task: searches one piece, then sends whatever pieces are now first and done,
     * and goes on while there is work it may start.
     */
    private void runPiece() {
        Lane idle = idleLanes.poll();
        Lane lane = idle != null ? idle : new Lane();
        long started = System.nanoTime();
        try {
            lane.worker.search();
            ranNanos.add(System.nanoTime() - started);
        } catch (Exception | OutOfMemoryError e) {
            Piece p = lane.piece;
            lane.piece = null;
            release(lane.worker.takeOutput());
            if (p != null) {
                synchronized (lock) {
                    p.clear();
                    p.discarded = true;
                }
            }
            failed(e);
            return;
        }
        ByteBuf out = lane.worker.takeOutput();
        Piece p = lane.piece;
        lane.piece = null;
        idleLanes.offer(lane);
        boolean goOn;
        boolean finish;
        synchronized (lock) {
            if (p == null || p.discarded || stop == Stop.CANCELLED) {
                release(out);
                if (p != null) {
                    p.clear();
                }
            } else {
                if (out.isReadable()) {
                    p.write(out);
                } else {
                    out.release();
                }
                order.done(p);
                sendInOrder();
            }
            finish = stop != Stop.NONE || (exhausted && order.isEmpty());
            boolean work = order.hasQueued() || (!exhausted && order.acceptsNew());
            boolean writable = sink.isWritable();
            goOn = !finish && work && writable;
            if (!finish && !work) {
                // Another task holds the work this one waits for, and tops the tasks up when it ends.
                active--;
                return;
            }
        }
        if (finish) {
            finishIfLast(true);
        } else if (goOn) {
            pool.execute(task());
        } else {
            pause();
        }
    }

    /** Holds the lock: sends the pieces that are first and done, in doc order. */
    private void sendInOrder() {
        assert Thread.holdsLock(lock);
        if (stop == Stop.FAILED || stop == Stop.CANCELLED) {
            return;
        }
        for (Piece p = order.poll(results.get(), spec.maxResults());
                p != null;
                p = order.poll(results.get(), spec.maxResults())) {
            long sent = results.get();
            for (ByteBuf frame : p.frames) {
                sink.write(frame);
            }
            p.frames.clear();
            results.addAndGet(p.results);
            filesSearched.addAndGet(p.files);
            produced.add(Math.max(0, Math.min(p.results, spec.maxResults() - sent)));
        }
    }

    /** A task stopped because the sink is full: the search waits for {@link #resume}. */
    private void pause() {
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

    /** Whatever ends a chunk ends the search with an error: a task that died silently would leave its search, and its client, waiting for ever. */
    private void failed(Throwable e) {
        synchronized (lock) {
            stop(
                    Stop.FAILED,
                    e instanceof OutOfMemoryError
                            ? "out of memory while searching"
                            : e.getMessage() == null ? e.toString() : e.getMessage());
        }
        finishIfLast(true);
    }

    private static void release(ByteBuf buf) {
        if (buf != null) {
            buf.release();
        }
    }

    private ChunkWorker newWorker(FrameSink to, ChunkWorker.Coordinator by) {
        return new ChunkWorker(spec, needles, operandNeedles, segments, hits, defined, to, by, scratch, batchBytes);
    }

    /** Called when a task has no more work: the last one writes done (or error) and ends the stream. */
    private void finishIfLast(boolean wasActive) {
        Stop reason;
        synchronized (lock) {
            if (wasActive) {
                active--;
            }
            reason = stop;
            if (active > 0
                    || phase == Phase.ENDED
                    || (reason == Stop.NONE
                            && !(exhausted && resumable.isEmpty() && (order == null || order.isEmpty())))) {
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
            MessageBuilder message = Messages.newBuilder();
            if (reason == Stop.FAILED) {
                message.initRoot(Response.factory)
                        .initError()
                        .setCode(Failure.Code.INTERNAL)
                        .setMessage(ShardPaths.without(live, failure));
            } else {
                message.initRoot(Response.factory)
                        .initDone()
                        .setResults(Math.min(results.get(), spec.maxResults()))
                        .setFilesSearched(filesSearched.get())
                        .setCandidateFiles(candidateFiles.get())
                        .setTotalFiles(totalFiles)
                        .setElapsedNanos(nanoTime.getAsLong() - started)
                        .setTruncation(reason.truncation)
                        .setFullScan(fullScan)
                        .setGeneration(live.generation());
            }
            Framing.write(message, out);
            sink.finish(out);
        } finally {
            // Also when the last message cannot be made: the search holds its generation until this runs.
            onEnd.run();
        }
    }

    /** The one deadline check, between docs and every 256 results: past it, the search is truncated. */
    private boolean pastDeadline() {
        if (nanoTime.getAsLong() - started <= spec.deadlineNanos()) {
            return false;
        }
        synchronized (lock) {
            stop(Stop.DEADLINE, null);
        }
        return true;
    }

    /**
     * Holds the lock: adds candidates after the first {@code n} items, up to a chunk's docs or
     * bytes, and counts them; returns the items now.
     */
    private int fresh(int[] segs, int[] docs, int[] froms, int[] lines, int n) throws Exception {
        assert Thread.holdsLock(lock);
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
        candidateFiles.addAndGet(n - first);
        return n;
    }

    /** A progress message to {@code out}, when one is due. */
    private void progress(ByteBuf out) {
        long now = nanoTime.getAsLong();
        long last = lastProgress.get();
        if (now - last < PROGRESS_NANOS || !lastProgress.compareAndSet(last, now)) {
            return;
        }
        MessageBuilder message = Messages.newBuilder();
        message.initRoot(Response.factory)
                .initProgress()
                .setFilesSearched(filesSearched.get())
                .setCandidateFiles(candidateFiles.get())
                .setTotalFiles(totalFiles)
                .setResults(Math.min(results.get(), spec.maxResults()));
        Framing.write(message, out);
    }

    /** The search as its workers see it. */
    private final class Coordination implements ChunkWorker.Coordinator {
        @Override
        public int nextChunk(int[] segs, int[] docs, int[] froms, int[] lines) throws Exception {
            synchronized (lock) {
                if (stop != Stop.NONE || (exhausted && resumable.isEmpty()) || pastDeadline()) {
                    return 0;
                }
                int n = 0;
                while (n < docs.length && !resumable.isEmpty()) {
                    int[] item = resumable.poll();
                    segs[n] = item[0];
                    docs[n] = item[1];
                    froms[n] = item[2];
                    lines[n++] = item[3];
                }
                n = fresh(segs, docs, froms, lines, n);
                widen();
                return n;
            }
        }

        @Override
        public void handBack(int segment, int doc, int from, int line) {
            synchronized (lock) {
                resumable.add(new int[] {segment, doc, from, line});
            }
        }

        @Override
        public boolean cancelled() {
            return stop == Stop.CANCELLED;
        }

        @Override
        public boolean pastDeadline() {
            return SearchExecution.this.pastDeadline();
        }

        @Override
        public long countResult() {
            long count = results.incrementAndGet();
            if (count <= spec.maxResults()) {
                produced.increment();
            }
            return count;
        }

        @Override
        public void stopForMaxResults() {
            synchronized (lock) {
                stop(Stop.MAX_RESULTS, null);
            }
        }

        @Override
        public void fileSearched(ByteBuf out) {
            filesSearched.incrementAndGet();
            progress(out);
        }

        @Override
        public byte[] packageName(int segment, int packageId) throws Exception {
            AtomicReferenceArray<byte[]> names = packageNames.get(segment);
            byte[] name = names.get(packageId);
            if (name == null) {
                name = segments.get(segment)
                        .shard()
                        .docs()
                        .packageName(packageId)
                        .getBytes(StandardCharsets.UTF_8);
                names.set(packageId, name);
            }
            return name;
        }
    }

    /**
     * An in-order task's view of its search: the piece it searches is where its results are
     * counted and its frames held ({@link PieceOrder}). One per task running at once, with its
     * worker, reused from piece to piece.
     */
    private final class Lane implements ChunkWorker.Coordinator, FrameSink {
        final ChunkWorker worker = newWorker(this, this);
        /** The piece being searched; null between pieces. */
        Piece piece;

        @Override
        public int nextChunk(int[] segs, int[] docs, int[] froms, int[] lines) throws Exception {
            synchronized (lock) {
                piece = null;
                if (stop != Stop.NONE || !sink.isWritable() || SearchExecution.this.pastDeadline()) {
                    return 0;
                }
                Piece p = order.take();
                if (p != null) {
                    piece = p;
                    return p.copyTo(segs, docs, froms, lines);
                }
                if (exhausted || !order.acceptsNew()) {
                    return 0;
                }
                int n = fresh(segs, docs, froms, lines, 0);
                if (n == 0) {
                    return 0;
                }
                widen();
                p = order.appendTaken();
                for (int i = 0; i < n; i++) {
                    p.add(segs[i], docs[i], froms[i], lines[i]);
                }
                piece = p;
                return n;
            }
        }

        @Override
        public void handBack(int segment, int doc, int from, int line) {
            synchronized (lock) {
                Piece next = order.handOn(piece);
                boolean added = next == null || next.add(segment, doc, from, line);
                assert added : "a piece hands on at most the items it was given";
            }
        }

        @Override
        public boolean cancelled() {
            if (stop == Stop.NONE && !piece.discarded) {
                return false;
            }
            // The search stopped (another task saw the deadline, say), or a piece before this one
            // reached the cap: the piece ends here, and nothing after it may be sent.
            piece.truncated = true;
            return true;
        }

        @Override
        public boolean pastDeadline() {
            boolean past = SearchExecution.this.pastDeadline();
            if (past) {
                piece.truncated = true;
            }
            return past;
        }

        @Override
        public long countResult() {
            // Too low while pieces before this one are unsent: PieceOrder.poll corrects it.
            return results.get() + ++piece.results;
        }

        @Override
        public void stopForMaxResults() {
            synchronized (lock) {
                order.full(piece);
                if (piece.exact) {
                    stop(Stop.MAX_RESULTS, null);
                }
            }
        }

        @Override
        public void fileSearched(ByteBuf out) {
            piece.files++;
            progress(out);
        }

        @Override
        public byte[] packageName(int segment, int packageId) throws Exception {
            return coordinator.packageName(segment, packageId);
        }

        /** While its piece holds less than a piece's bytes; past them, the worker hands the rest on. */
        @Override
        public boolean isWritable() {
            return piece.bytes < pieceBytes;
        }

        @Override
        public void write(ByteBuf frames) {
            piece.write(frames);
        }

        @Override
        public void finish(ByteBuf frames) {
            throw new IllegalStateException("a piece's task never ends the stream");
        }

        @Override
        public ByteBufAllocator allocator() {
            return sink.allocator();
        }
    }
}
