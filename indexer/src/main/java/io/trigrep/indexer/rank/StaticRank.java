package io.trigrep.indexer.rank;

import io.trigrep.indexer.filetype.FileType;
import java.util.List;
import java.util.Locale;

/**
 * A file's rank before any query, in (0, 1]: how likely a match in it is what a searcher wants.
 * Path heuristics (tests, examples, packaging metadata and vendored copies lower; top-level and
 * {@code src/} higher; deeper lower), the file type, and the package's popularity weight.
 * Doc ids are assigned in decreasing rank, so search visits the best files first.
 */
public final class StaticRank {
    private StaticRank() {}

    private static final List<String> TEST_PARTS =
            List.of("test", "tests", "testing", "testdata", "testsuite", "spec", "specs", "__tests__", "t");
    private static final List<String> EXAMPLE_PARTS =
            List.of("example", "examples", "demo", "demos", "sample", "samples");
    private static final List<String> VENDOR_PARTS = List.of(
            "vendor",
            "third_party",
            "thirdparty",
            "third-party",
            "3rdparty",
            "external",
            "extern",
            "node_modules",
            "bundled",
            "contrib");
    private static final List<String> DOC_PARTS = List.of("doc", "docs", "documentation", "man");

    public static float of(String path, FileType type, float packageWeight) {
        String lower = path.toLowerCase(Locale.ROOT);
        String[] parts = lower.split("/", -1);
        String name = parts[parts.length - 1];
        double rank = 1.0;
        if (lower.startsWith("debian/")) {
            rank *= 0.3;
        }
        boolean test = name.startsWith("test_")
                || name.contains("_test.")
                || name.contains(".test.")
                || name.contains("_spec.")
                || name.endsWith("test.java")
                || name.endsWith("tests.java");
        boolean example = false;
        boolean vendor = false;
        boolean doc = false;
        for (int i = 0; i < parts.length - 1; i++) {
            test |= TEST_PARTS.contains(parts[i]);
            example |= EXAMPLE_PARTS.contains(parts[i]);
            vendor |= VENDOR_PARTS.contains(parts[i]);
            doc |= DOC_PARTS.contains(parts[i]);
        }
        if (test) {
            rank *= 0.5;
        }
        if (example) {
            rank *= 0.6;
        }
        if (vendor) {
            rank *= 0.4;
        }
        if (doc) {
            rank *= 0.7;
        }
        int depth = parts.length - 1;
        if (lower.startsWith("src/") || lower.startsWith("lib/") || depth == 0) {
            rank *= 1.0;
        } else {
            rank *= 0.9;
        }
        rank /= 1.0 + 0.05 * Math.max(0, depth - 1);
        rank *= typeWeight(type);
        rank *= 0.5 + 0.5 * Math.max(0f, Math.min(1f, packageWeight));
        return (float) Math.max(1e-6, Math.min(1.0, rank));
    }

    private static double typeWeight(FileType type) {
        return switch (type) {
            case UNKNOWN -> 0.75;
            case JSON, XML, YAML, TOML, MARKDOWN, RESTRUCTUREDTEXT, TEX, HTML, CSS -> 0.85;
            case MAKEFILE, CMAKE, AUTOCONF -> 0.9;
            default -> 1.0;
        };
    }
}
