package io.trigrep.backend.server;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.Shard;
import java.io.IOException;
import java.io.PrintStream;

/**
 * Whether the shard may be served: every checksum of its files is verified once, on a thread of
 * its own, while the port is already open. Until that ends, searches, file fetches and pings are
 * answered "not ready" (so both readiness probes stay red and a frontend counts the shard as
 * failed, never as a silent wrong answer); after a failure they are answered with the file and
 * offset that are wrong, named relative to the shard, not by a server path.
 */
final class ShardCheck {
    private enum State { VERIFYING, SERVING, CORRUPT }

    private final String shardName;
    private volatile State state;
    private volatile String problem;

    private ShardCheck(String shardName, State state) {
        this.shardName = shardName;
        this.state = state;
    }

    /** No check: the shard is served as opened (tests, and {@code --verify off}). */
    static ShardCheck none(Shard shard) {
        return new ShardCheck(shard.manifest().shard(), State.SERVING);
    }

    /** A check not yet run: {@link #run} it (on a thread of its own) to start serving. */
    static ShardCheck pending(Shard shard) {
        return new ShardCheck(shard.manifest().shard(), State.VERIFYING);
    }

    /** Reads every byte of the shard against its checksums; reports the outcome on {@code log}. */
    void run(Shard shard, PrintStream log) {
        long started = System.nanoTime();
        try {
            shard.verify();
            state = State.SERVING;
            long bytes = shard.manifest().contentBytes() + shard.manifest().indexBytes() + shard.manifest().docTableBytes();
            log.printf("backend %s: checksums verified, %,d bytes in %.2f s%n", shardName, bytes, (System.nanoTime() - started) / 1e9);
        } catch (CorruptIndexException e) {
            fail(shardName + "/" + e.file().getFileName() + " at offset " + e.offset() + ": " + e.problem(), e, log);
        } catch (IOException | RuntimeException e) {
            fail(shardName + " cannot be read: " + e.getClass().getSimpleName(), e, log);
        }
    }

    private void fail(String what, Exception e, PrintStream log) {
        problem = "shard is corrupt, refusing to serve it: " + what;
        state = State.CORRUPT;
        log.println("backend " + shardName + ": " + problem + " (" + e.getMessage() + ")");
    }

    /** Null while the shard may be served; else why not, for an error answer. */
    String refusal() {
        return switch (state) {
            case SERVING -> null;
            case VERIFYING -> "not ready: " + shardName + "'s checksums are being verified";
            case CORRUPT -> problem;
        };
    }

    /** Whether the refusal is for good (a corrupt shard) rather than for the moment. */
    boolean corrupt() {
        return state == State.CORRUPT;
    }
}
