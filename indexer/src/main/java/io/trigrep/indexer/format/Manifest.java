package io.trigrep.indexer.format;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code manifest.json}: what a shard holds, for operators and the backend's status. Written last,
 * so a shard folder with a manifest is complete. The binary files carry their own version; the
 * manifest's {@code builtAtMillis} and {@code buildMillis} are the only bytes that differ between
 * two builds of the same input.
 */
public record Manifest(String shard, int docs, int packages, int trigrams, long contentBytes, long indexBytes, long docTableBytes,
                       long builtAtMillis, long buildMillis) {
    public static final int FORMAT_VERSION = Envelope.VERSION;

    public String toJson() {
        return "{\n"
                + "  \"formatVersion\": " + FORMAT_VERSION + ",\n"
                + "  \"shard\": \"" + shard.replace("\\", "\\\\").replace("\"", "\\\"") + "\",\n"
                + "  \"docs\": " + docs + ",\n"
                + "  \"packages\": " + packages + ",\n"
                + "  \"trigrams\": " + trigrams + ",\n"
                + "  \"contentBytes\": " + contentBytes + ",\n"
                + "  \"indexBytes\": " + indexBytes + ",\n"
                + "  \"docTableBytes\": " + docTableBytes + ",\n"
                + "  \"builtAtMillis\": " + builtAtMillis + ",\n"
                + "  \"buildMillis\": " + buildMillis + "\n"
                + "}\n";
    }

    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|-?\\d+)");

    /** Reads what {@link #toJson} wrote; refuses a manifest of another format version. */
    public static Manifest read(Path file) throws IOException {
        String json = Files.readString(file);
        java.util.Map<String, String> fields = new java.util.HashMap<>();
        Matcher m = FIELD.matcher(json);
        while (m.find()) {
            fields.put(m.group(1), m.group(3) != null ? m.group(3).replace("\\\"", "\"").replace("\\\\", "\\") : m.group(2));
        }
        try {
            int version = Integer.parseInt(fields.getOrDefault("formatVersion", "-1"));
            if (version != FORMAT_VERSION) {
                throw new CorruptIndexException(file, 0, "manifest of format version " + version + ", this build reads " + FORMAT_VERSION);
            }
            return new Manifest(fields.get("shard"), Integer.parseInt(fields.get("docs")), Integer.parseInt(fields.get("packages")),
                    Integer.parseInt(fields.get("trigrams")), Long.parseLong(fields.get("contentBytes")),
                    Long.parseLong(fields.get("indexBytes")), Long.parseLong(fields.get("docTableBytes")),
                    Long.parseLong(fields.get("builtAtMillis")), Long.parseLong(fields.get("buildMillis")));
        } catch (NumberFormatException | NullPointerException e) {
            throw new CorruptIndexException(file, 0, "manifest is missing a field or has a malformed one");
        }
    }
}
