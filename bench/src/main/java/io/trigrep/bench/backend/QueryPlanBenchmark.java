package io.trigrep.bench.backend;

import io.trigrep.query.CompiledQuery;
import io.trigrep.query.QueryParser;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A query parsed, planned and compiled, as the frontend does for every fresh search (to refuse a
 * bad one itself and to know a full scan) and every backend again: {@code CompiledQuery.of} on a
 * user's query text. Identifiers of 13 and 27 bytes (the selective queries of
 * {@code bench/queries.txt}), a regex with a class and an alternation, and a case-folded word.
 * Time per query; {@code -prof gc} gives the bytes it allocates.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class QueryPlanBenchmark {
    @Param({"inflateInit2_", "sd_bus_message_append_basic", "(malloc|calloc|realloc)\\(", "(?i)copyright"})
    public String query;

    @Benchmark
    public CompiledQuery plan() throws Exception {
        return CompiledQuery.of(QueryParser.parse(query, false));
    }
}
