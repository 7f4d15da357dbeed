package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import io.trigrep.proto.Done;
import io.trigrep.proto.Framing;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import org.capnproto.MessageBuilder;

/**
 * What a search has counted (files, candidates, results), and the messages that report it: a
 * progress message now and then while it runs, and the done message at its end. Results past the
 * cap are counted, so that the search knows it reached it, but never reported.
 */
final class SearchTally {
    private static final long PROGRESS_NANOS = 250_000_000;

    private final long maxResults;
    /** Live docs of the shard: the total a search reports, however many segments hold them. */
    private final int totalFiles;

    private final LongSupplier nanoTime;
    private final long started;
    private final AtomicLong lastProgress;

    private final AtomicLong filesSearched = new AtomicLong();
    private final AtomicLong candidateFiles = new AtomicLong();
    private final AtomicLong results = new AtomicLong();
    /** Results sent, across searches: the caller's counter. */
    private final LongAdder produced;

    SearchTally(long maxResults, int totalFiles, LongSupplier nanoTime, LongAdder produced) {
        this.maxResults = maxResults;
        this.totalFiles = totalFiles;
        this.nanoTime = nanoTime;
        this.started = nanoTime.getAsLong();
        this.lastProgress = new AtomicLong(started);
        this.produced = produced;
    }

    /** Time since the search was made. */
    long elapsedNanos() {
        return nanoTime.getAsLong() - started;
    }

    /** Results counted so far, the ones past the cap included. */
    long results() {
        return results.get();
    }

    /** Counts one more result sent as it is found; returns the count so far, this one included. */
    long countResult() {
        long count = results.incrementAndGet();
        if (count <= maxResults) {
            produced.increment();
        }
        return count;
    }

    void countCandidates(int n) {
        candidateFiles.addAndGet(n);
    }

    /** Counts a file as searched and appends a progress message to {@code out} when one is due. */
    void fileSearched(ByteBuf out) {
        filesSearched.incrementAndGet();
        progress(out);
    }

    /** Counts an in-order piece's results and files, once its frames are sent. */
    void pieceSent(Piece p) {
        long sent = results.get();
        results.addAndGet(p.results);
        filesSearched.addAndGet(p.files);
        produced.add(Math.max(0, Math.min(p.results, maxResults - sent)));
    }

    /** A progress message to {@code out}, when one is due. */
    void progress(ByteBuf out) {
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
                .setResults(Math.min(results.get(), maxResults));
        Framing.write(message, out);
    }

    /** The done message of a search that ended for {@code truncation}, to {@code out}. */
    void done(ByteBuf out, Done.Truncation truncation, boolean fullScan, long generation) {
        MessageBuilder message = Messages.newBuilder();
        message.initRoot(Response.factory)
                .initDone()
                .setResults(Math.min(results.get(), maxResults))
                .setFilesSearched(filesSearched.get())
                .setCandidateFiles(candidateFiles.get())
                .setTotalFiles(totalFiles)
                .setElapsedNanos(elapsedNanos())
                .setTruncation(truncation)
                .setFullScan(fullScan)
                .setGeneration(generation);
        Framing.write(message, out);
    }
}
