package io.trigrep.indexer.segments;

/**
 * What identifies a package across versions, so that adding {@code zlib_1.3.1-1} replaces
 * {@code zlib_1.2.13.dfsg-1}: a name is identified by what comes before its first {@code _}
 * followed by a digit ({@code NAME_VERSION}, as Debian names source packages and their
 * {@code .dsc} files, whose versions start with a digit once the epoch is dropped); a name without
 * one ({@code my_project}, {@code linux}) by itself. {@code indexer/fetch-debian-sources.sh --sync}
 * applies the same rule.
 */
public final class PackageKey {
    private PackageKey() {}

    public static String of(String packageName) {
        for (int i = 1; i + 1 < packageName.length(); i++) {
            char next = packageName.charAt(i + 1);
            if (packageName.charAt(i) == '_' && next >= '0' && next <= '9') {
                return packageName.substring(0, i);
            }
        }
        return packageName;
    }
}
