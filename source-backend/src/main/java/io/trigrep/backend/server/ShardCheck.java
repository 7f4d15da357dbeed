package io.trigrep.backend.server;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.segments.LiveShard;
import io.trigrep.indexer.segments.Segment;
import java.io.PrintStream;

/**
 * Whether the shard may be served: every checksum of its files (symbols included) is verified once, on a thread of
 * its own, while the port is already open. Until that ends, searches, file fetches and pings are
 * answered "not ready" (so both readiness probes stay red and a frontend counts the shard as
 * failed, never as a silent wrong answer); after a failure they are answered with the file and
 * offset that are wrong, named relative to the shard, not by a server path. A shard verified (or
 * served unverified) may then be warming up ({@link Warmup}): searches are answered, but pings,
 * and so both readiness probes, say "not ready" until {@link #warmed}.
 */
final class ShardCheck {
    private enum State {
        VERIFYING,
        WARMING,
        SERVING,
        CORRUPT
    }

    private final String shardName;
    /** Whether a verified shard warms up before it is ready. */
    private final boolean warm;

    private volatile State state;
    private volatile String problem;

    private ShardCheck(String shardName, State state, boolean warm) {
        this.shardName = shardName;
        this.state = state;
        this.warm = warm;
    }

    /** No check: the shard is served as opened (tests, and {@code --verify off}), ready at once. */
    static ShardCheck none(Shard shard) {
        return none(shard.manifest().shard());
    }

    static ShardCheck none(String shardName) {
        return new ShardCheck(shardName, State.SERVING, false);
    }

    /** No check, but not ready until {@link #warmed}. */
    static ShardCheck warming(String shardName) {
        return new ShardCheck(shardName, State.WARMING, true);
    }

    /** A check not yet run: {@link #run} it (on a thread of its own) to start serving. */
    static ShardCheck pending(Shard shard) {
        return pending(shard, false);
    }

    /** A check not yet run, after which the shard warms up ({@code warm}) before it is ready. */
    static ShardCheck pending(Shard shard, boolean warm) {
        return pending(shard.manifest().shard(), warm);
    }

    static ShardCheck pending(String shardName, boolean warm) {
        return new ShardCheck(shardName, State.VERIFYING, warm);
    }

    /** Reads every byte of the shard's segments against their checksums; reports the outcome on {@code log}. */
    void run(LiveShard live, PrintStream log) {
        long started = System.nanoTime();
        try {
            long bytes = 0;
            for (Segment segment : live.segments()) {
                segment.verify();
                bytes += segment.bytes();
            }
            state = warm ? State.WARMING : State.SERVING;
            log.printf(
                    "backend %s: checksums verified, %,d bytes in %.2f s%n",
                    shardName, bytes, (System.nanoTime() - started) / 1e9);
        } catch (CorruptIndexException e) {
            fail(shardName + "/" + e.file().getFileName() + " at offset " + e.offset() + ": " + e.problem(), e, log);
        } catch (RuntimeException e) {
            fail(shardName + " cannot be read: " + e.getClass().getSimpleName(), e, log);
        }
    }

    private void fail(String what, Exception e, PrintStream log) {
        problem = "shard is corrupt, refusing to serve it: " + what;
        state = State.CORRUPT;
        log.println("backend " + shardName + ": " + problem + " (" + e.getMessage() + ")");
    }

    /** Warming ended (or was given up): the shard is ready. Does nothing unless it was warming. */
    void warmed() {
        synchronized (this) {
            if (state == State.WARMING) {
                state = State.SERVING;
            }
        }
    }

    /** Whether the shard is verified and warming up now. */
    boolean isWarming() {
        return state == State.WARMING;
    }

    /** Null when the shard is ready (a ping's answer); else why not. */
    String readiness() {
        return state == State.WARMING ? "not ready: " + shardName + " is warming up" : refusal();
    }

    /** Null while the shard may be searched; else why not, for an error answer. */
    String refusal() {
        return switch (state) {
            case SERVING, WARMING -> null;
            case VERIFYING -> "not ready: " + shardName + "'s checksums are being verified";
            case CORRUPT -> problem;
        };
    }

    /** Whether the refusal is for good (a corrupt shard) rather than for the moment. */
    boolean corrupt() {
        return state == State.CORRUPT;
    }
}
