package io.trigrep.indexer.rank;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Per-package weights in [0, 1] from a popularity file: one {@code package count} pair per line
 * (Debian popcon's installation counts; '#' starts a comment). A package's weight is
 * {@code log(1 + count) / log(1 + max count)}; packages the file does not name weigh 0, and
 * without a file every package weighs 1. Names match the package name before its first '_',
 * so {@code zlib} weighs {@code zlib_1.2.13.dfsg-1}.
 */
public final class Popularity {
    private final Map<String, Long> counts;
    private final double logMax;

    private Popularity(Map<String, Long> counts) {
        this.counts = counts;
        long max = counts.values().stream().mapToLong(Long::longValue).max().orElse(0);
        this.logMax = Math.log1p((double) max);
    }

    public static Popularity none() {
        return new Popularity(Map.of());
    }

    public static Popularity read(Path file) throws IOException {
        Map<String, Long> counts = new HashMap<>();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            int number = 0;
            for (String line; (line = in.readLine()) != null; ) {
                number++;
                int hash = line.indexOf('#');
                String content = (hash >= 0 ? line.substring(0, hash) : line).trim();
                if (content.isEmpty()) {
                    continue;
                }
                String[] fields = content.split("\\s+", -1);
                if (fields.length < 2) {
                    throw new IOException(file + ":" + number + ": expected 'package count', got '" + line + "'");
                }
                try {
                    long count = Long.parseLong(fields[1]);
                    if (count < 0) {
                        throw new NumberFormatException("negative");
                    }
                    counts.merge(fields[0], count, Long::sum);
                } catch (NumberFormatException e) {
                    throw new IOException(
                            file + ":" + number + ": count must be a non-negative integer, got '" + fields[1] + "'");
                }
            }
        }
        return new Popularity(counts);
    }

    public float weight(String packageName) {
        if (counts.isEmpty()) {
            return 1f;
        }
        int underscore = packageName.indexOf('_');
        String source = underscore > 0 ? packageName.substring(0, underscore) : packageName;
        Long count = counts.getOrDefault(packageName, counts.get(source));
        return count == null || logMax == 0 ? 0f : (float) (Math.log1p(count) / logMax);
    }
}
