package io.trigrep.indexer.build;

import io.trigrep.indexer.filter.SkipReason;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** Counters of one indexer run, updated from every worker thread and read by the progress bar. */
public final class IndexStats {
    final LongAdder packages = new LongAdder();
    final LongAdder files = new LongAdder();
    final LongAdder bytes = new LongAdder();
    final LongAdder inputBytesDone = new LongAdder();
    final AtomicLong inputBytesTotal = new AtomicLong();
    final LongAdder failedInputs = new LongAdder();
    /** What the build does once the input is read (a shard's trigrams, or its definitions); null before. */
    private volatile String phase;

    private final Map<SkipReason, LongAdder> skippedFiles = new EnumMap<>(SkipReason.class);
    private final Map<SkipReason, LongAdder> skippedBytes = new EnumMap<>(SkipReason.class);

    IndexStats() {
        for (SkipReason reason : SkipReason.values()) {
            skippedFiles.put(reason, new LongAdder());
            skippedBytes.put(reason, new LongAdder());
        }
    }

    void skipped(SkipReason reason, long size) {
        skippedFiles.get(reason).increment();
        skippedBytes.get(reason).add(size);
    }

    /** What the build is doing past reading its input, for the progress line: null while it reads. */
    public String phase() {
        return phase;
    }

    void phase(String now) {
        phase = now;
    }

    public long packages() {
        return packages.sum();
    }

    public long files() {
        return files.sum();
    }

    public long bytes() {
        return bytes.sum();
    }

    public long inputDone() {
        return inputBytesDone.sum();
    }

    public long inputTotal() {
        return inputBytesTotal.get();
    }

    public long failedInputs() {
        return failedInputs.sum();
    }

    public long skippedFiles(SkipReason reason) {
        return skippedFiles.get(reason).sum();
    }

    public long skippedBytes(SkipReason reason) {
        return skippedBytes.get(reason).sum();
    }

    public long skippedFiles() {
        return skippedFiles.values().stream().mapToLong(LongAdder::sum).sum();
    }
}
