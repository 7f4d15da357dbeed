package io.trigrep.backend.server;

import io.trigrep.backend.ops.BackendMetrics;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.symbols.Symbols;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** What every connection of one backend shares: the shard and its symbols, the limits, the search pool and the counters. */
record Backend(
        Shard shard,
        Symbols symbols,
        BackendConfig config,
        Executor searchPool,
        AtomicInteger inFlight,
        LongAdder produced,
        BackendMetrics metrics,
        ShardCheck check,
        io.trigrep.backend.search.Scratch scratch) {}
