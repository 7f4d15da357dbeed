package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A search's tasks as they run when results may leave in any order: each draws a chunk of
 * candidates, searches it and writes what it found straight to the sink. Work a paused chunk did
 * not do is handed back and drawn first.
 */
final class UnorderedTasks implements SearchTasks {
    private final SearchExecution search;
    private final FrameSink sink;
    private final SearchTally tally;
    private final PackageNames packageNames;
    private final ChunkWorker.Coordinator coordinator = new Coordination();

    /**
     * Workers between chunks: a chunk takes one (or makes one, at most one per task running at
     * once) and gives it back, so a search's matchers and DFA caches are made once per task, not
     * per chunk. They belong to this search alone: a ThreadLocal per search would keep every
     * finished search reachable from the pool's threads.
     */
    private final ConcurrentLinkedQueue<ChunkWorker> idleWorkers = new ConcurrentLinkedQueue<>();

    /** Work handed back, guarded by the search's lock: {segment, doc, from, line}. */
    private final ArrayDeque<int[]> resumable = new ArrayDeque<>();

    UnorderedTasks(SearchExecution search, FrameSink sink, SearchTally tally, PackageNames packageNames) {
        this.search = search;
        this.sink = sink;
        this.tally = tally;
        this.packageNames = packageNames;
    }

    @Override
    public void run() {
        ChunkWorker idle = idleWorkers.poll();
        ChunkWorker worker = idle != null ? idle : search.newWorker(sink, coordinator);
        boolean more;
        long started = System.nanoTime();
        try {
            more = worker.search();
            search.ran(System.nanoTime() - started);
        } catch (Exception | OutOfMemoryError e) {
            SearchExecution.release(worker.takeOutput());
            search.failed(e);
            return;
        }
        ByteBuf out = worker.takeOutput();
        idleWorkers.offer(worker);
        boolean cancelled = search.cancelled();
        if (cancelled || !out.isReadable()) {
            out.release();
        } else {
            sink.write(out);
        }
        if (more && !cancelled && sink.isWritable()) {
            search.queueTask();
            return;
        }
        if (more && !cancelled) {
            search.pause();
            return;
        }
        search.taskEnded();
    }

    @Override
    public boolean holdsWork() {
        return !resumable.isEmpty();
    }

    @Override
    public void ended() {}

    /** The search as its workers see it. */
    private final class Coordination implements ChunkWorker.Coordinator {
        @Override
        public int nextChunk(int[] segs, int[] docs, int[] froms, int[] lines) throws Exception {
            synchronized (search.lock()) {
                if (search.stopping() || (search.exhausted() && resumable.isEmpty()) || search.pastDeadline()) {
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
                n = search.drawCandidates(segs, docs, froms, lines, n);
                search.widen();
                return n;
            }
        }

        @Override
        public void handBack(int segment, int doc, int from, int line) {
            synchronized (search.lock()) {
                resumable.add(new int[] {segment, doc, from, line});
            }
        }

        @Override
        public boolean cancelled() {
            return search.cancelled();
        }

        @Override
        public boolean pastDeadline() {
            return search.pastDeadline();
        }

        @Override
        public long countResult() {
            return tally.countResult();
        }

        @Override
        public void stopForMaxResults() {
            synchronized (search.lock()) {
                search.stopAtMaxResults();
            }
        }

        @Override
        public void fileSearched(ByteBuf out) {
            tally.fileSearched(out);
        }

        @Override
        public byte[] packageName(int segment, int packageId) throws Exception {
            return packageNames.get(segment, packageId);
        }
    }
}
