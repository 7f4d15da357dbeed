package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * A run of an in-order search's work (items of segment, doc, first byte and its line number, as
 * {@link ChunkWorker.Coordinator#nextChunk} hands them out) and the frames its search wrote,
 * held until every piece before it has gone to the sink. {@link PieceOrder} and the search's lock
 * guard it, except while {@link State#SEARCHING}: then the one task searching it alone counts its
 * results and adds its frames.
 */
final class Piece {
    enum State {
        /** Being given the work the task of the piece before it hands on: no task may take it yet. */
        FILLING,
        /** Waiting for a task: a chunk's remainder handed on, or a piece to search again. */
        QUEUED,
        SEARCHING,
        /** Searched: its frames wait for the pieces before it. */
        DONE
    }

    final int[] segments = new int[ChunkWorker.CHUNK_DOCS];
    final int[] docs = new int[ChunkWorker.CHUNK_DOCS];
    final int[] froms = new int[ChunkWorker.CHUNK_DOCS];
    final int[] lines = new int[ChunkWorker.CHUNK_DOCS];
    int size;

    State state = State.QUEUED;
    /** The next piece in doc order; null for the last. */
    Piece next;
    /** While searching, the piece its task's hand-back went to, right after it; null before any. */
    Piece handedOn;
    /**
     * Taken when every piece before it had gone to the sink: its results were counted from the
     * exact number before them, so its cut at the cap is final.
     */
    boolean exact;
    /** Out of the order (a piece before it reached the cap or failed): its task stops, and its frames go nowhere. */
    volatile boolean discarded;

    // Written by the task searching it, read once it is done:
    final List<ByteBuf> frames = new ArrayList<>();
    long bytes;
    /** Results counted, the one that went past the cap (if any) included. */
    long results;

    long files;
    /** Counted past the cap. */
    boolean full;
    /** Stopped at the deadline: nothing after it may be sent. */
    boolean truncated;

    /** Adds a work item; false when the piece is full. */
    boolean add(int segment, int doc, int from, int line) {
        if (size == docs.length) {
            return false;
        }
        segments[size] = segment;
        docs[size] = doc;
        froms[size] = from;
        lines[size++] = line;
        return true;
    }

    /** Copies the work into a task's arrays; returns how many items. */
    int copyTo(int[] segs, int[] ds, int[] fs, int[] ls) {
        System.arraycopy(segments, 0, segs, 0, size);
        System.arraycopy(docs, 0, ds, 0, size);
        System.arraycopy(froms, 0, fs, 0, size);
        System.arraycopy(lines, 0, ls, 0, size);
        return size;
    }

    void write(ByteBuf frame) {
        bytes += frame.readableBytes();
        frames.add(frame);
    }

    /** Lets its frames go; its counts start again (it is to be searched again, or never sent). */
    void clear() {
        for (ByteBuf b : frames) {
            b.release();
        }
        frames.clear();
        bytes = 0;
        results = 0;
        files = 0;
        full = false;
        truncated = false;
        handedOn = null;
    }
}
