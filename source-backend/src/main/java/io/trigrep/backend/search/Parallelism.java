package io.trigrep.backend.search;

/**
 * How many tasks one search runs at once, and whether its stream must read as if one task had
 * searched the candidates in order. A capped search must: what falls under the cap is then the
 * first results in doc order, the same on every run, however the tasks raced.
 *
 * @param tasks      tasks at most at once, at least 1
 * @param inOrder    results leave in doc order, cut exactly at the cap (see {@link PieceOrder})
 * @param pieceBytes an in-order task holds at most about this many bytes of results (plus one
 *                   batch) before it hands the rest of its chunk on
 * @param window     an in-order search holds at most this many pieces not yet sent
 */
public record Parallelism(int tasks, boolean inOrder, int pieceBytes, int window) {
    public Parallelism {
        if (tasks < 1 || pieceBytes < 1 || window < 1) {
            throw new IllegalArgumentException(
                    "tasks, pieceBytes and window must be >= 1, got " + tasks + ", " + pieceBytes + " and " + window);
        }
    }

    /** {@code tasks} tasks, whose results leave in whatever order they are found. */
    public static Parallelism unordered(int tasks) {
        return new Parallelism(tasks, false, ResultEncoder.BATCH_BYTES, 1);
    }

    /**
     * {@code tasks} tasks whose results leave in doc order. Four pieces a task keep every task
     * busy while one searches a large file, at about a megabyte of held results a task.
     */
    public static Parallelism inOrder(int tasks) {
        return new Parallelism(tasks, true, ResultEncoder.BATCH_BYTES, 4 * tasks);
    }

    /** True when results are held and reordered: in order with more than one task (one task is in order anyway). */
    boolean reorders() {
        return inOrder && tasks > 1;
    }
}
