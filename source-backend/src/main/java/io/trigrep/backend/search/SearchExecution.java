package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.trigrep.backend.plan.Query;
import io.trigrep.backend.query.SearchSpec;
import io.trigrep.indexer.filetype.FileType;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.Shard;
import io.trigrep.proto.Done;
import io.trigrep.proto.Failure;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import io.trigrep.proto.ResultWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.LongSupplier;
import org.capnproto.MessageBuilder;

/**
 * One running search over one shard. Candidate docs (in doc-id order, which is static-rank
 * order) are handed out in chunks to up to {@code parallelism} tasks on a shared pool; each task
 * searches one chunk, writes its results and, while the sink is writable, queues the next chunk
 * behind other queries' tasks, so queries share the pool fairly. While the sink is not writable
 * no task is queued at all: the search is paused, holding no thread, until {@link #resume}.
 * The stream ends with exactly one done or error message.
 */
public final class SearchExecution {
    private static final int CHUNK_DOCS = 64;
    /**
     * A chunk also ends once it holds this much content, so that the few large candidates of a
     * selective query (a multi-megabyte ChangeLog, a configure script) go to different tasks
     * instead of one task scanning them all while the others have nothing to do.
     */
    private static final long CHUNK_BYTES = 1 << 20;
    /**
     * Results go to the connection in batches of this many bytes (or fewer, at a chunk's end).
     * Each batch is a task for the event loop, which it wakes when idle: at 64 KiB, a stream of
     * 5 million results (1.6 GB) cost the three backends 24,000 to 28,000 context switches and
     * 10 % more CPU; at 256 KiB they streamed it 13 % faster, to the frontend and to a client alike.
     */
    private static final int BATCH_BYTES = 256 << 10;
    private static final long PROGRESS_NANOS = 250_000_000;

    private final Shard shard;
    private final SearchSpec spec;
    private final FrameSink sink;
    private final Executor pool;
    private final int parallelism;
    private final LongSupplier nanoTime;
    private final long started;
    private final Runnable onEnd;
    private final boolean fullScan;
    private final AtomicReferenceArray<byte[]> packageNames;
    /**
     * Workers between chunks: a chunk takes one (or makes one, at most one per task running at
     * once) and gives it back, so a search's matchers and DFA caches are made once per task, not
     * per chunk. They belong to this search alone: a ThreadLocal per search kept every finished
     * search reachable from the pool's threads (its value, the worker, points back at the search
     * that holds the key), about 29 KiB of heap per query, for ever.
     */
    private final java.util.concurrent.ConcurrentLinkedQueue<Worker> idleWorkers = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final Scratch scratch;
    private final List<String> needles;

    private final Object lock = new Object();
    private DocIterator candidates;
    private final java.util.ArrayDeque<int[]> resumable = new java.util.ArrayDeque<>();
    private boolean exhausted;
    private int active;
    private boolean paused;
    private boolean ended;
    private volatile boolean cancelled;
    private volatile Done.Truncation truncation = Done.Truncation.NONE;
    private String failure;

    private final AtomicLong filesSearched = new AtomicLong();
    private final AtomicLong candidateFiles = new AtomicLong();
    private final AtomicLong results = new AtomicLong();
    private final AtomicLong lastProgress;
    private final java.util.concurrent.atomic.LongAdder produced;

    public SearchExecution(Shard shard, SearchSpec spec, FrameSink sink, Executor pool, int parallelism, LongSupplier nanoTime,
                           Runnable onEnd, java.util.concurrent.atomic.LongAdder produced, Scratch scratch) {
        this.produced = produced;
        this.shard = shard;
        this.spec = spec;
        this.sink = sink;
        this.pool = pool;
        this.parallelism = parallelism;
        this.nanoTime = nanoTime;
        this.started = nanoTime.getAsLong();
        this.lastProgress = new AtomicLong(started);
        this.onEnd = onEnd;
        this.fullScan = spec.plan() instanceof Query.All;
        this.packageNames = new AtomicReferenceArray<>(shard.docs().packageCount());
        List<String> found;
        try {
            found = spec.literal() == null ? Needles.of(spec.plan(), shard.index(), spec.query().caseInsensitive()) : List.of();
        } catch (Exception e) {
            found = List.of();
        }
        this.needles = found;
        this.scratch = scratch;
    }

    /** True when no trigram could be extracted and every file is searched. */
    public boolean fullScan() {
        return fullScan;
    }

    public void start() {
        try {
            DocIterator iterator = Candidates.of(spec.plan(), shard.index());
            synchronized (lock) {
                candidates = iterator;
            }
        } catch (Exception e) {
            fail("cannot read the index: " + e.getMessage());
            return;
        }
        schedule();
    }

    /** The sink became writable again: continue a paused search. */
    public void resume() {
        synchronized (lock) {
            if (!paused || ended) {
                return;
            }
            paused = false;
        }
        schedule();
    }

    /** The peer went away: stop at the next doc; nothing more is written. */
    public void cancel() {
        cancelled = true;
        boolean end;
        synchronized (lock) {
            end = active == 0 && !ended;
            if (end) {
                ended = true;
            }
        }
        if (end) {
            onEnd.run();
        }
    }

    private void schedule() {
        int start;
        synchronized (lock) {
            if (ended || cancelled) {
                return;
            }
            start = Math.max(0, parallelism - active);
            active += start;
        }
        for (int i = 0; i < start; i++) {
            pool.execute(this::runChunk);
        }
    }

    private void fail(String message) {
        synchronized (lock) {
            failure = message;
            exhausted = true;
        }
        finishIfLast(false);
    }

    private void runChunk() {
        Worker idle = idleWorkers.poll();
        Worker worker = idle != null ? idle : new Worker(spec, needles, scratch);
        boolean more;
        ByteBuf out;
        try {
            more = worker.search(this);
        } catch (Exception | OutOfMemoryError e) {
            // Whatever ends a chunk ends the search with an error: a task that died silently
            // would leave its search waiting for ever, and its client with it.
            worker.takeOutput().release();
            synchronized (lock) {
                failure = e instanceof OutOfMemoryError ? "out of memory while searching" : e.getMessage() == null ? e.toString() : e.getMessage();
                exhausted = true;
            }
            finishIfLast(true);
            return;
        }
        out = worker.takeOutput();
        idleWorkers.offer(worker);
        if (cancelled) {
            out.release();
        } else if (out.isReadable()) {
            sink.write(out);
        } else {
            out.release();
        }
        if (more && !cancelled && sink.isWritable()) {
            pool.execute(this::runChunk);
            return;
        }
        if (more && !cancelled) {
            boolean resumeNow = false;
            synchronized (lock) {
                active--;
                paused = true;
                if (sink.isWritable()) {
                    paused = false;
                    resumeNow = true;
                }
            }
            if (resumeNow) {
                schedule();
            }
            return;
        }
        finishIfLast(true);
    }

    /** Called when a task has no more work: the last one writes done (or error) and ends the stream. */
    private void finishIfLast(boolean wasActive) {
        boolean last;
        synchronized (lock) {
            if (wasActive) {
                active--;
            }
            last = active == 0 && (exhausted && resumable.isEmpty() || truncation != Done.Truncation.NONE || failure != null) && !ended;
            if (cancelled && active == 0 && !ended) {
                ended = true;
                onEnd.run();
                return;
            }
            if (last) {
                ended = true;
            }
        }
        if (!last) {
            return;
        }
        ByteBuf out = sink.allocator().buffer(256);
        MessageBuilder message = Messages.newBuilder();
        if (failure != null) {
            message.initRoot(Response.factory).initError().setCode(Failure.Code.INTERNAL).setMessage(shard.withoutPaths(failure));
        } else {
            message.initRoot(Response.factory).initDone().setResults(Math.min(results.get(), spec.maxResults())).setFilesSearched(filesSearched.get())
                    .setCandidateFiles(candidateFiles.get()).setTotalFiles(shard.docs().docCount())
                    .setElapsedNanos(nanoTime.getAsLong() - started).setTruncation(truncation).setFullScan(fullScan);
        }
        Framing.write(message, out);
        sink.finish(out);
        onEnd.run();
    }

    /**
     * Up to {@code docs.length} next pieces of work: a doc, the byte it starts at and that byte's
     * line number (0 and 1 unless a paused search handed the rest of a doc back). 0 when there is
     * nothing left or the search must stop.
     */
    int nextChunk(int[] docs, int[] froms, int[] lines) throws Exception {
        synchronized (lock) {
            if (cancelled || (exhausted && resumable.isEmpty()) || failure != null) {
                return 0;
            }
            if (truncation != Done.Truncation.NONE) {
                return 0;
            }
            if (nanoTime.getAsLong() - started > spec.deadlineNanos()) {
                truncation = Done.Truncation.DEADLINE;
                exhausted = true;
                return 0;
            }
            int n = 0;
            while (n < docs.length && !resumable.isEmpty()) {
                int[] item = resumable.poll();
                docs[n] = item[0];
                froms[n] = item[1];
                lines[n++] = item[2];
            }
            int fresh = n;
            long bytes = 0;
            DocTable table = shard.docs();
            while (n < docs.length && !exhausted && bytes < CHUNK_BYTES) {
                int doc = candidates.next();
                if (doc == DocIterator.NO_MORE_DOCS) {
                    exhausted = true;
                    break;
                }
                bytes += table.contentLength(doc);
                docs[n] = doc;
                froms[n] = 0;
                lines[n++] = 1;
            }
            candidateFiles.addAndGet(n - fresh);
            return n;
        }
    }

    /** Work a paused chunk did not do: searched first when the search resumes. */
    void handBack(int doc, int from, int line) {
        synchronized (lock) {
            resumable.add(new int[] {doc, from, line});
        }
    }

    /** True once the deadline has passed; marks the search truncated and stops handing out docs. */
    boolean pastDeadline() {
        if (nanoTime.getAsLong() - started <= spec.deadlineNanos()) {
            return false;
        }
        synchronized (lock) {
            if (truncation == Done.Truncation.NONE) {
                truncation = Done.Truncation.DEADLINE;
            }
            exhausted = true;
        }
        return true;
    }

    void stopForMaxResults() {
        synchronized (lock) {
            truncation = Done.Truncation.MAX_RESULTS;
            exhausted = true;
        }
    }

    byte[] packageName(DocTable docs, int packageId) throws Exception {
        byte[] name = packageNames.get(packageId);
        if (name == null) {
            name = docs.packageName(packageId).getBytes(StandardCharsets.UTF_8);
            packageNames.set(packageId, name);
        }
        return name;
    }

    /** Appends a progress message when the last one is older than 250 ms. */
    void maybeProgress(ByteBuf out) {
        long now = nanoTime.getAsLong();
        long last = lastProgress.get();
        if (now - last < PROGRESS_NANOS || !lastProgress.compareAndSet(last, now)) {
            return;
        }
        MessageBuilder message = Messages.newBuilder();
        message.initRoot(Response.factory).initProgress().setFilesSearched(filesSearched.get())
                .setCandidateFiles(candidateFiles.get()).setTotalFiles(shard.docs().docCount()).setResults(Math.min(results.get(), spec.maxResults()));
        Framing.write(message, out);
    }

    /** The per-thread state that searches chunks: its line matcher, result writer and buffers. */
    static final class Worker implements LineSink {
        private final SearchSpec spec;
        private final LineMatcher matcher;
        private final ResultWriter writer;
        private final int[] chunk = new int[CHUNK_DOCS];
        private final int[] froms = new int[CHUNK_DOCS];
        private final int[] lines = new int[CHUNK_DOCS];
        private int pauseAt = -1;
        private int pauseLine;
        private final int[] context = new int[2 * SearchSpec.MAX_CONTEXT_LINES];
        private final Scratch scratch;

        // The file being searched, while its matching lines are reported:
        private SearchExecution execution;
        private ByteBuf out;
        private DocTable docs;
        private int doc;
        private byte[] content;
        private int length;
        private byte[] pkg;
        private String pathString;
        private byte[] path;
        private ByteBuf source;
        private float staticRank;
        private int pathMatches;
        private boolean full;

        Worker(SearchSpec spec, List<String> needles, Scratch scratch) {
            this.spec = spec;
            this.scratch = scratch;
            this.matcher = spec.literal() != null ? LineMatcher.literal(spec.literal())
                    : spec.foldedLiteral() != null ? LineMatcher.foldedLiteral(spec.pattern(), spec.foldedLiteral())
                    : LineMatcher.regex(spec.pattern(), needles, spec.query().caseInsensitive());
            this.writer = new ResultWriter(spec.contextLines());
        }

        /** Searches one chunk; returns whether more chunks may follow. What is left to write is in {@link #takeOutput}. */
        boolean search(SearchExecution execution) throws Exception {
            this.execution = execution;
            this.out = execution.sink.allocator().buffer(BATCH_BYTES);
            this.docs = execution.shard.docs();
            int n = execution.nextChunk(chunk, froms, lines);
            for (int i = 0; i < n; i++) {
                if (execution.cancelled || full || execution.pastDeadline()) {
                    break;
                }
                if (!execution.sink.isWritable()) {
                    // The peer is behind: give the rest of the chunk back and pause.
                    for (int k = i; k < n; k++) {
                        execution.handBack(chunk[k], froms[k], lines[k]);
                    }
                    break;
                }
                pauseAt = -1;
                searchDoc(chunk[i], froms[i], lines[i]);
                if (pauseAt >= 0) {
                    execution.handBack(chunk[i], pauseAt, pauseLine);
                    for (int k = i + 1; k < n; k++) {
                        execution.handBack(chunk[k], froms[k], lines[k]);
                    }
                    break;
                }
                execution.filesSearched.incrementAndGet();
                execution.maybeProgress(this.out);
            }
            if (full) {
                full = false;
                execution.stopForMaxResults();
                return false;
            }
            return n > 0;
        }

        /** The buffer with the chunk's last results; the caller owns it now. */
        ByteBuf takeOutput() {
            ByteBuf taken = out;
            out = null;
            return taken;
        }

        private void searchDoc(int doc, int from, int line) throws Exception {
            byte[] packageName = execution.packageName(docs, docs.packageId(doc));
            String docPath = null;
            if (spec.hasFilters()) {
                docPath = docs.path(doc);
                if (!spec.accepts(new String(packageName, StandardCharsets.UTF_8), docPath, FileType.ofId(docs.fileType(doc)))) {
                    return;
                }
            }
            ByteBuffer bytes = execution.shard.content(doc);
            length = bytes.remaining();
            content = scratch.atLeast(length);
            bytes.get(0, content, 0, length);
            this.doc = doc;
            pkg = packageName;
            pathString = docPath;
            path = null;
            source = null;
            pathMatches = -1;
            staticRank = docs.rank(doc);
            matcher.search(content, length, from, line, this);
            content = null;
        }

        @Override
        public boolean line(int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount) {
            if (execution.results.incrementAndGet() > spec.maxResults()) {
                full = true;
                return false;
            }
            execution.produced.increment();
            if ((execution.results.get() & 255) == 0 && execution.pastDeadline()) {
                return false;
            }
            if (path == null) {
                // Per file, once it has a match: its path, whether the pattern matches it, and a view of its bytes.
                try {
                    if (pathString == null) {
                        pathString = docs.path(doc);
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e.getMessage(), e);
                }
                path = pathString.getBytes(StandardCharsets.UTF_8);
                pathMatches = spec.pattern().matcher(pathString).find() ? 1 : 0;
                source = Unpooled.wrappedBuffer(content, 0, length);
            }
            float ranking = Ranking.of(staticRank, content, lineStart, lineEnd, ranges[0], ranges[1], pathMatches == 1);
            writer.start(pkg, path, source, lineNumber, ranking);
            int contextLines = spec.contextLines();
            int found = 0;
            for (int cursor = lineStart; found < contextLines && cursor > 0; found++) {
                int previousEnd = cursor - 1;
                int previousStart = LineMatcher.lineStart(content, previousEnd);
                context[2 * found] = previousStart;
                context[2 * found + 1] = previousEnd;
                cursor = previousStart;
            }
            for (int i = found - 1; i >= 0; i--) {
                writer.before(context[2 * i], context[2 * i + 1] - context[2 * i]);
            }
            writer.match(lineStart, lineEnd - lineStart);
            for (int i = 0, cursor = lineEnd; i < contextLines && cursor + 1 < length; i++) {
                int nextStart = cursor + 1;
                int nextEnd = LineMatcher.lineEnd(content, length, nextStart);
                writer.after(nextStart, nextEnd - nextStart);
                cursor = nextEnd;
            }
            // On a long line only the matches in the shown window are written: stop at the first past it.
            for (int i = 0; i < rangeCount; i++) {
                if (writer.range(ranges[2 * i] - lineStart, ranges[2 * i + 1] - lineStart).pastWindow()) {
                    break;
                }
            }
            writer.writeTo(out);
            if (out.readableBytes() >= BATCH_BYTES) {
                execution.sink.write(out);
                out = execution.sink.allocator().buffer(BATCH_BYTES);
                if (!execution.sink.isWritable()) {
                    // Pause inside the file: it is handed back and resumes at the next line.
                    pauseAt = lineEnd + 1;
                    pauseLine = lineNumber + 1;
                    return false;
                }
            }
            return true;
        }
    }
}
