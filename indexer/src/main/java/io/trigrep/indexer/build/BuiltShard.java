package io.trigrep.indexer.build;

/** What building one shard produced: counts and the size of each file. */
public record BuiltShard(int docs, int packages, int trigrams, long contentBytes, long indexBytes, long docTableBytes, int postingPasses,
                         long postingBytes, long varintPostingBytes) {}
