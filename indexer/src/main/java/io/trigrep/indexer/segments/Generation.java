package io.trigrep.indexer.segments;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.format.Manifest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

/**
 * One committed state of an index: per shard, the segments that are live and each one's deletes,
 * and per package the files its indexing left out. Written as {@code gen-N.json} at the index's
 * root (FORMAT.md, "Generations"); the highest N is the index. Immutable.
 *
 * @param number      one more than the last for an update or merge; a full build's start time in
 *                    milliseconds (unique across rebuilds); 0 is an index of plain shard folders
 *                    without any generation file
 * @param nextSegment the id the next segment written gets (ids are never reused)
 * @param symbols     whether segments are built with definitions (so an update keeps the index's choice)
 * @param shards      in shard order
 * @param packages    every package the index holds, by name
 */
public record Generation(
        long number, long nextSegment, boolean symbols, List<ShardEntry> shards, List<PackageEntry> packages) {
    /** The layout version of an index folder with generation files; plain shard folders are version 1. */
    public static final int FORMAT_VERSION = 2;

    public Generation {
        shards = List.copyOf(shards);
        packages = List.copyOf(packages);
    }

    /**
     * One shard in this generation.
     *
     * @param skipped files left out of the packages whose skipped files this shard counts, by reason
     */
    public record ShardEntry(String name, List<SegmentEntry> segments, Map<String, Manifest.Skipped> skipped) {
        public ShardEntry {
            segments = List.copyOf(segments);
            skipped = Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
        }

        public int liveDocs() {
            return segments.stream().mapToInt(s -> s.docs() - s.deleted()).sum();
        }

        public long liveBytes() {
            return segments.stream().mapToLong(SegmentEntry::liveBytes).sum();
        }

        public int deleted() {
            return segments.stream().mapToInt(SegmentEntry::deleted).sum();
        }
    }

    /**
     * One segment of a shard.
     *
     * @param id        its folder is {@code seg-<id>} in the shard's folder; 0 is the shard folder's
     *                  own files, as {@code ./trigrep index} writes them
     * @param docs      docs it holds, deleted ones included
     * @param deleted   docs deleted since it was written
     * @param liveBytes content bytes of the docs not deleted
     * @param deletes   its deletes file's name in the shard folder; null when nothing is deleted
     */
    public record SegmentEntry(long id, int docs, int deleted, long liveBytes, String deletes) {
        public SegmentEntry {
            if (id < 0 || docs < 0 || deleted < 0 || deleted > docs || liveBytes < 0) {
                throw new IllegalArgumentException("bad segment entry: id " + id + ", docs " + docs + ", deleted "
                        + deleted + ", liveBytes " + liveBytes);
            }
            if ((deleted == 0) != (deletes == null)) {
                throw new IllegalArgumentException("a segment has a deletes file exactly when it has deleted docs");
            }
        }
    }

    /**
     * A package the index holds.
     *
     * @param skipShard the shard whose counts hold this package's skipped files (-1: not known,
     *                  for a package from an index built before generations)
     * @param skipped   its files left out, by reason (reasons with none are left out)
     * @param refs      a git repository's branches at the commits the index holds them at, which
     *                  override the commits its segments recorded (an update that re-reads only the
     *                  changed paths of a repository leaves its other files in older segments);
     *                  {@link GitRefs#NONE} when not recorded: its segments' own are current
     */
    public record PackageEntry(String name, int skipShard, Map<String, Manifest.Skipped> skipped, GitRefs refs) {
        public PackageEntry {
            skipped = Collections.unmodifiableMap(new LinkedHashMap<>(skipped));
        }

        public PackageEntry(String name, int skipShard, Map<String, Manifest.Skipped> skipped) {
            this(name, skipShard, skipped, GitRefs.NONE);
        }
    }

    /** The repositories whose branches this generation records ({@link PackageEntry#refs}), by package name. */
    public Map<String, GitRefs> repositories() {
        Map<String, GitRefs> out = new HashMap<>();
        for (PackageEntry p : packages) {
            if (p.refs().isRepository()) {
                out.put(p.name(), p.refs());
            }
        }
        return out;
    }

    public ShardEntry shard(String name) {
        for (ShardEntry s : shards) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        return null;
    }

    private static final JsonFactory JSON = new JsonFactory();
    private static final String CHECKSUM = ",\n  \"crc32c\" : ";

    /**
     * The file's bytes: JSON, whose last field {@code crc32c} is the CRC32C of every byte before
     * the comma that precedes it, so a flipped byte in a count is caught as in {@code manifest.json}.
     */
    public byte[] toJson() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        try (JsonGenerator g = JSON.createGenerator(buffer).useDefaultPrettyPrinter()) {
            g.writeStartObject();
            g.writeNumberField("formatVersion", FORMAT_VERSION);
            g.writeNumberField("generation", number);
            g.writeNumberField("nextSegment", nextSegment);
            g.writeBooleanField("symbols", symbols);
            g.writeArrayFieldStart("shards");
            for (ShardEntry s : shards) {
                g.writeStartObject();
                g.writeStringField("name", s.name());
                g.writeArrayFieldStart("segments");
                for (SegmentEntry e : s.segments()) {
                    g.writeStartObject();
                    g.writeNumberField("id", e.id());
                    g.writeNumberField("docs", e.docs());
                    g.writeNumberField("deleted", e.deleted());
                    g.writeNumberField("liveBytes", e.liveBytes());
                    if (e.deletes() != null) {
                        g.writeStringField("deletes", e.deletes());
                    }
                    g.writeEndObject();
                }
                g.writeEndArray();
                writeSkipped(g, s.skipped());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeArrayFieldStart("packages");
            for (PackageEntry p : packages) {
                g.writeStartObject();
                g.writeStringField("name", p.name());
                g.writeNumberField("skipShard", p.skipShard());
                writeSkipped(g, p.skipped());
                if (p.refs().isRepository()) {
                    g.writeObjectFieldStart("refs");
                    g.writeStringField("links", p.refs().links());
                    g.writeArrayFieldStart("branches");
                    for (GitRefs.Branch b : p.refs().branches()) {
                        g.writeStartArray();
                        g.writeString(b.name());
                        g.writeString(b.commit());
                        g.writeEndArray();
                    }
                    g.writeEndArray();
                    g.writeEndObject();
                }
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new IllegalStateException("writing JSON to memory cannot fail", e);
        }
        String json = buffer.toString(StandardCharsets.UTF_8);
        String body = json.substring(0, json.lastIndexOf('}')).stripTrailing();
        return (body + CHECKSUM + checksum(body) + "\n}\n").getBytes(StandardCharsets.UTF_8);
    }

    private static void writeSkipped(JsonGenerator g, Map<String, Manifest.Skipped> skipped) throws IOException {
        g.writeObjectFieldStart("skipped");
        for (Map.Entry<String, Manifest.Skipped> e : skipped.entrySet()) {
            g.writeArrayFieldStart(e.getKey());
            g.writeNumber(e.getValue().files());
            g.writeNumber(e.getValue().bytes());
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static long checksum(String body) {
        CRC32C crc = new CRC32C();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }

    /** Reads what {@link #toJson} wrote; anything else (a flipped byte, a truncation, another version) names {@code file}. */
    public static Generation read(Path file, byte[] bytes) throws CorruptIndexException {
        String json = new String(bytes, StandardCharsets.UTF_8);
        int at = json.lastIndexOf(CHECKSUM);
        if (at < 0) {
            throw new CorruptIndexException(file, 0, "generation file without its crc32c (truncated?)");
        }
        String body = json.substring(0, at);
        String rest = json.substring(at + CHECKSUM.length());
        int end = rest.indexOf('\n');
        if (end < 0 || !rest.substring(0, end).equals(Long.toString(checksum(body)))) {
            throw new CorruptIndexException(
                    file, body.getBytes(StandardCharsets.UTF_8).length, "crc32c does not match the contents");
        }
        try (JsonParser p = JSON.createParser(bytes)) {
            return parse(p, file);
        } catch (CorruptIndexException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw new CorruptIndexException(file, 0, "malformed generation file: " + e.getMessage());
        }
    }

    private static Generation parse(JsonParser p, Path file) throws IOException {
        expect(p.nextToken(), JsonToken.START_OBJECT, p, file);
        long number = -1;
        long next = -1;
        boolean symbols = false;
        int version = -1;
        List<ShardEntry> shards = new ArrayList<>();
        List<PackageEntry> packages = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "formatVersion" -> version = p.getIntValue();
                case "generation" -> number = p.getLongValue();
                case "nextSegment" -> next = p.getLongValue();
                case "symbols" -> symbols = value == JsonToken.VALUE_TRUE;
                case "shards" -> {
                    expect(value, JsonToken.START_ARRAY, p, file);
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        shards.add(parseShard(p, file));
                    }
                }
                case "packages" -> {
                    expect(value, JsonToken.START_ARRAY, p, file);
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        String name = null;
                        int skipShard = -1;
                        Map<String, Manifest.Skipped> skipped = Map.of();
                        GitRefs refs = GitRefs.NONE;
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String f = p.currentName();
                            p.nextToken();
                            switch (f) {
                                case "name" -> name = p.getText();
                                case "skipShard" -> skipShard = p.getIntValue();
                                case "skipped" -> skipped = parseSkipped(p, file);
                                case "refs" -> refs = parseRefs(p, file);
                                default -> p.skipChildren();
                            }
                        }
                        if (name == null) {
                            throw new CorruptIndexException(file, offset(p), "a package without a name");
                        }
                        packages.add(new PackageEntry(name, skipShard, skipped, refs));
                    }
                }
                default -> p.skipChildren();
            }
        }
        if (version != FORMAT_VERSION) {
            throw new CorruptIndexException(
                    file, 0, "generation file of format version " + version + ", this build reads " + FORMAT_VERSION);
        }
        if (number < 1 || next < 1) {
            throw new CorruptIndexException(file, 0, "generation or nextSegment missing or below 1");
        }
        return new Generation(number, next, symbols, shards, packages);
    }

    private static ShardEntry parseShard(JsonParser p, Path file) throws IOException {
        String name = null;
        List<SegmentEntry> segments = new ArrayList<>();
        Map<String, Manifest.Skipped> skipped = Map.of();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            switch (field) {
                case "name" -> name = p.getText();
                case "segments" -> {
                    expect(value, JsonToken.START_ARRAY, p, file);
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        long id = -1;
                        int docs = -1;
                        int deleted = -1;
                        long liveBytes = -1;
                        String deletes = null;
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String f = p.currentName();
                            p.nextToken();
                            switch (f) {
                                case "id" -> id = p.getLongValue();
                                case "docs" -> docs = p.getIntValue();
                                case "deleted" -> deleted = p.getIntValue();
                                case "liveBytes" -> liveBytes = p.getLongValue();
                                case "deletes" -> deletes = p.getText();
                                default -> p.skipChildren();
                            }
                        }
                        if (deletes != null && (deletes.contains("/") || deletes.startsWith("."))) {
                            throw new CorruptIndexException(file, offset(p), "deletes file name '" + deletes + "'");
                        }
                        try {
                            segments.add(new SegmentEntry(id, docs, deleted, liveBytes, deletes));
                        } catch (IllegalArgumentException e) {
                            throw new CorruptIndexException(file, offset(p), e.getMessage());
                        }
                    }
                }
                case "skipped" -> skipped = parseSkipped(p, file);
                default -> p.skipChildren();
            }
        }
        if (name == null || !name.matches("shard-[0-9]+")) {
            throw new CorruptIndexException(file, offset(p), "shard name '" + name + "'");
        }
        return new ShardEntry(name, segments, skipped);
    }

    private static Map<String, Manifest.Skipped> parseSkipped(JsonParser p, Path file) throws IOException {
        expect(p.currentToken(), JsonToken.START_OBJECT, p, file);
        Map<String, Manifest.Skipped> skipped = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String reason = p.currentName();
            expect(p.nextToken(), JsonToken.START_ARRAY, p, file);
            p.nextToken();
            long files = p.getLongValue();
            p.nextToken();
            long bytes = p.getLongValue();
            expect(p.nextToken(), JsonToken.END_ARRAY, p, file);
            try {
                skipped.put(reason, new Manifest.Skipped(files, bytes));
            } catch (IllegalArgumentException e) {
                throw new CorruptIndexException(file, offset(p), e.getMessage());
            }
        }
        return skipped;
    }

    private static GitRefs parseRefs(JsonParser p, Path file) throws IOException {
        expect(p.currentToken(), JsonToken.START_OBJECT, p, file);
        String links = "";
        List<GitRefs.Branch> branches = new ArrayList<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken value = p.nextToken();
            if (field.equals("links")) {
                links = p.getText();
            } else if (field.equals("branches")) {
                expect(value, JsonToken.START_ARRAY, p, file);
                while (p.nextToken() == JsonToken.START_ARRAY) {
                    expect(p.nextToken(), JsonToken.VALUE_STRING, p, file);
                    String name = p.getText();
                    expect(p.nextToken(), JsonToken.VALUE_STRING, p, file);
                    String commit = p.getText();
                    expect(p.nextToken(), JsonToken.END_ARRAY, p, file);
                    branches.add(new GitRefs.Branch(name, commit));
                }
            } else {
                p.skipChildren();
            }
        }
        try {
            return new GitRefs(branches, links);
        } catch (IllegalArgumentException e) {
            throw new CorruptIndexException(file, offset(p), e.getMessage());
        }
    }

    private static void expect(JsonToken got, JsonToken wanted, JsonParser p, Path file) throws CorruptIndexException {
        if (got != wanted) {
            throw new CorruptIndexException(file, offset(p), "expected " + wanted + ", found " + got);
        }
    }

    private static long offset(JsonParser p) {
        return Math.max(0, p.currentLocation().getByteOffset());
    }
}
