package io.trigrep.indexer.build;

import io.trigrep.indexer.symbols.SymbolExtractor;

/**
 * Whether shards get a {@code symbols.tgs}: extracted with {@code extractor}, or left without one
 * for {@code absentReason}, which each shard's manifest records. Exactly one of the two is set.
 */
public record SymbolChoice(SymbolExtractor extractor, String absentReason) {
    public SymbolChoice {
        if ((extractor == null) == (absentReason == null)) {
            throw new IllegalArgumentException("exactly one of extractor and absentReason must be set, got "
                    + (extractor == null ? "no extractor" : "an extractor") + " and "
                    + (absentReason == null ? "no reason" : "reason '" + absentReason + "'"));
        }
    }

    public static SymbolChoice extract(SymbolExtractor extractor) {
        return new SymbolChoice(extractor, null);
    }

    public static SymbolChoice none(String reason) {
        return new SymbolChoice(null, reason);
    }
}
