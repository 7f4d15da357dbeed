package io.trigrep.indexer.filter;

import java.util.Locale;

/**
 * Why a file was left out of the index. Each is counted and reported by the indexer, and listed
 * with {@code --skipped}. Names are stable: {@code name().toLowerCase()} is what the summary, the
 * skipped list and each shard's manifest print.
 */
public enum SkipReason {
    BINARY("a NUL byte: binary content"),
    TOO_LARGE("larger than --max-file-bytes"),
    GENERATED("a well-known generated or minified name (only with --skip-generated)"),
    VCS("a version-control folder"),
    SYMLINK("a symbolic link (never followed)"),
    UNSAFE_PATH("an absolute path, one with '..' (zip-slip), or one over 65,535 bytes"),
    UNREADABLE("could not be read");

    private final String description;

    SkipReason(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** The name the summary, {@code --skipped} and manifests use: {@code too_large}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
