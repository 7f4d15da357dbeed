package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A search's tasks as they run when results must leave in doc order ({@link Parallelism#inOrder}):
 * each task searches a piece and holds what it found until the pieces before it are sent
 * ({@link PieceOrder}); the pieces, not the candidates, are what is handed out.
 */
final class InOrderTasks implements SearchTasks {
    private final SearchExecution search;
    private final FrameSink sink;
    private final SearchTally tally;
    private final PackageNames packageNames;
    private final long maxResults;
    /** The pieces not yet sent, guarded by the search's lock. */
    private final PieceOrder order;
    /** A task's piece holds about this many bytes at most before it hands on the rest. */
    private final int pieceBytes;
    /** Lanes between pieces, each with its worker: made once per task running at once. */
    private final ConcurrentLinkedQueue<Lane> idleLanes = new ConcurrentLinkedQueue<>();

    InOrderTasks(
            SearchExecution search,
            FrameSink sink,
            SearchTally tally,
            PackageNames packageNames,
            long maxResults,
            Parallelism parallelism) {
        this.search = search;
        this.sink = sink;
        this.tally = tally;
        this.packageNames = packageNames;
        this.maxResults = maxResults;
        this.order = new PieceOrder(parallelism.window());
        this.pieceBytes = parallelism.pieceBytes();
    }

    /**
     * Searches one piece, then sends whatever pieces are now first and done, and goes on while
     * there is work it may start.
     */
    @Override
    public void run() {
        Lane idle = idleLanes.poll();
        Lane lane = idle != null ? idle : new Lane();
        long started = System.nanoTime();
        try {
            lane.worker.search();
            search.ran(System.nanoTime() - started);
        } catch (Exception | OutOfMemoryError e) {
            Piece p = lane.piece;
            lane.piece = null;
            SearchExecution.release(lane.worker.takeOutput());
            if (p != null) {
                synchronized (search.lock()) {
                    p.clear();
                    p.discarded = true;
                }
            }
            search.failed(e);
            return;
        }
        ByteBuf out = lane.worker.takeOutput();
        Piece p = lane.piece;
        lane.piece = null;
        idleLanes.offer(lane);
        boolean goOn;
        boolean finish;
        synchronized (search.lock()) {
            if (p == null || p.discarded || search.cancelled()) {
                SearchExecution.release(out);
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
            boolean exhausted = search.exhausted();
            finish = search.stopping() || (exhausted && order.isEmpty());
            boolean work = order.hasQueued() || (!exhausted && order.acceptsNew());
            boolean writable = sink.isWritable();
            goOn = !finish && work && writable;
            if (!finish && !work) {
                // Another task holds the work this one waits for, and tops the tasks up when it ends.
                search.taskLeft();
                return;
            }
        }
        if (finish) {
            search.taskEnded();
        } else if (goOn) {
            search.queueTask();
        } else {
            search.pause();
        }
    }

    @Override
    public boolean holdsWork() {
        return !order.isEmpty();
    }

    /** Pieces no task searches any more: what they hold is never sent. */
    @Override
    public void ended() {
        order.dropAll();
    }

    /** Holds the lock: sends the pieces that are first and done, in doc order. */
    private void sendInOrder() {
        assert Thread.holdsLock(search.lock());
        if (search.withholdsResults()) {
            return;
        }
        for (Piece p = order.poll(tally.results(), maxResults);
                p != null;
                p = order.poll(tally.results(), maxResults)) {
            for (ByteBuf frame : p.frames) {
                sink.write(frame);
            }
            p.frames.clear();
            tally.pieceSent(p);
        }
    }

    /**
     * A task's view of its search: the piece it searches is where its results are counted and its
     * frames held. One per task running at once, with its worker, reused from piece to piece.
     */
    private final class Lane implements ChunkWorker.Coordinator, FrameSink {
        final ChunkWorker worker = search.newWorker(this, this);
        /** The piece being searched; null between pieces. */
        Piece piece;

        @Override
        public int nextChunk(int[] segs, int[] docs, int[] froms, int[] lines) throws Exception {
            synchronized (search.lock()) {
                piece = null;
                if (search.stopping() || !sink.isWritable() || search.pastDeadline()) {
                    return 0;
                }
                Piece p = order.take();
                if (p != null) {
                    piece = p;
                    return p.copyTo(segs, docs, froms, lines);
                }
                if (search.exhausted() || !order.acceptsNew()) {
                    return 0;
                }
                int n = search.drawCandidates(segs, docs, froms, lines, 0);
                if (n == 0) {
                    return 0;
                }
                search.widen();
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
            synchronized (search.lock()) {
                Piece next = order.handOn(piece);
                boolean added = next == null || next.add(segment, doc, from, line);
                assert added : "a piece hands on at most the items it was given";
            }
        }

        @Override
        public boolean cancelled() {
            if (!search.stopping() && !piece.discarded) {
                return false;
            }
            // The search stopped (another task saw the deadline, say), or a piece before this one
            // reached the cap: the piece ends here, and nothing after it may be sent.
            piece.truncated = true;
            return true;
        }

        @Override
        public boolean pastDeadline() {
            boolean past = search.pastDeadline();
            if (past) {
                piece.truncated = true;
            }
            return past;
        }

        @Override
        public long countResult() {
            // Too low while pieces before this one are unsent: PieceOrder.poll corrects it.
            return tally.results() + ++piece.results;
        }

        @Override
        public void stopForMaxResults() {
            synchronized (search.lock()) {
                order.full(piece);
                if (piece.exact) {
                    search.stopAtMaxResults();
                }
            }
        }

        @Override
        public void fileSearched(ByteBuf out) {
            piece.files++;
            tally.progress(out);
        }

        @Override
        public byte[] packageName(int segment, int packageId) throws Exception {
            return packageNames.get(segment, packageId);
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
