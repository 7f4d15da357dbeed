package io.trigrep.indexer.filter;

import io.trigrep.indexer.bytes.Swar;
import io.trigrep.indexer.format.Trigrams;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;

/**
 * Decides whether one file is indexed, in one pass over its bytes that also counts its lines, and
 * collects its distinct trigrams. Only a NUL byte or the size cap keep a file out: any line
 * length, any number of trigrams and any encoding are indexed. Not thread-safe: one per thread
 * (it owns a trigram set of 2 MiB and up to 4 MiB of members).
 */
public final class ContentFilter {
    private static final List<String> GENERATED_SUFFIXES = List.of(
            ".min.js",
            ".min.css",
            ".js.map",
            ".css.map",
            "-min.js",
            "package-lock.json",
            "yarn.lock",
            "pnpm-lock.yaml",
            ".pb.go",
            "_pb2.py");
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

    /** Checks a path relative to its package for what is never indexed (unsafe, VCS); null when it may be. */
    public static SkipReason checkPath(String path) {
        if (path.isEmpty() || path.startsWith("/") || (path.contains("\\") && path.matches("^[A-Za-z]:\\\\.*"))) {
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
        return null;
    }

    /** A well-known generated or minified file name ({@code .min.js}, {@code package-lock.json}, …). */
    public static boolean isGenerated(String path) {
        String lower = path.toLowerCase(Locale.ROOT);
        for (String suffix : GENERATED_SUFFIXES) {
            if (lower.endsWith(suffix)) {
                return true;
            }
        }
        return false;
    }

    /** {@link #checkPath}, then the generated-name rule when {@link FilterLimits#skipGenerated} is on. */
    public static SkipReason check(String path, FilterLimits limits) {
        SkipReason reason = checkPath(path);
        if (reason == null && limits.skipGenerated() && isGenerated(path)) {
            return SkipReason.GENERATED;
        }
        return reason;
    }

    /** The distinct trigrams of the file last {@link #checkContent checked} and accepted. */
    public Trigrams.Set trigrams() {
        return trigrams;
    }

    /** Lines of the file last {@link #checkContent checked} and accepted. */
    public int lines() {
        return lines;
    }

    /** Checks the bytes (position to limit); null when the file may be indexed. */
    public SkipReason checkContent(ByteBuffer content) {
        if (content.remaining() > limits.maxFileBytes()) {
            return SkipReason.TOO_LARGE;
        }
        if (content.hasArray()) {
            return checkContent(content.array(), content.arrayOffset() + content.position(), content.remaining());
        }
        byte[] copy = new byte[content.remaining()];
        content.get(content.position(), copy);
        return checkContent(copy, 0, copy.length);
    }

    /** Checks {@code content[start, start + length)}; null when the file may be indexed (its lines and trigrams then kept). */
    public SkipReason checkContent(byte[] content, int start, int length) {
        if (length > limits.maxFileBytes()) {
            return SkipReason.TOO_LARGE;
        }
        int end = start + length;
        long newlines = 0;
        int i = start;
        // Eight bytes at a time: a NUL test and a newline count, whatever the encoding.
        for (; i + 8 <= end; i += 8) {
            long v = Swar.word(content, i);
            if (Swar.zeroBytes(v) != 0) {
                return SkipReason.BINARY;
            }
            newlines += Long.bitCount(Swar.newlines(v));
        }
        for (; i < end; i++) {
            if (content[i] == 0) {
                return SkipReason.BINARY;
            }
            if (content[i] == '\n') {
                newlines++;
            }
        }
        trigrams.clear();
        Trigrams.collect(content, start, length, trigrams, Integer.MAX_VALUE);
        lines = (int) Math.min(Integer.MAX_VALUE, newlines + (length > 0 && content[end - 1] != '\n' ? 1 : 0));
        return null;
    }
}
