package io.trigrep.indexer.segments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.Manifest;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generation and deletes files: round trips, and every damage refused with the file named. */
class GenerationFilesTest {
    private static Generation sample(long number) {
        return new Generation(
                number,
                13,
                true,
                List.of(
                        new Generation.ShardEntry(
                                "shard-0",
                                List.of(
                                        new Generation.SegmentEntry(0, 100, 3, 4000, "seg-0.del-" + number + ".tgx"),
                                        new Generation.SegmentEntry(12, 7, 0, 99, null)),
                                Map.of("binary", new Manifest.Skipped(2, 30))),
                        new Generation.ShardEntry("shard-1", List.of(), Map.of())),
                List.of(
                        new Generation.PackageEntry(
                                "zlib_1.2.13.dfsg-1", 0, Map.of("binary", new Manifest.Skipped(2, 30))),
                        new Generation.PackageEntry("my \"odd\" pkg", -1, Map.of())));
    }

    @Test
    void aGenerationReadsBackAsWritten(@TempDir Path dir) throws Exception {
        Generation g = sample(7);
        IndexFolder.commit(dir, g);
        assertThat(IndexFolder.latest(dir)).contains(g);
        assertThat(Files.list(dir).map(p -> p.getFileName().toString())).containsExactly("gen-7.json");
    }

    @Test
    void theHighestGenerationIsTheIndexAndAnUnreadableOneIsNeverSkipped(@TempDir Path dir) throws Exception {
        IndexFolder.commit(dir, sample(3));
        IndexFolder.commit(dir, sample(4));
        assertThat(IndexFolder.latest(dir).orElseThrow().number()).isEqualTo(4);
        assertThatThrownBy(() -> IndexFolder.commit(dir, sample(4))).hasMessageContaining("gen-4.json exists");
        Path file = dir.resolve("gen-4.json");
        byte[] bytes = Files.readAllBytes(file);
        String text = new String(bytes, StandardCharsets.UTF_8);
        // One digit of a count changed: the checksum catches it.
        Files.writeString(file, text.replace("\"docs\" : 100", "\"docs\" : 900"));
        assertThatThrownBy(() -> IndexFolder.latest(dir))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("gen-4.json")
                .hasMessageContaining("crc32c");
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        assertThatThrownBy(() -> IndexFolder.latest(dir))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("gen-4.json");
        Files.writeString(file, text.replace("\"generation\" : 4", "\"generation\" : 5"));
        assertThatThrownBy(() -> IndexFolder.latest(dir)).isInstanceOf(CorruptIndexException.class);
    }

    @Test
    void anotherLayoutVersionIsRefused(@TempDir Path dir) throws Exception {
        String json = new String(sample(2).toJson(), StandardCharsets.UTF_8);
        String body = json.substring(0, json.lastIndexOf(",\n  \"crc32c\""))
                .replace("\"formatVersion\" : 2", "\"formatVersion\" : 3");
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(body.getBytes(StandardCharsets.UTF_8));
        Files.writeString(dir.resolve("gen-2.json"), body + ",\n  \"crc32c\" : " + crc.getValue() + "\n}\n");
        assertThatThrownBy(() -> IndexFolder.latest(dir)).hasMessageContaining("format version 3");
    }

    @Test
    void deletesReadBackAndRefuseDamage(@TempDir Path dir) throws Exception {
        Deletes d = Deletes.none(130).with(new int[] {0, 64, 129});
        Path file = dir.resolve("seg-1.del-2.tgx");
        d.write(file);
        Deletes read = Deletes.read(file, 130);
        assertThat(read).isEqualTo(d);
        assertThat(read.count()).isEqualTo(3);
        assertThat(read.isDeleted(64)).isTrue();
        assertThat(read.isDeleted(65)).isFalse();
        assertThatThrownBy(() -> Deletes.read(file, 131))
                .hasMessageContaining("seg-1.del-2.tgx")
                .hasMessageContaining("131");
        byte[] bytes = Files.readAllBytes(file);
        bytes[30] ^= 1;
        Files.write(file, bytes);
        assertThatThrownBy(() -> Deletes.read(file, 130))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("checksum");
        assertThatThrownBy(() -> d.with(new int[] {130})).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unreferencedFilesGoAndReferencedOnesStay(@TempDir Path dir) throws Exception {
        Path shard = dir.resolve("shard-0");
        Files.createDirectories(shard.resolve("seg-12"));
        Files.createDirectories(shard.resolve("seg-11"));
        Files.writeString(shard.resolve("manifest.json"), "{}");
        Files.writeString(shard.resolve("seg-0.del-7.tgx"), "");
        Files.writeString(shard.resolve("seg-0.del-6.tgx"), "");
        Files.createDirectories(dir.resolve(".build-123"));
        Files.writeString(dir.resolve(".gen-8.json.tmp"), "");
        IndexFolder.commit(dir, sample(6));
        IndexFolder.commit(dir, sample(7));
        List<Path> removed = IndexFolder.removeUnreferenced(dir, sample(7));
        assertThat(removed)
                .extracting(p -> dir.relativize(p).toString())
                .containsExactlyInAnyOrder(
                        "gen-6.json", ".build-123", ".gen-8.json.tmp", "shard-0/seg-11", "shard-0/seg-0.del-6.tgx");
        assertThat(shard.resolve("manifest.json")).exists();
        assertThat(shard.resolve("seg-12")).exists();
    }

    @Test
    void oneUpdateAtATime(@TempDir Path dir) throws IOException {
        try (Closeable lock = IndexFolder.lock(dir)) {
            assertThat(lock).isNotNull();
            // Within one JVM the second tryLock is refused by the JDK; across processes, by the kernel.
            assertThatThrownBy(() -> IndexFolder.lock(dir)).hasMessageContaining("another update or merge holds");
        }
        IndexFolder.lock(dir).close();
    }
}
