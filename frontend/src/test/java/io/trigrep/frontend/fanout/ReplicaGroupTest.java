package io.trigrep.frontend.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReplicaGroupTest {
    private static Replica replica(int port, long firstFrameNanos) {
        Replica r = new Replica(new InetSocketAddress("127.0.0.1", port), null, false);
        for (int i = 0; i < 50; i++) {
            r.firstFrame(firstFrameNanos);
        }
        return r;
    }

    private static int chosen(ReplicaGroup group, Replica which, int times) {
        int n = 0;
        for (int i = 0; i < times; i++) {
            if (group.choose(List.of(), false) == which) {
                n++;
            }
        }
        return n;
    }

    @Test
    void replicasOfNearlyEqualLatencyTakeTurns() {
        Replica a = replica(1, 1_000_000);
        Replica b = replica(2, 1_100_000);
        ReplicaGroup group = new ReplicaGroup(List.of(a, b));
        int toA = chosen(group, a, 2_000);
        assertThat(toA).as("searches to a of 2,000").isBetween(700, 1_300);
    }

    @Test
    void aClearlySlowerReplicaIsNotAskedWhileTheOtherIsIdle() {
        Replica fast = replica(1, 1_000_000);
        Replica slow = replica(2, 2_000_000);
        ReplicaGroup group = new ReplicaGroup(List.of(fast, slow));
        assertThat(chosen(group, fast, 1_000)).isEqualTo(1_000);
        fast.started();
        fast.started();
        assertThat(chosen(group, slow, 1_000))
                .as("the fast one with two searches outstanding costs more")
                .isEqualTo(1_000);
    }

    @Test
    void anUnhealthyReplicaIsAskedOnlyWhenNoneIsHealthy() {
        Replica a = replica(1, 1_000_000);
        Replica b = replica(2, 5_000_000);
        ReplicaGroup group = new ReplicaGroup(List.of(a, b));
        a.failed("connection reset");
        assertThat(chosen(group, b, 1_000)).isEqualTo(1_000);
        b.pinged("no answer in 500 ms");
        b.pinged("no answer in 500 ms");
        assertThat(group.choose(List.of(), false)).isNull();
        assertThat(group.choose(List.of(), true)).isSameAs(a);
        assertThat(group.choose(List.of(a), true)).isSameAs(b);
    }

    @Test
    void oneLatePingIsNotEnoughToBeUnhealthy() {
        Replica r = replica(1, 1_000_000);
        r.pinged("no answer for 500 ms");
        assertThat(r.healthy()).as("one failed ping").isTrue();
        r.pinged(null);
        r.pinged("no answer for 500 ms");
        assertThat(r.healthy()).as("one failed ping after an answered one").isTrue();
        r.pinged("connection refused");
        assertThat(r.healthy()).as("two in a row").isFalse();
        assertThat(r.problem()).isEqualTo("connection refused");
        r.pinged(null);
        assertThat(r.healthy()).isTrue();
        assertThat(r.problem()).isNull();
    }
}
