package io.trigrep.indexer.segments;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What identifies a package across versions, so that adding {@code zlib_1.3.1-1} replaces
 * {@code zlib_1.2.13.dfsg-1}: a name {@code NAME_VERSION} whose version starts with a digit (as
 * Debian names source packages and their {@code .dsc} files) is identified by {@code NAME}; any
 * other name ({@code my_project}, {@code linux}) by itself.
 */
public final class PackageKey {
    private PackageKey() {}

    private static final Pattern VERSIONED = Pattern.compile("([^_]+)_[0-9][^_]*");

    public static String of(String packageName) {
        Matcher m = VERSIONED.matcher(packageName);
        return m.matches() ? m.group(1) : packageName;
    }
}
