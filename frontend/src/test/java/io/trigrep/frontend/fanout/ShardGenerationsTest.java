package io.trigrep.frontend.fanout;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The newest generation known of a shard: learnt from every answer, never turned back by a late one. */
class ShardGenerationsTest {
    @Test
    void aLateAnswerOnTheOldGenerationDoesNotTurnTheNewestBack() {
        ShardGenerations known = new ShardGenerations(1);
        long poll = known.tick(); // a status poll asked while the backend still served 5
        long search = known.tick();
        assertThat(known.learn(0, 6, search)).isTrue(); // the search's done: it switched to 6
        assertThat(known.learn(0, 5, poll)).as("the poll's answer, read after").isFalse();
        assertThat(known.newest(0)).isEqualTo(6);
        assertThat(known.isNewest(0, 5, search)).isFalse();
        assertThat(known.isNewest(0, 6, search)).isTrue();
    }

    @Test
    void anAnswerAskedEarlierButOnALaterGenerationIsNews() {
        ShardGenerations known = new ShardGenerations(1);
        long slow = known.tick();
        known.learn(0, 6, known.tick());
        assertThat(known.learn(0, 7, slow)).isTrue();
        assertThat(known.newest(0)).isEqualTo(7);
    }

    @Test
    void zeroSaysNothing() {
        ShardGenerations known = new ShardGenerations(2);
        known.learn(1, 9, known.tick());
        assertThat(known.learn(1, 0, known.tick())).isFalse();
        assertThat(known.newest()).containsExactly(0, 9);
        assertThat(known.first(0)).isZero();
        assertThat(known.first(1)).isEqualTo(9);
    }

    @Test
    void aBackendRenumberedIsBelievedOnlyOnAnAnswerAskedAfterTheNewestWasLearnt() {
        ShardGenerations known = new ShardGenerations(1);
        long builtAt = 1_764_520_000_000L; // a plain shard: its build time
        long oldSearch = known.tick();
        known.learn(0, builtAt, known.tick());
        long poll = known.tick();
        // Its first update: generation 1 of the index, lower than any build time.
        assertThat(known.learn(0, 1, poll)).isTrue();
        assertThat(known.newest(0)).isEqualTo(1);
        assertThat(known.learn(0, builtAt, oldSearch))
                .as("a search begun on the plain shard, ending after")
                .isFalse();
        assertThat(known.newest(0)).isEqualTo(1);
        assertThat(known.isNewest(0, 1, oldSearch))
                .as("asked before the renumbering was learnt: its 1 may be another index's")
                .isFalse();
        long next = known.tick();
        assertThat(known.isNewest(0, 1, next)).isTrue();
        assertThat(known.learn(0, 2, next)).isTrue();
        assertThat(known.askedSince(0, next)).isFalse();
        assertThat(known.askedSince(0, known.tick())).isTrue();
    }

    @Test
    void theFirstGenerationLearntIsKeptAndOnlyItIsAdopted() {
        ShardGenerations known = new ShardGenerations(1);
        assertThat(known.onFirst(0)).isTrue();
        known.learn(0, 3, known.tick());
        assertThat(known.onFirst(0)).isTrue();
        known.learn(0, 4, known.tick());
        assertThat(known.onFirst(0)).isFalse();
        assertThat(known.first(0)).isEqualTo(3);
    }

    /**
     * A backend switching generations in order while answers to requests are read in any order:
     * after every answer read, the newest known is the highest generation read so far, never less.
     */
    @Test
    void answersReadInAnyOrderLeaveTheHighestGenerationReadAsTheNewest() {
        for (long seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            ShardGenerations known = new ShardGenerations(1);
            long serving = 1;
            List<long[]> inFlight = new ArrayList<>(); // {askedAt, generation answered}
            long highestRead = 0;
            for (int step = 0; step < 300; step++) {
                int what = random.nextInt(4);
                if (what == 0) {
                    serving++;
                } else if (what == 1 || inFlight.isEmpty()) {
                    // Asked now, answered on what the backend serves now or later (it may switch first).
                    inFlight.add(new long[] {known.tick(), serving + (random.nextInt(4) == 0 ? 1 : 0)});
                    if (inFlight.get(inFlight.size() - 1)[1] > serving) {
                        serving++;
                    }
                } else {
                    long[] answer = inFlight.remove(random.nextInt(inFlight.size()));
                    known.learn(0, answer[1], answer[0]);
                    highestRead = Math.max(highestRead, answer[1]);
                    assertThat(known.newest(0))
                            .as("seed %d step %d", seed, step)
                            .isEqualTo(highestRead);
                }
            }
        }
    }

    @Test
    void aShardlessTableIsRefused() {
        assertThatThrownBy(() -> new ShardGenerations(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("shards must be >= 1, got 0");
    }
}
