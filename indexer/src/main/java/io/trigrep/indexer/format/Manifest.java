package io.trigrep.indexer.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * {@code manifest.json}: what a shard holds, for operators and the backend's status. Written last,
 * so a shard folder with a manifest is complete. The binary files carry their own version; the
 * manifest's {@code builtAtMillis} and {@code buildMillis} are the only bytes that differ between
 * two builds of the same input.
 *
 * @param skipped files the indexer left out, attributed to this shard, by reason ({@code "binary"},
 *                {@code "too_large"}, … as {@code SkipReason.name().toLowerCase()}), in the order
 *                written; empty for a manifest written before the field existed
 * @param symbolsAbsent why the shard has no {@code symbols.tgs} (ctags missing, symbols turned
 *                off); null when it has one, or when the manifest says nothing about symbols
 */
public record Manifest(
        String shard,
        int docs,
        int packages,
        int trigrams,
        long contentBytes,
        long indexBytes,
        long docTableBytes,
        long builtAtMillis,
        long buildMillis,
        Map<String, Skipped> skipped,
        String symbolsAbsent) {
    public static final int FORMAT_VERSION = Envelope.VERSION;

    /** Files left out for one reason and their bytes. */
    public record Skipped(long files, long bytes) {
        public Skipped {
            if (files < 0 || bytes < 0) {
                throw new IllegalArgumentException(
                        "skipped files and bytes must be >= 0, got " + files + " files, " + bytes + " bytes");
            }
        }
    }

    public Manifest {
        skipped = Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
    }

    /** A manifest that says nothing about symbols. */
    public Manifest(
            String shard,
            int docs,
            int packages,
            int trigrams,
            long contentBytes,
            long indexBytes,
            long docTableBytes,
            long builtAtMillis,
            long buildMillis,
            Map<String, Skipped> skipped) {
        this(
                shard,
                docs,
                packages,
                trigrams,
                contentBytes,
                indexBytes,
                docTableBytes,
                builtAtMillis,
                buildMillis,
                skipped,
                null);
    }

    /** A manifest with no skipped files recorded. */
    public Manifest(
            String shard,
            int docs,
            int packages,
            int trigrams,
            long contentBytes,
            long indexBytes,
            long docTableBytes,
            long builtAtMillis,
            long buildMillis) {
        this(
                shard,
                docs,
                packages,
                trigrams,
                contentBytes,
                indexBytes,
                docTableBytes,
                builtAtMillis,
                buildMillis,
                Map.of());
    }

    /** Files left out over every reason. */
    public long skippedFiles() {
        return skipped.values().stream().mapToLong(Skipped::files).sum();
    }

    public String toJson() {
        StringBuilder reasons = new StringBuilder();
        for (Map.Entry<String, Skipped> e : skipped.entrySet()) {
            reasons.append(reasons.length() == 0 ? "\n" : ",\n")
                    .append("    ")
                    .append(quote(e.getKey()))
                    .append(": {\"files\": ")
                    .append(e.getValue().files())
                    .append(", \"bytes\": ")
                    .append(e.getValue().bytes())
                    .append('}');
        }
        String body = "{\n"
                + "  \"formatVersion\": " + FORMAT_VERSION + ",\n"
                + "  \"shard\": " + quote(shard) + ",\n"
                + "  \"docs\": " + docs + ",\n"
                + "  \"packages\": " + packages + ",\n"
                + "  \"trigrams\": " + trigrams + ",\n"
                + "  \"contentBytes\": " + contentBytes + ",\n"
                + "  \"indexBytes\": " + indexBytes + ",\n"
                + "  \"docTableBytes\": " + docTableBytes + ",\n"
                + "  \"skipped\": {" + reasons + (reasons.length() == 0 ? "" : "\n  ") + "},\n"
                + (symbolsAbsent == null ? "" : "  \"symbolsAbsent\": " + quote(symbolsAbsent) + ",\n")
                + "  \"builtAtMillis\": " + builtAtMillis + ",\n"
                + "  \"buildMillis\": " + buildMillis + ",\n";
        return body + CHECKSUM_LINE + checksum(body) + "\n}\n";
    }

    /**
     * The manifest's last field: the CRC32C of every byte before it. The binary files carry their
     * own checksums in their footers; without this one, a flipped byte in the manifest (a count, a
     * package's skipped files, the shard's name) would be served without a word.
     */
    private static final String CHECKSUM_LINE = "  \"crc32c\": ";

    private static long checksum(String body) {
        CRC32C crc = new CRC32C();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\"\\s*:\\s*(\"((?:[^\"\\\\]|\\\\.)*)\"|-?\\d+)");
    private static final Pattern SKIPPED = Pattern.compile("\"skipped\"\\s*:\\s*\\{((?:[^{}]|\\{[^{}]*\\})*)\\}");
    private static final Pattern REASON = Pattern.compile(
            "\"(\\w+)\"\\s*:\\s*\\{\\s*\"files\"\\s*:\\s*(\\d+)\\s*,\\s*\"bytes\"\\s*:\\s*(\\d+)\\s*\\}");

    /** Reads what {@link #toJson} wrote; refuses a manifest of another format version. */
    public static Manifest read(Path file) throws IOException {
        String json = Files.readString(file);
        int checksumAt = json.lastIndexOf(CHECKSUM_LINE);
        if (checksumAt >= 0) {
            // Written by an indexer that checksums its manifests; one without the field is older.
            String body = json.substring(0, checksumAt);
            String rest = json.substring(checksumAt + CHECKSUM_LINE.length());
            int end = rest.indexOf('\n');
            if (end < 0 || !rest.substring(0, end).equals(Long.toString(checksum(body)))) {
                throw new CorruptIndexException(
                        file,
                        body.getBytes(StandardCharsets.UTF_8).length,
                        "manifest's crc32c does not match its contents (corrupt manifest)");
            }
        }
        Map<String, Skipped> skipped = new LinkedHashMap<>();
        Matcher block = SKIPPED.matcher(json);
        if (block.find()) {
            Matcher r = REASON.matcher(block.group(1));
            while (r.find()) {
                try {
                    skipped.put(r.group(1), new Skipped(Long.parseLong(r.group(2)), Long.parseLong(r.group(3))));
                } catch (NumberFormatException e) {
                    throw new CorruptIndexException(file, 0, "manifest's skipped." + r.group(1) + " is malformed");
                }
            }
            json = json.substring(0, block.start()) + json.substring(block.end());
        }
        Map<String, String> fields = new HashMap<>();
        Matcher m = FIELD.matcher(json);
        while (m.find()) {
            fields.put(
                    m.group(1),
                    m.group(3) != null ? m.group(3).replace("\\\"", "\"").replace("\\\\", "\\") : m.group(2));
        }
        try {
            int version = Integer.parseInt(fields.getOrDefault("formatVersion", "-1"));
            if (version != FORMAT_VERSION) {
                throw new CorruptIndexException(
                        file, 0, "manifest of format version " + version + ", this build reads " + FORMAT_VERSION);
            }
            return new Manifest(
                    fields.get("shard"),
                    Integer.parseInt(fields.get("docs")),
                    Integer.parseInt(fields.get("packages")),
                    Integer.parseInt(fields.get("trigrams")),
                    Long.parseLong(fields.get("contentBytes")),
                    Long.parseLong(fields.get("indexBytes")),
                    Long.parseLong(fields.get("docTableBytes")),
                    Long.parseLong(fields.get("builtAtMillis")),
                    Long.parseLong(fields.get("buildMillis")),
                    skipped,
                    fields.get("symbolsAbsent"));
        } catch (NumberFormatException | NullPointerException e) {
            throw new CorruptIndexException(file, 0, "manifest is missing a field or has a malformed one");
        }
    }
}
