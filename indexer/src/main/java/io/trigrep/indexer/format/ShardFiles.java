package io.trigrep.indexer.format;

/** The names of the files in a shard folder. */
public final class ShardFiles {
    private ShardFiles() {}

    public static final String TRIGRAMS = "trigrams.tgi";
    public static final String DOCS = "docs.tgd";
    public static final String CONTENTS = "contents.tgc";
    public static final String SYMBOLS = "symbols.tgs";
    public static final String MANIFEST = "manifest.json";
}
