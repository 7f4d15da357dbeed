package io.trigrep.indexer.build;

import io.trigrep.indexer.symbols.SymbolExtractor;
import java.util.List;

/**
 * What building one shard produced: counts and the size of each file. {@code symbols} is null when
 * the shard has no symbols file; {@code symbolBytes} is then 0.
 */
public record BuiltShard(
        int docs,
        int packages,
        int trigrams,
        long contentBytes,
        long indexBytes,
        long docTableBytes,
        int postingPasses,
        long postingBytes,
        long varintPostingBytes,
        SymbolExtractor.Result symbols,
        long symbolBytes,
        List<IndexBuilder.SymbolFailure> symbolFailures) {}
