package io.trigrep.frontend.fanout;

import io.netty.buffer.ByteBuf;
import io.trigrep.frontend.fanout.QueryRun.Capped;
import io.trigrep.frontend.fanout.ShardStatus.Outcome;
import io.trigrep.frontend.store.ResultIndex;
import io.trigrep.frontend.store.TeeFile;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads the frames of one run's attempts: tees each run of complete frames with one write, then
 * records each frame, results in the index (or the attempt's stage) and the rest in the run, and
 * cuts a shard whose results reach its part of the byte cap. On the run's writer thread.
 */
final class FrameIngest {
    private final QueryRun run;
    private final ReplicaAttempts attempts;
    private final TeeFile tee;
    private final ResultIndex index;
    private final QueryCaps caps;
    private final int shards;
    private final long startedNanos;

    /** Bytes of frames received from all backends; on the writer, read after completion. */
    private long bytesReceived;

    private volatile long firstResultNanos = -1;

    FrameIngest(
            QueryRun run,
            ReplicaAttempts attempts,
            TeeFile tee,
            ResultIndex index,
            QueryCaps caps,
            int shards,
            long startedNanos) {
        this.run = run;
        this.attempts = attempts;
        this.tee = tee;
        this.index = index;
        this.caps = caps;
        this.shards = shards;
        this.startedNanos = startedNanos;
    }

    /** Tees and records {@code frames}, a run of complete frames of {@code attempt}; the caller releases them. */
    void ingest(Attempt attempt, ByteBuf frames) {
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
                run.failDisk(e);
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
                run.capNow(attempt, new Capped("bytes", caps.maxBytes()));
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
        long quota = caps.bytesOf(attempt.shard, shards);
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
                run.finish(attempt, Messages.response(Framing.read(frame, FrameLimits.DEFAULT)));
                return attempts.counts(attempt);
            }
            case PROGRESS ->
                run.progress(
                        shard,
                        Messages.response(Framing.read(frame, FrameLimits.DEFAULT))
                                .getProgress());
            default -> {}
        }
        return true;
    }

    /** A winning attempt's staged results go into the index. Holds the run's monitor. */
    void indexStaged(Attempt attempt) {
        if (attempt.staged != null && attempt.staged.size() > 0) {
            index.addStaged(attempt.staged);
            if (firstResultNanos < 0) {
                firstResultNanos = System.nanoTime() - startedNanos;
            }
        }
    }

    long bytesReceived() {
        return bytesReceived;
    }

    /** Time from the run's start to its first result in the index, or -1 while there is none. */
    long firstResultNanos() {
        return firstResultNanos;
    }
}
