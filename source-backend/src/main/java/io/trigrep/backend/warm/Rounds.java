package io.trigrep.backend.warm;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * When a warm-up's rounds (the same searches, again and again) may end, and how its log says they
 * went; for the backend's and the frontend's alike. They may end after at least {@code minRounds},
 * once a round was not a tenth faster than the one before it and, when asked to wait for the JIT,
 * it compiled for no more than a {@code quietPart}th of the round's time. A flat round time alone
 * said too little in a backend: warming alone, it took back its compiled scan loop (a branch its
 * profile had never seen taken, taken in a late round), ran it at the profiling tier through two
 * flat rounds and the selective path, and was ready with it there; the first user's heavy query
 * then waited while the compiler made it again (111 ms of C2, with two more methods of the scan's path).
 *
 * <p>Not thread-safe: one warm-up feeds it.
 */
public final class Rounds {
    private final int minRounds;
    private final LongSupplier compilerMillis;
    private final int quietPart;
    private final List<Long> compiledMillis = new ArrayList<>();
    private long first = -1;
    private long last = -1;
    private long compiledAtStart;

    /**
     * Rounds that end no sooner than after {@code minRounds}; {@code compilerMillis} tells the JIT's
     * compile time so far, in ms, said for each round (negative when the JVM does not say: the
     * rounds then end on their times alone); {@code quietPart} above 0 waits for a round in which
     * the JIT compiled for no more than that part of its time, 0 does not wait for the JIT.
     */
    public Rounds(int minRounds, LongSupplier compilerMillis, int quietPart) {
        if (minRounds < 1 || quietPart < 0) {
            throw new IllegalArgumentException(
                    "minRounds must be at least 1 and quietPart at least 0, got " + minRounds + " and " + quietPart);
        }
        this.minRounds = minRounds;
        this.compilerMillis = compilerMillis;
        this.quietPart = quietPart;
    }

    /** This JVM's JIT compile time so far, in ms, summed over its compiler threads; -1 when it does not say. */
    public static LongSupplier jitMillis() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return () -> -1;
        }
        return jit::getTotalCompilationTime;
    }

    /** A round begins. */
    public void begin() {
        compiledAtStart = compilerMillis.getAsLong();
    }

    /** The round begun last is whole, after {@code roundNanos}; true when the rounds may end. */
    public boolean end(long roundNanos) {
        long now = compilerMillis.getAsLong();
        long compiled = now < 0 || compiledAtStart < 0 ? -1 : now - compiledAtStart;
        compiledMillis.add(compiled);
        boolean noFaster = last >= 0 && roundNanos >= last * 9 / 10;
        boolean quiet = quietPart == 0 || compiled * 1_000_000L * quietPart <= roundNanos;
        last = roundNanos;
        first = first < 0 ? roundNanos : first;
        return compiledMillis.size() >= minRounds && noFaster && quiet;
    }

    /** Whole rounds so far. */
    public int count() {
        return compiledMillis.size();
    }

    /** The last whole round's time, -1 before the first. */
    public long lastNanos() {
        return last;
    }

    /** What the log says of the rounds, at their end. */
    public Summary summary() {
        return new Summary(first, last, compiledMillis);
    }

    /** The first and last whole rounds' times (-1 without one) and the JIT's compile time in each (-1: not known). */
    public record Summary(long firstNanos, long lastNanos, List<Long> compiledMillis) {
        public Summary {
            compiledMillis = List.copyOf(compiledMillis);
        }

        /** Whole rounds. */
        public int count() {
            return compiledMillis.size();
        }

        /**
         * {@code first round F ms, last L ms, JIT compiling A, B, C ms}, or {@code no whole round}
         * when the budget ran out within the first: a big shard's round holds full scans of several seconds.
         */
        public String describe() {
            if (firstNanos < 0) {
                return "no whole round";
            }
            StringBuilder said = new StringBuilder(
                    String.format("first round %.0f ms, last %.0f ms", firstNanos / 1e6, lastNanos / 1e6));
            if (!compiledMillis.isEmpty() && compiledMillis.get(0) >= 0) {
                said.append(", JIT compiling ");
                for (int i = 0; i < compiledMillis.size(); i++) {
                    said.append(i == 0 ? "" : ", ").append(compiledMillis.get(i));
                }
                said.append(" ms");
            }
            return said.toString();
        }
    }
}
