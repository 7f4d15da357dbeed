package io.trigrep.backend.server;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.segments.LiveShard;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * One generation of the shard as a backend serves it, counted: one hold for being the current
 * generation ({@link Generations}) and one per request reading it. The last {@link #release}
 * unmaps it, so a generation replaced while queries read it stays mapped until the last ends,
 * and not a moment longer.
 */
final class Served {
    private final LiveShard live;
    private final long liveBytes;
    private final Consumer<Served> onClose;
    private final AtomicInteger holds = new AtomicInteger(1);

    /** {@code live}, held once (as current); {@code onClose} runs after it is unmapped. */
    Served(LiveShard live, Consumer<Served> onClose) throws CorruptIndexException {
        this.live = live;
        this.liveBytes = live.liveBytes();
        this.onClose = onClose;
    }

    LiveShard live() {
        return live;
    }

    /** Content bytes of the live files, counted once when the generation was opened. */
    long liveBytes() {
        return liveBytes;
    }

    /** One more reader; false once the generation is closed (the caller takes the current one again). */
    boolean retain() {
        for (int n = holds.get(); n > 0; n = holds.get()) {
            if (holds.compareAndSet(n, n + 1)) {
                return true;
            }
        }
        return false;
    }

    /** One reader (or the current hold) less: the last one unmaps the generation. */
    void release() {
        int left = holds.decrementAndGet();
        if (left < 0) {
            throw new IllegalStateException(
                    "generation " + live.generation() + " of " + live.name() + " released more often than held");
        }
        if (left == 0) {
            live.close();
            onClose.accept(this);
        }
    }

    /** Holds now: readers, and one more while current. For tests and logs. */
    int holds() {
        return holds.get();
    }
}
