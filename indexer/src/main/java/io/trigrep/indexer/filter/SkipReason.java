package io.trigrep.indexer.filter;

/** Why a file was left out of the index. Each is counted and reported by the indexer. */
public enum SkipReason {
    BINARY("binary content (NUL bytes or mostly invalid UTF-8)"),
    TOO_LARGE("larger than the size limit"),
    LONG_LINE("a line longer than the line limit"),
    TOO_MANY_TRIGRAMS("more distinct trigrams than the limit (likely data, not source)"),
    GENERATED("a well-known generated or minified file"),
    VCS("inside a version-control folder"),
    SYMLINK("a symbolic link (never followed)"),
    UNSAFE_PATH("an absolute path or one with '..' (zip-slip)"),
    UNREADABLE("could not be read");

    private final String description;

    SkipReason(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
