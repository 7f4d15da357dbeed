package io.trigrep.frontend.store;

import static io.trigrep.frontend.store.ResultIndexTest.fileHash;
import static io.trigrep.frontend.store.ResultIndexTest.frame;
import static io.trigrep.testing.Eventually.PATIENCE;
import static io.trigrep.testing.Eventually.eventuallyGet;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trigrep.frontend.store.ResultIndexTest.Expected;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The order of a query's results: exact, and promised by the first ranks: a page past them makes
 * the order itself, or waits for the sort being made.
 */
@Timeout(60) // a rank that waits for a sort nobody finishes fails here instead of hanging
class ResultOrderTest {
    /** Columns and their order, wired as {@link ResultIndex} wires them. */
    private static final class Results {
        final ResultColumns columns = new ResultColumns();
        final ResultOrder order;
        final List<Expected> expected = new ArrayList<>();
        long offset;

        Results() {
            this(0);
        }

        /** Keeping the {@code keep} best as they are added. */
        Results(int keep) {
            order = new ResultOrder(columns, keep);
        }

        boolean add(int stream, ByteBuffer frame, long at) {
            boolean added = columns.add(stream, frame, at);
            if (added) {
                order.resultAdded();
            }
            return added;
        }

        /** Adds {@code n} more results of a few packages and many paths from three streams, in tee order. */
        Results random(long seed, int n) {
            Random random = new Random(seed);
            for (int i = 0; i < n; i++) {
                String path = "src/f" + random.nextInt(300) + ".c";
                float ranking = random.nextInt(50) / 50f;
                String pkg = "p" + random.nextInt(5);
                ByteBuffer frame = frame(pkg, path, ranking);
                assertThat(add(i % 3, frame, offset)).isTrue();
                expected.add(new Expected(expected.size(), ranking, fileHash(pkg, path), offset, "p"));
                offset += frame.remaining();
            }
            expected.sort(Comparator.comparing(Expected::ranking, Comparator.reverseOrder())
                    .thenComparingInt(Expected::pathHash)
                    .thenComparingLong(Expected::offset));
            return this;
        }

        int expected(int rank) {
            return expected.get(rank).index();
        }

        /** Every result's index, in the expected order. */
        int[] expectedOrder() {
            return expected.stream().mapToInt(Expected::index).toArray();
        }
    }

    /**
     * A writer's {@link ResultOrder#settle} begun on a thread of its own and held before it makes
     * anything: the promised order is being made, so readers past the first ranks wait for it.
     */
    private static final class HeldSort {
        private final CountDownLatch begun = new CountDownLatch(1);
        private final CountDownLatch release = new CountDownLatch(1);
        private volatile Supplier<int[]> outcome;
        /** What the settle threw, once it ended. */
        private final AtomicReference<Throwable> thrown = new AtomicReference<>();

        private final Thread thread;

        HeldSort(ResultOrder order) throws InterruptedException {
            thread = new Thread(
                    () -> {
                        try {
                            order.settle(() -> {
                                begun.countDown();
                                try {
                                    release.await();
                                } catch (InterruptedException e) {
                                    throw new IllegalStateException(e);
                                }
                                return outcome.get();
                            });
                        } catch (Throwable e) {
                            thrown.set(e);
                        }
                    },
                    "held-sort");
            thread.setDaemon(true);
            thread.start();
            begun.await();
        }

        /** The sort ends with {@code order} as what it made, or throwing what {@code make} throws; returns what settle threw. */
        Throwable end(Supplier<int[]> make) throws InterruptedException {
            outcome = make;
            release.countDown();
            thread.join(PATIENCE.toMillis());
            assertThat(thread.isAlive()).as("the held sort ended").isFalse();
            return thrown.get();
        }
    }

    /** Looks {@code rank} up on a thread of its own; returns once that thread waits for the sort (it fails if it never does). */
    private static FutureTask<Integer> waitingFor(ResultOrder order, int rank) throws InterruptedException {
        FutureTask<Integer> task = new FutureTask<>(() -> order.sorted(rank));
        Thread thread = new Thread(task, "waiting-for-rank-" + rank);
        thread.setDaemon(true);
        thread.start();
        awaitWaiting(thread);
        return task;
    }

    /** Returns once {@code thread} is parked waiting; a thread that ends or never waits fails the test. */
    private static void awaitWaiting(Thread thread) throws InterruptedException {
        Thread.State state = eventuallyGet(thread.getName() + " waiting for the sort, or ended", PATIENCE, () -> {
            Thread.State now = thread.getState();
            return now == Thread.State.WAITING || now == Thread.State.TIMED_WAITING || now == Thread.State.TERMINATED
                    ? now
                    : null;
        });
        assertThat(state).as("%s waits for the sort", thread.getName()).isNotEqualTo(Thread.State.TERMINATED);
    }

    @Test
    void firstRanksAreAnsweredBeforeTheSortAndTheFirstLaterOneMakesIt() throws Exception {
        Results results = new Results().random(17, 20_000);
        ResultOrder order = results.order;
        assertThatThrownBy(() -> order.sorted(0)).isInstanceOf(IllegalStateException.class);
        order.selectFirst(100);
        assertThat(results.columns.size()).isEqualTo(20_000);
        for (int rank = 0; rank < 100; rank++) {
            assertThat(order.sorted(rank)).as("rank %d", rank).isEqualTo(results.expected(rank));
        }
        assertThat(order.complete()).as("the first ranks are all that is made").isFalse();
        assertThat(order.sorted(5_000)).as("made by its reader").isEqualTo(results.expected(5_000));
        assertThat(order.complete()).isTrue();
        for (int rank = 0; rank < results.expected.size(); rank++) {
            assertThat(order.sorted(rank)).as("rank %d", rank).isEqualTo(results.expected(rank));
        }
        // a result added after the sort voids the order again
        results.add(0, frame("p", "x.c", 1f), results.offset);
        assertThatThrownBy(() -> order.sorted(0)).isInstanceOf(IllegalStateException.class);
    }

    /** A query with no more results than the first ranks is fully ordered by them: no sort to wait for, none to run. */
    @Test
    void firstRanksThatCoverEveryResultAreTheFullOrder() {
        Results results = new Results().random(41, 300);
        ResultOrder order = results.order;
        assertThat(order.complete()).isFalse();
        order.selectFirst(299);
        assertThat(order.complete())
                .as("one result was left out of the first ranks")
                .isFalse();
        order.selectFirst(300);
        assertThat(order.complete()).isTrue();
        for (int rank = 0; rank < 300; rank++) {
            assertThat(order.sorted(rank)).as("rank %d", rank).isEqualTo(results.expected(rank));
        }
        results.add(0, frame("p", "late.c", 0.5f), results.offset);
        assertThat(order.complete()).as("a result after the order voids it").isFalse();
    }

    /**
     * The radix sort orders keys as signed longs and keeps equal ones in their order, with the
     * values moved along; keys of every sign, of few values (many ties), and of top digits that
     * all agree (skipped passes).
     */
    @Test
    void theRadixSortOrdersSignedKeysStablyAndMovesTheValuesAlong() {
        Random random = new Random(43);
        for (int n : new int[] {0, 1, 2, 100, 4096, 50_000}) {
            for (int shape = 0; shape < 3; shape++) {
                long[] keys = new long[n];
                int[] values = new int[n];
                List<long[]> expected = new ArrayList<>();
                for (int k = 0; k < n; k++) {
                    keys[k] = switch (shape) {
                        case 0 -> random.nextLong();
                        case 1 -> random.nextInt(7) - 3L << 32 | random.nextInt(3);
                        default -> 0x3f00_0000_0000_0000L + random.nextInt(1 << 20);
                    };
                    values[k] = 1_000_000 + k;
                    expected.add(new long[] {keys[k], values[k]});
                }
                expected.sort(java.util.Comparator.comparingLong(e -> e[0])); // List.sort is stable
                ResultOrder.radixSort(keys, values);
                for (int k = 0; k < n; k++) {
                    assertThat(new long[] {keys[k], values[k]})
                            .as("n %d, shape %d, at %d", n, shape, k)
                            .containsExactly(expected.get(k));
                }
            }
        }
    }

    @Test
    void everyWaitingCallerGetsItsRankWhenThePromisedSortCompletes() throws Exception {
        Results results = new Results().random(5, 5_000);
        ResultOrder order = results.order;
        order.selectFirst(10);
        HeldSort sort = new HeldSort(order);
        List<FutureTask<Integer>> waiting = new ArrayList<>();
        for (int rank : new int[] {10, 11, 2_500, 4_999}) {
            waiting.add(waitingFor(order, rank));
        }
        assertThat(waiting).as("ranks past the first ten wait").noneMatch(FutureTask::isDone);
        assertThat(order.sorted(9)).as("a first rank does not wait").isEqualTo(results.expected(9));
        assertThat(sort.end(results::expectedOrder)).isNull();
        assertThat(waiting.get(0).get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(results.expected(10));
        assertThat(waiting.get(1).get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(results.expected(11));
        assertThat(waiting.get(2).get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(results.expected(2_500));
        assertThat(waiting.get(3).get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(results.expected(4_999));
    }

    @Test
    void aSortWithoutFirstRanksAnswersEveryRank() {
        Results results = new Results().random(9, 3_000);
        results.order.sort();
        for (int rank = 0; rank < results.expected.size(); rank++) {
            assertThat(results.order.sorted(rank)).as("rank %d", rank).isEqualTo(results.expected(rank));
        }
    }

    @Test
    void aFailedSortFailsTheWaitingCallersWithItsCauseAndKeepsTheFirstRanks() throws Exception {
        Results results = new Results().random(23, 2_000);
        ResultOrder order = results.order;
        order.selectFirst(10);
        HeldSort sort = new HeldSort(order);
        FutureTask<Integer> later = waitingFor(order, 1_000);
        assertThat(later).isNotDone();
        OutOfMemoryError cause = new OutOfMemoryError("no room for the sort's keys");
        assertThat(sort.end(() -> {
                    throw cause;
                }))
                .as("the failure is not swallowed")
                .isSameAs(cause);
        assertThatThrownBy(() -> later.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("order could not be made")
                .hasCause(cause);
        assertThatThrownBy(() -> order.sorted(1_000))
                .isInstanceOf(IllegalStateException.class)
                .hasCause(cause);
        assertThat(order.sorted(3)).as("made before the sort, without it").isEqualTo(results.expected(3));
        // the next sort makes the order after all
        order.sort();
        assertThat(order.sorted(1_000)).isEqualTo(results.expected(1_000));
    }

    @Test
    void aResultAddedAfterThePromiseCancelsItAndTheWaitingCallersFail() throws Exception {
        Results results = new Results().random(29, 2_000);
        ResultOrder order = results.order;
        order.selectFirst(10);
        HeldSort sort = new HeldSort(order);
        FutureTask<Integer> later = waitingFor(order, 1_000);
        assertThat(later).isNotDone();
        assertThat(results.add(0, frame("p", "late.c", 0.5f), results.offset)).isTrue();
        assertThatThrownBy(() -> later.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(ResultOrder.NOT_SORTED);
        assertThatThrownBy(() -> order.sorted(0))
                .as("the first ranks went with it")
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(ResultOrder.NOT_SORTED);
        assertThat(sort.end(results::expectedOrder))
                .as("a sort that ends after the promise was cancelled completes nothing, and throws nothing")
                .isNull();
        assertThatThrownBy(() -> order.sorted(0)).hasMessage(ResultOrder.NOT_SORTED);
    }

    @Test
    void aWaitingCallerThatIsInterruptedWaitsOnAndKeepsItsInterrupt() throws Exception {
        Results results = new Results().random(31, 2_000);
        ResultOrder order = results.order;
        order.selectFirst(10);
        HeldSort sort = new HeldSort(order);
        AtomicBoolean interruptedAfter = new AtomicBoolean();
        int[] got = {-1};
        Thread waiter = new Thread(() -> {
            got[0] = order.sorted(1_500);
            interruptedAfter.set(Thread.currentThread().isInterrupted());
        });
        waiter.start();
        awaitWaiting(waiter);
        waiter.interrupt();
        awaitWaiting(waiter);
        assertThat(waiter.isAlive()).as("still waiting for the sort").isTrue();
        assertThat(sort.end(results::expectedOrder)).isNull();
        waiter.join(PATIENCE.toMillis());
        assertThat(waiter.isAlive()).isFalse();
        assertThat(got[0]).isEqualTo(results.expected(1_500));
        assertThat(interruptedAfter)
                .as("the interrupt is kept for the caller's caller")
                .isTrue();
    }

    @Test
    void orderIsExactForAwkwardRankingsAndOffsetsNotInArrivalOrder() {
        float[] awkward = {
            0f, -0f, 1f, -1f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, 0.5f
        };
        for (boolean shuffledOffsets : new boolean[] {false, true}) {
            Random random = new Random(11);
            Results results = new Results();
            List<Expected> expected = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                String path = "f" + random.nextInt(50);
                float ranking = awkward[random.nextInt(awkward.length)];
                long offset = shuffledOffsets ? random.nextInt(1_000_000) : i * 100L;
                assertThat(results.add(0, frame("p", path, ranking), offset)).isTrue();
                expected.add(new Expected(i, ranking, fileHash("p", path), offset, "p"));
            }
            results.order.sort();
            expected.sort((a, b) -> {
                int c = Float.compare(b.ranking(), a.ranking());
                c = c != 0 ? c : Integer.compare(a.pathHash(), b.pathHash());
                return c != 0 ? c : Long.compare(a.offset(), b.offset());
            });
            ResultColumns columns = results.columns;
            for (int rank = 0; rank < expected.size(); rank++) {
                Expected want = expected.get(rank);
                int got = results.order.sorted(rank);
                assertThat(new Object[] {columns.ranking(got), columns.pathHash(got), columns.offset(got)})
                        .as("rank %d (shuffled offsets: %s)", rank, shuffledOffsets)
                        .containsExactly(want.ranking(), want.pathHash(), want.offset());
            }
        }
    }

    /**
     * The running best take room as results come, not the whole of what they keep at once, and let
     * it go once the first ranks are chosen (a finished query's index may stay cached for long);
     * the first ranks and later choices stay exact.
     */
    @Test
    void theRunningBestGrowWithTheResultsAndAreLetGoOnceTheFirstRanksAreChosen() {
        Results results = new Results(1_000).random(43, 40);
        assertThat(results.order.runningCapacity()).isBetween(40, 64);
        results.random(44, 3_000);
        assertThat(results.order.runningCapacity()).isEqualTo(1_000);
        results.order.selectFirst(1_000);
        assertThat(results.order.runningCapacity()).isZero();
        for (int rank = 0; rank < 1_000; rank++) {
            assertThat(results.order.sorted(rank)).as("rank %d", rank).isEqualTo(results.expected(rank));
        }
        int[] best = results.order.best(10);
        for (int rank = 0; rank < best.length; rank++) {
            assertThat(best[rank]).as("best(10)[%d] after", rank).isEqualTo(results.expected(rank));
        }
    }

    @Test
    void theBestAreTheFirstRanksWhateverTheirNumber() {
        Results results = new Results().random(41, 500);
        for (int k : new int[] {0, 1, 2, 17, 499, 500, 501, 10_000}) {
            int[] best = results.order.best(k);
            assertThat(best).as("best(%d)", k).hasSize(Math.min(k, 500));
            for (int rank = 0; rank < best.length; rank++) {
                assertThat(best[rank]).as("best(%d)[%d]", k, rank).isEqualTo(results.expected(rank));
            }
        }
    }

    /**
     * The best k, for k below, at and above the number of results, are the first k of the exact
     * order: with awkward rankings, offsets in and out of arrival order, and results arriving
     * worst first (each better than all before it: every one enters the heap), best first, and the
     * best of all first (it must not stay at the root of a heap of the worst);
     * whether the best are found at the end or kept as the results come (fewer, as many or more
     * kept than asked for), and when some were asked for while results still came.
     */
    @Test
    void theBestKAreTheFirstKOfTheExactOrderWhateverTheArrivalOrder() {
        float[] awkward = {
            0f, -0f, 1f, -1f, Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MIN_VALUE, 0.5f
        };
        int total = 3_000;
        for (int keep : new int[] {0, 1, 100, 1_000, total, 5_000}) {
            for (String arrival :
                    new String[] {"random", "random offsets", "worst first", "best first", "the best first, then random"
                    }) {
                Random random = new Random(arrival.hashCode());
                Results results = new Results(keep);
                List<Expected> expected = new ArrayList<>();
                for (int i = 0; i < total; i++) {
                    String path = "f" + random.nextInt(40);
                    float ranking = switch (arrival) {
                        case "worst first" -> i / (float) total;
                        case "best first" -> 1 - i / (float) total;
                        case "the best first, then random" -> i == 0 ? 2f : random.nextFloat();
                        default -> awkward[random.nextInt(awkward.length)];
                    };
                    long offset = arrival.equals("random offsets") ? random.nextInt(1_000_000) : i * 100L;
                    assertThat(results.add(i % 2, frame("p", path, ranking), offset))
                            .isTrue();
                    expected.add(new Expected(i, ranking, fileHash("p", path), offset, "p"));
                    if (i == total / 3) {
                        assertThat(results.order.best(10)).hasSize(10); // a page while the query runs
                    }
                }
                expected.sort((a, b) -> {
                    int c = Float.compare(b.ranking(), a.ranking());
                    c = c != 0 ? c : Integer.compare(a.pathHash(), b.pathHash());
                    c = c != 0 ? c : Long.compare(a.offset(), b.offset());
                    return c != 0 ? c : Integer.compare(a.index(), b.index());
                });
                for (int k : new int[] {0, 1, 2, 3, 100, 1_000, total - 1, total, total + 1}) {
                    int[] best = results.order.best(k);
                    assertThat(best)
                            .as("best(%d), %s, %d kept", k, arrival, keep)
                            .hasSize(Math.min(k, total));
                    for (int rank = 0; rank < best.length; rank++) {
                        assertThat(best[rank])
                                .as("best(%d)[%d], %s, %d kept", k, rank, arrival, keep)
                                .isEqualTo(expected.get(rank).index());
                    }
                }
            }
        }
    }

    @Test
    void choosingTheFirstRanksAgainKeepsThePromiseCallersWaitOn() throws Exception {
        Results results = new Results().random(43, 2_000);
        ResultOrder order = results.order;
        order.selectFirst(10);
        HeldSort sort = new HeldSort(order);
        FutureTask<Integer> later = waitingFor(order, 1_000);
        order.selectFirst(20);
        assertThat(order.sorted(15)).as("answered from the new first ranks").isEqualTo(results.expected(15));
        assertThat(later).as("still waiting for the sort being made").isNotDone();
        assertThat(sort.end(results::expectedOrder)).isNull();
        assertThat(later.get(PATIENCE.toSeconds(), TimeUnit.SECONDS))
                .as("the first caller's promise was kept")
                .isEqualTo(results.expected(1_000));
    }

    @Test
    void firstRanksChosenAfterAFailedSortPromiseANewOne() throws Exception {
        Results results = new Results().random(47, 2_000);
        ResultOrder order = results.order;
        order.selectFirst(10);
        Error cause = new OutOfMemoryError("no room");
        assertThatThrownBy(() -> order.settle(() -> {
                    throw cause;
                }))
                .isSameAs(cause);
        order.selectFirst(10);
        assertThat(order.sorted(1_000))
                .as("made anew by its reader instead of failing with the last one's cause")
                .isEqualTo(results.expected(1_000));
    }

    @Test
    void aSecondSortAfterACompleteOneOrdersTheSame() {
        Results results = new Results().random(53, 1_000);
        ResultOrder order = results.order;
        order.sort();
        order.settle(() -> new int[] {7});
        assertThat(order.sorted(0))
                .as("a done order is replaced, not completed twice")
                .isEqualTo(7);
        order.sort();
        for (int rank = 0; rank < 1_000; rank++) {
            assertThat(order.sorted(rank)).isEqualTo(results.expected(rank));
        }
    }

    /**
     * Results equal in every key (ranking, path, offset) keep their arrival order, in the full
     * sort and in the first ranks chosen before it: the first ranks are the sort's.
     */
    @Test
    void resultsEqualInEveryKeyKeepTheirArrivalOrderInTheFirstRanksAsInTheSort() {
        Results results = new Results();
        results.add(0, frame("p", "other.c", 0.1f), 0);
        for (int i = 0; i < 6; i++) {
            assertThat(results.add(i % 2, frame("p", "same.c", 0.5f), 100)).isTrue();
        }
        ResultOrder order = results.order;
        order.sort();
        int[] sorted = new int[7];
        for (int rank = 0; rank < sorted.length; rank++) {
            sorted[rank] = order.sorted(rank);
        }
        assertThat(sorted).containsExactly(1, 2, 3, 4, 5, 6, 0);
        for (int k = 1; k <= sorted.length; k++) {
            assertThat(order.best(k)).as("best(%d)", k).containsExactly(java.util.Arrays.copyOf(sorted, k));
        }
    }

    /**
     * Many results equal in every key, out of offset order (the exact sort's path), with one
     * result better or worse than all of them at either end: each appears once in the order.
     */
    @Test
    void manyResultsEqualInEveryKeySortOutOfOffsetOrder() {
        for (float odd : new float[] {0.9f, 0.1f}) {
            Results results = new Results();
            int n = 41;
            assertThat(results.add(0, frame("p", "odd.c", odd), 10)).isTrue();
            for (int i = 1; i < n; i++) {
                assertThat(results.add(0, frame("p", "same.c", 0.5f), 5)).isTrue();
            }
            assertThat(results.columns.offsetsInArrivalOrder()).isFalse();
            results.order.sort();
            int oddRank = odd > 0.5f ? 0 : n - 1;
            java.util.Set<Integer> others = new java.util.HashSet<>();
            for (int rank = 0; rank < n; rank++) {
                int result = results.order.sorted(rank);
                if (rank == oddRank) {
                    assertThat(result)
                            .as("the odd one (%s) at rank %d", odd, rank)
                            .isZero();
                } else {
                    assertThat(result).as("rank %d", rank).isBetween(1, n - 1);
                    others.add(result);
                }
            }
            assertThat(others).as("each tied result once").hasSize(n - 1);
        }
    }
}
