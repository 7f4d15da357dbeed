/**
 * Symbol search, index side: definitions extracted with universal-ctags while a shard is built
 * ({@link io.trigrep.indexer.symbols.SymbolExtractor}), stored in the shard's {@code symbols.tgs}
 * (format in {@code indexer/FORMAT.md}) and read back by {@link io.trigrep.indexer.symbols.Symbols}:
 * names found by trigram or by a scan of the name table, symbols by name or by doc.
 */
package io.trigrep.indexer.symbols;
