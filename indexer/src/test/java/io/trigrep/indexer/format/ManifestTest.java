package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** manifest.json: the exact text written, what reads back, and each way a manifest is refused. */
class ManifestTest {
    @TempDir
    Path dir;

    private static long crc(String text) {
        CRC32C crc = new CRC32C();
        crc.update(text.getBytes(StandardCharsets.UTF_8));
        return crc.getValue();
    }

    private static Map<String, Manifest.Skipped> twoReasons() {
        Map<String, Manifest.Skipped> skipped = new LinkedHashMap<>();
        skipped.put("binary", new Manifest.Skipped(3, 700));
        skipped.put("too_large", new Manifest.Skipped(2, 9_000_000_000L));
        return skipped;
    }

    private Path write(String json) throws Exception {
        Path file = dir.resolve("manifest.json");
        Files.writeString(file, json);
        return file;
    }

    @Test
    void jsonIsTheDocumentedTextWithItsChecksumLast() {
        Manifest m = new Manifest("shard-\"7\"\\x", 4, 2, 99, 1234, 5678, 91011, 1700000000000L, 250, twoReasons());
        String body = "{\n"
                + "  \"formatVersion\": 1,\n"
                + "  \"shard\": \"shard-\\\"7\\\"\\\\x\",\n"
                + "  \"docs\": 4,\n"
                + "  \"packages\": 2,\n"
                + "  \"trigrams\": 99,\n"
                + "  \"contentBytes\": 1234,\n"
                + "  \"indexBytes\": 5678,\n"
                + "  \"docTableBytes\": 91011,\n"
                + "  \"skipped\": {\n"
                + "    \"binary\": {\"files\": 3, \"bytes\": 700},\n"
                + "    \"too_large\": {\"files\": 2, \"bytes\": 9000000000}\n"
                + "  },\n"
                + "  \"builtAtMillis\": 1700000000000,\n"
                + "  \"buildMillis\": 250,\n";
        assertThat(m.toJson()).isEqualTo(body + "  \"crc32c\": " + crc(body) + "\n}\n");
    }

    @Test
    void withNothingSkippedTheSkippedObjectIsEmpty() {
        String json = new Manifest("s", 0, 0, 0, 0, 0, 0, 0, 0).toJson();
        assertThat(json).contains("  \"skipped\": {},\n  \"builtAtMillis\": 0,\n");
    }

    @Test
    void whatIsWrittenReadsBackEqual() throws Exception {
        Manifest m = new Manifest("shard-\"7\"\\x", 4, 2, 99, 1234, 5678, 91011, 1700000000000L, 250, twoReasons());
        Manifest read = Manifest.read(write(m.toJson()));
        assertThat(read).isEqualTo(m);
        assertThat(read.shard()).isEqualTo("shard-\"7\"\\x");
        assertThat(read.skipped().keySet()).containsExactly("binary", "too_large");
        assertThat(read.skippedFiles()).isEqualTo(5);
    }

    @Test
    void skippedMapIsACopyThatCannotChange() {
        Map<String, Manifest.Skipped> skipped = twoReasons();
        Manifest m = new Manifest("s", 0, 0, 0, 0, 0, 0, 0, 0, skipped);
        skipped.clear();
        assertThat(m.skipped()).hasSize(2);
        assertThatThrownBy(() -> m.skipped().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(new Manifest("s", 0, 0, 0, 0, 0, 0, 0, 0).skippedFiles()).isZero();
    }

    @Test
    void negativeSkippedCountsAreRefused() {
        assertThatThrownBy(() -> new Manifest.Skipped(-1, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("skipped files and bytes must be >= 0, got -1 files, 0 bytes");
        assertThatThrownBy(() -> new Manifest.Skipped(0, -5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("skipped files and bytes must be >= 0, got 0 files, -5 bytes");
        assertThat(new Manifest.Skipped(0, 0).files()).isZero();
    }

    @Test
    void aChangedByteFailsTheChecksumNamingTheFileAndTheLine() throws Exception {
        String json = new Manifest("shard-0", 4, 2, 99, 1, 2, 3, 4, 5).toJson();
        Path file = write(json.replace("\"docs\": 4", "\"docs\": 5"));
        int checksumLine = json.indexOf("  \"crc32c\": ");
        assertThatThrownBy(() -> Manifest.read(file)).isInstanceOfSatisfying(CorruptIndexException.class, e -> {
            assertThat(e.file()).isEqualTo(file);
            assertThat(e.offset()).isEqualTo(checksumLine);
            assertThat(e.problem()).isEqualTo("manifest's crc32c does not match its contents (corrupt manifest)");
        });
    }

    @Test
    void aChecksumLineCutBeforeItsEndIsRefused() throws Exception {
        String json = new Manifest("shard-0", 4, 2, 99, 1, 2, 3, 4, 5).toJson();
        Path file = write(json.substring(0, json.lastIndexOf('\n', json.length() - 2)));
        assertThatThrownBy(() -> Manifest.read(file))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("crc32c does not match");
    }

    @Test
    void aManifestWithoutChecksumIsReadUnchecked() throws Exception {
        Path file = write(
                "{\"formatVersion\": 1, \"shard\": \"old\", \"docs\": 3, \"packages\": 1, \"trigrams\": 7, "
                        + "\"contentBytes\": 10, \"indexBytes\": 20, \"docTableBytes\": 30, \"builtAtMillis\": -2, \"buildMillis\": 6}");
        assertThat(Manifest.read(file)).isEqualTo(new Manifest("old", 3, 1, 7, 10, 20, 30, -2, 6));
    }

    @Test
    void anotherFormatVersionIsRefused() throws Exception {
        Path file = write(new Manifest("s", 0, 0, 0, 0, 0, 0, 0, 0)
                .toJson()
                .replace("\"formatVersion\": 1", "\"formatVersion\": 2")
                .replaceAll("  \"crc32c\": \\d+\n", ""));
        assertThatThrownBy(() -> Manifest.read(file)).isInstanceOfSatisfying(CorruptIndexException.class, e -> {
            assertThat(e.file()).isEqualTo(file);
            assertThat(e.offset()).isZero();
            assertThat(e.problem()).isEqualTo("manifest of format version 2, this build reads 1");
        });
        Path none = write("{\"shard\": \"s\"}");
        assertThatThrownBy(() -> Manifest.read(none))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageEndingWith("manifest of format version -1, this build reads 1");
    }

    @Test
    void aMissingOrMalformedFieldIsRefused() throws Exception {
        String json = new Manifest("s", 1, 1, 1, 1, 1, 1, 1, 1).toJson().replaceAll("  \"crc32c\": \\d+\n", "");
        Path missing = write(json.replace("  \"trigrams\": 1,\n", ""));
        assertThatThrownBy(() -> Manifest.read(missing))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessage(missing + " at offset 0: manifest is missing a field or has a malformed one");
        Path overflow = write(json.replace("\"docs\": 1", "\"docs\": 99999999999"));
        assertThatThrownBy(() -> Manifest.read(overflow))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageEndingWith("manifest is missing a field or has a malformed one");
    }

    @Test
    void anOverflowingSkippedCountIsRefusedByReason() throws Exception {
        Map<String, Manifest.Skipped> skipped = Map.of("binary", new Manifest.Skipped(1, 2));
        String json =
                new Manifest("s", 1, 1, 1, 1, 1, 1, 1, 1, skipped).toJson().replaceAll("  \"crc32c\": \\d+\n", "");
        Path file = write(json.replace("\"bytes\": 2", "\"bytes\": 99999999999999999999"));
        assertThatThrownBy(() -> Manifest.read(file))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessage(file + " at offset 0: manifest's skipped.binary is malformed");
    }
}
