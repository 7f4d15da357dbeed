package io.trigrep.indexer.filter;

import io.trigrep.indexer.format.Trigrams;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;

/**
 * Decides whether one file is indexed, in one pass over its bytes that also counts its lines.
 * Not thread-safe: one per thread (it owns a trigram set of 2 MiB).
 */
public final class ContentFilter {
    private static final List<String> GENERATED_SUFFIXES = List.of(".min.js", ".min.css", ".js.map", ".css.map", "-min.js",
            "package-lock.json", "yarn.lock", "pnpm-lock.yaml", ".pb.go", "_pb2.py");
    private static final List<String> VCS_FOLDERS = List.of(".git", ".svn", ".hg", ".bzr", "CVS", "_darcs");

    private final FilterLimits limits;
    private final Trigrams.Set trigrams = new Trigrams.Set();
    private int lines;

    public ContentFilter(FilterLimits limits) {
        this.limits = limits;
    }

    public FilterLimits limits() {
        return limits;
    }

    public static boolean isVcsFolder(String name) {
        return VCS_FOLDERS.contains(name);
    }

    /** Checks a path relative to its package; null when it may be indexed. */
    public static SkipReason checkPath(String path) {
        if (path.isEmpty() || path.startsWith("/") || path.contains("\\") && path.matches("^[A-Za-z]:\\\\.*")) {
            return SkipReason.UNSAFE_PATH;
        }
        for (String part : path.split("/", -1)) {
            if (part.equals("..")) {
                return SkipReason.UNSAFE_PATH;
            }
            if (VCS_FOLDERS.contains(part)) {
                return SkipReason.VCS;
            }
        }
        String lower = path.toLowerCase(Locale.ROOT);
        for (String suffix : GENERATED_SUFFIXES) {
            if (lower.endsWith(suffix)) {
                return SkipReason.GENERATED;
            }
        }
        return null;
    }

    /** Lines of the file last {@link #checkContent checked} and accepted. */
    public int lines() {
        return lines;
    }

    /** Checks the bytes (position to limit); null when the file may be indexed. */
    public SkipReason checkContent(ByteBuffer content) {
        int end = content.limit();
        int start = content.position();
        if (end - start > limits.maxFileBytes()) {
            return SkipReason.TOO_LARGE;
        }
        int lineStart = start;
        int count = 0;
        int invalid = 0;
        int sequences = 0;
        int maxLine = limits.maxLineBytes();
        int i = start;
        while (i < end) {
            int b = content.get(i) & 0xff;
            if (b == 0) {
                return SkipReason.BINARY;
            }
            if (b == '\n') {
                if (i - lineStart > maxLine) {
                    return SkipReason.LONG_LINE;
                }
                count++;
                lineStart = i + 1;
                i++;
                sequences++;
                continue;
            }
            sequences++;
            if (b < 0x80) {
                i++;
                continue;
            }
            int need = b >= 0xf0 && b <= 0xf4 ? 3 : b >= 0xe0 ? (b <= 0xef ? 2 : -1) : b >= 0xc2 && b <= 0xdf ? 1 : -1;
            if (need < 0) {
                invalid++;
                i++;
                continue;
            }
            boolean ok = i + need < end;
            for (int k = 1; ok && k <= need; k++) {
                ok = (content.get(i + k) & 0xc0) == 0x80;
            }
            if (ok) {
                i += need + 1;
            } else {
                invalid++;
                i++;
            }
        }
        if (end - lineStart > maxLine) {
            return SkipReason.LONG_LINE;
        }
        if (sequences > 0 && invalid > limits.maxInvalidUtf8() * sequences) {
            return SkipReason.BINARY;
        }
        trigrams.clear();
        if (Trigrams.collect(content, trigrams, limits.maxTrigrams() + 1) > limits.maxTrigrams()) {
            return SkipReason.TOO_MANY_TRIGRAMS;
        }
        lines = count + (end > lineStart ? 1 : 0);
        return null;
    }
}
