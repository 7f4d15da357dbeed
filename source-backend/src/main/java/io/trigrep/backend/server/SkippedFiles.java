package io.trigrep.backend.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the indexer left out of a shard, by reason, from the {@code "skipped"} object of its
 * {@code manifest.json}: {@code "skipped": {"binary": {"files": N, "bytes": B}, ...}}. The
 * indexer's {@code Manifest} does not expose the field (yet), so it is read here, from the file,
 * in this one place. A manifest without it (older indexers) has nothing skipped to report.
 */
final class SkippedFiles {
    private SkippedFiles() {}

    /** Files and bytes left out for one reason (lower case, as the manifest spells it). */
    record Count(String reason, long files, long bytes) {}

    private static final Pattern OBJECT = Pattern.compile("\"skipped\"\\s*:\\s*\\{((?:\\s*\"[a-z0-9_]+\"\\s*:\\s*\\{[^{}]*\\}\\s*,?)*)\\s*\\}");
    private static final Pattern ENTRY = Pattern.compile("\"([a-z0-9_]+)\"\\s*:\\s*\\{([^{}]*)\\}");
    private static final Pattern FILES = Pattern.compile("\"files\"\\s*:\\s*(\\d+)");
    private static final Pattern BYTES = Pattern.compile("\"bytes\"\\s*:\\s*(\\d+)");

    static List<Count> read(Path manifest) {
        try {
            return parse(Files.readString(manifest));
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + manifest, e);
        }
    }

    static List<Count> parse(String json) {
        Matcher object = OBJECT.matcher(json);
        if (!object.find()) {
            return List.of();
        }
        List<Count> counts = new ArrayList<>();
        Matcher entry = ENTRY.matcher(object.group(1));
        while (entry.find()) {
            counts.add(new Count(entry.group(1), number(FILES, entry.group(2)), number(BYTES, entry.group(2))));
        }
        return List.copyOf(counts);
    }

    private static long number(Pattern field, String body) {
        Matcher m = field.matcher(body);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }
}
