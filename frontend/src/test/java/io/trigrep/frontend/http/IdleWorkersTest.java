package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdleWorkersTest {
    @Test
    void eachTaskGetsANewWorkerThatTimesOutAndEndsOnEveryKindOfQueue() throws Exception {
        assertThat(IdleWorkers.timeOut(3)).isEqualTo(3 * IdleWorkers.QUEUES.size());
        assertThat(Thread.getAllStackTraces().keySet())
                .as("no worker left waiting")
                .noneMatch(t -> t.getName().equals("trigrep-warmup-idle"));
    }
}
