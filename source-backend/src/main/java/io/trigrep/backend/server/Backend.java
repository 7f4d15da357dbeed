package io.trigrep.backend.server;

import io.trigrep.backend.ops.BackendMetrics;
import io.trigrep.backend.search.Scratch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What every connection of one backend shares: the generations of the shard, the limits, the
 * search pool, the counters and the frontends heard from.
 */
record Backend(
        Generations generations,
        BackendConfig config,
        Executor searchPool,
        AtomicInteger inFlight,
        LongAdder produced,
        BackendMetrics metrics,
        ShardCheck check,
        Scratch scratch,
        Frontends frontends) {}
