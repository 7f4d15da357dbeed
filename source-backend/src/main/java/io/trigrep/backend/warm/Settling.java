package io.trigrep.backend.warm;

import java.io.IOException;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * Tells when a warming JVM's latency has stopped falling: fed the median time of each batch of
 * like requests, it answers settled once {@code patience} batches in a row have not come a
 * tenth under the last batch that did. The JIT compiles a method fully after thousands of calls, and the
 * count a path needs depends on the path and the machine: a fresh frontend's selective answers
 * fell from 8-13 ms to under 2 ms over 1,500 to 2,500 requests, unevenly, with batches 40 % slower
 * than the one before on the way. So no fixed count fits, and one batch that is no faster says
 * nothing; several in a row do. Not thread-safe: one warm-up feeds it, or {@link #run}s its requests.
 */
public final class Settling {
    private final int minBatches;
    private final int patience;
    private long best = Long.MAX_VALUE;
    /** The batch that last fell by a tenth: slow steps add up against it, so a steady creep counts. */
    private long mark = Long.MAX_VALUE;

    private int batches;
    private int sinceMark;

    /** Settled no sooner than after {@code minBatches}, and only after {@code patience} batches without a new best. */
    public Settling(int minBatches, int patience) {
        if (minBatches < 1 || patience < 1) {
            throw new IllegalArgumentException("minBatches and patience must be at least 1");
        }
        this.minBatches = minBatches;
        this.patience = patience;
    }

    /** Records one batch's median time; true when the latency has settled. */
    public boolean settled(long batchNanos) {
        batches++;
        best = Math.min(best, batchNanos);
        if (batchNanos < mark - mark / 10) {
            mark = batchNanos;
            sinceMark = 0;
        } else {
            sinceMark++;
        }
        return batches >= minBatches && sinceMark >= patience;
    }

    /** One request of a warm-up; false when it was refused, which ends the run. */
    @FunctionalInterface
    public interface Request {
        boolean send() throws IOException, InterruptedException;
    }

    /** What {@link #run} did: requests sent, the first and best batches' medians (-1 without a batch), and why it stopped. */
    public record Run(int sent, long firstBatchNanos, long bestBatchNanos, String stoppedBy) {
        /** A run that never began: there was nothing to send. */
        public static final Run NOT_RUN = new Run(0, -1, -1, "not run");

        /**
         * How a warm-up log says it: {@code for "a", "b" (median M ms in the first batch, B ms at
         * best; stopped: S)}, without the medians before a whole batch, and with {@code none} in place of the quoted list when {@code queries} is empty.
         */
        public String describe(List<String> queries, String none) {
            String asked = queries.isEmpty()
                    ? none
                    : queries.stream().map(q -> "\"" + q + "\"").collect(Collectors.joining(", "));
            if (firstBatchNanos < 0) {
                return String.format("for %s (no whole batch; stopped: %s)", asked, stoppedBy);
            }
            return String.format(
                    "for %s (median %.1f ms in the first batch, %.1f ms at best; stopped: %s)",
                    asked, firstBatchNanos / 1e6, bestBatchNanos / 1e6, stoppedBy);
        }
    }

    /**
     * Sends requests in batches of {@code batch}, every other one {@code timed} and the rest
     * {@code between}, until the timed ones' batch medians have settled, {@code max} are sent,
     * {@code deadline} (of {@code clock}) passes or one is refused.
     */
    public Run run(Request timed, Request between, int batch, int max, long deadline, LongSupplier clock)
            throws IOException, InterruptedException {
        long[] times = new long[(batch + 1) / 2];
        long first = -1;
        int sent = 0;
        while (true) {
            int count = 0;
            for (int i = 0; i < batch; i++) {
                long best = batches == 0 ? -1 : this.best;
                if (sent == max) {
                    return new Run(sent, first, best, "the request cap");
                }
                if (clock.getAsLong() - deadline >= 0) {
                    return new Run(sent, first, best, "the budget");
                }
                long before = clock.getAsLong();
                if (!(sent % 2 == 0 ? timed : between).send()) {
                    return new Run(sent, first, best, "a refused request");
                }
                if (sent++ % 2 == 0) {
                    times[count++] = clock.getAsLong() - before;
                }
            }
            long median = median(times, count);
            first = first < 0 ? median : first;
            if (settled(median)) {
                return new Run(sent, first, this.best, "settled");
            }
        }
    }

    /** The fastest batch's median, {@link Long#MAX_VALUE} before the first. */
    public long best() {
        return best;
    }

    /** Batches recorded. */
    public int batches() {
        return batches;
    }

    /** The median of {@code nanos[0..count)}; sorts that range. */
    static long median(long[] nanos, int count) {
        if (count == 0) {
            throw new IllegalArgumentException("no times");
        }
        java.util.Arrays.sort(nanos, 0, count);
        return nanos[count / 2];
    }
}
