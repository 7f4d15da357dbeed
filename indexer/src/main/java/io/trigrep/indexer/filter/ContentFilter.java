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

    private static final java.lang.invoke.VarHandle LONGS =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.LITTLE_ENDIAN);
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long ONES = 0x0101010101010101L;
    private static final long NEWLINES = 0x0a0a0a0a0a0a0a0aL;

    private static boolean hasZeroByte(long v) {
        return ((v - ONES) & ~v & HIGH_BITS) != 0;
    }

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
            return check(content.array(), content.arrayOffset() + content.position(), content.remaining());
        }
        byte[] copy = new byte[content.remaining()];
        content.get(content.position(), copy);
        return check(copy, 0, copy.length);
    }

    private SkipReason check(byte[] content, int start, int length) {
        int end = start + length;
        int lineStart = start;
        int count = 0;
        int invalid = 0;
        int sequences = 0;
        int maxLine = limits.maxLineBytes();
        int i = start;
        while (i < end) {
            // Eight plain ASCII bytes without NUL or newline at a time: most of any source file.
            if (i + 8 <= end) {
                long v = (long) LONGS.get(content, i);
                if ((v & HIGH_BITS) == 0 && !hasZeroByte(v) && !hasZeroByte(v ^ NEWLINES)) {
                    i += 8;
                    sequences += 8;
                    continue;
                }
            }
            int b = content[i] & 0xff;
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
                ok = (content[i + k] & 0xc0) == 0x80;
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
        if (Trigrams.collect(content, start, length, trigrams, limits.maxTrigrams() + 1) > limits.maxTrigrams()) {
            return SkipReason.TOO_MANY_TRIGRAMS;
        }
        lines = count + (end > lineStart ? 1 : 0);
        return null;
    }
}
