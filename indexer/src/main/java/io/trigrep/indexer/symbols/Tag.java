package io.trigrep.indexer.symbols;

/**
 * One definition ctags reported in a file: its name, 1-based line, kind ("function"), language
 * ("C") and enclosing scope ("" when ctags gives none).
 */
record Tag(String name, int line, String kind, String language, String scope) {
    Tag {
        if (line < 1) {
            throw new IllegalArgumentException("a tag's line must be >= 1, got " + line + " for " + name);
        }
    }
}
