package io.trigrep.frontend.store;

import java.nio.ByteBuffer;

/**
 * What the frontend keeps in memory of a query's results: their records ({@link ResultColumns},
 * 24 bytes per result), their order ({@link ResultOrder}, 4 bytes per result) and their grouping
 * by package ({@link PackageGroups}), behind one surface for the query and its pages. Single
 * writer, which adds results, then {@link #selectFirst}s once complete; pages read on any thread,
 * and the first page that needs a rank past the first ones makes the full order: most queries are
 * never read past their first page, and a sort nobody reads takes CPU from the searches that follow.
 */
public final class ResultIndex {
    private final ResultColumns columns = new ResultColumns();
    private final ResultOrder order;
    private final PackageGroups groups;

    public ResultIndex() {
        this(0);
    }

    /**
     * Keeps the {@code keep} best results as they are added: {@link #selectFirst} and {@link
     * #best} of up to as many, once the last result is in, then order those instead of passing
     * over every result.
     */
    public ResultIndex(int keep) {
        order = new ResultOrder(columns, keep);
        groups = new PackageGroups(columns, order);
    }

    /** Packages in the order of their best result, each with its count and its first results in sorted order. */
    @SuppressWarnings("ArrayRecordComponent") // parallel arrays by design: a carrier, never compared
    public record Grouped(int[] packages, int[] counts, int[][] top) {}

    /**
     * Records the result whose frame was teed at {@code offset}, from stream {@code stream} (a
     * small number, such as a shard's index); returns false when the frame is not a result this
     * path can read (the caller then reads it fully or treats it as corrupt). Voids the order made
     * before; package counts follow the published size on their own.
     */
    public boolean add(int stream, ByteBuffer frame, long offset) {
        if (!columns.add(stream, frame, offset)) {
            return false;
        }
        order.resultAdded();
        return true;
    }

    /**
     * Records the results of a frame as {@link #add} does, but into {@code staged}, which holds
     * them out of this index until {@link #addStaged}: for an answer that may yet be dropped.
     */
    public boolean stage(StagedResults staged, int stream, ByteBuffer frame, long offset) {
        return columns.add(stream, frame, offset, staged);
    }

    /** Takes in every result {@code staged} holds, as if each had been {@link #add}ed now. */
    public void addStaged(StagedResults staged) {
        if (staged.size() == 0) {
            return;
        }
        columns.addStaged(staged);
        order.resultAdded();
    }

    /** Results as of the last {@link #publish}, {@link #best}, {@link #selectFirst} or {@link #sort}: exact once the query is complete. */
    public int size() {
        return columns.size();
    }

    /** Results added so far, published or not: on the writer's thread only, as {@link #best}. */
    public int added() {
        return columns.added();
    }

    /** Makes every result added so far count in {@link #size} for other threads; after each batch, not per result. */
    public void publish() {
        columns.publish();
    }

    public PackagePool packages() {
        return columns.packages();
    }

    public long offset(int result) {
        return columns.offset(result);
    }

    /** Which of its frame's results it is (a fileResults frame holds a file's matching lines). */
    public int match(int result) {
        return columns.match(result);
    }

    public int length(int result) {
        return columns.length(result);
    }

    public float ranking(int result) {
        return columns.ranking(result);
    }

    public int pathHash(int result) {
        return columns.pathHash(result);
    }

    public int packageId(int result) {
        return columns.packageId(result);
    }

    /** Whether the full order is made (by {@link #sort}, or by {@link #selectFirst} choosing every result) and holds. */
    public boolean ordered() {
        return order.complete();
    }

    /** See {@link ResultOrder#selectFirst}: on the writer's thread, once the last result is in. */
    public void selectFirst(int k) {
        order.selectFirst(k);
    }

    /**
     * See {@link ResultOrder#sort}: once the last result is in, on the writer's thread or on one
     * thread the writer handed the index to (the writer adds nothing more).
     */
    public void sort() {
        order.sort();
    }

    /**
     * The result at {@code rank} in sorted order. Past the first ranks it needs the full order: the
     * first caller makes it, on its own thread, and others wait for it.
     */
    public int sorted(int rank) {
        return order.sorted(rank);
    }

    /** The results at ranks {@code from} to {@code to - 1} (clamped to the results there are), as {@link #sorted(int)} finds each. */
    public int[] sorted(int from, int to) {
        int[] results = new int[Math.max(0, Math.min(to, size()) - from)];
        for (int i = 0; i < results.length; i++) {
            results[i] = order.sorted(from + i);
        }
        return results;
    }

    /** The {@code k} best results, best first: on the writer's thread, or once the query is complete. */
    public int[] best(int k) {
        return order.best(k);
    }

    /** Results per package id; callers must not change the array. */
    public int[] packageCounts() {
        return groups.packageCounts();
    }

    /** Ids of the packages with results, most results first, then by name. */
    public int[] packagesByCount() {
        return groups.packagesByCount();
    }

    /** The grouped view (after {@link #sort}): at most {@code perPackage} results of each package. */
    public Grouped grouped(int perPackage) {
        return groups.grouped(perPackage);
    }
}
