package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Damaged shard files are refused with a CorruptIndexException naming the file and an offset. */
class CorruptionTest {
    static final Path GOLDEN = Path.of("src/test/resources/golden/shards/shard-0");

    @TempDir
    Path dir;

    Path shard;

    @BeforeEach
    void copyGoldenShard() throws Exception {
        shard = dir.resolve("shard-0");
        Files.createDirectories(shard);
        for (String f : List.of(ShardFiles.TRIGRAMS, ShardFiles.DOCS, ShardFiles.CONTENTS)) {
            Files.copy(GOLDEN.resolve(f), shard.resolve(f), StandardCopyOption.REPLACE_EXISTING);
        }
        DocTable docs = DocTable.open(shard.resolve(ShardFiles.DOCS));
        TrigramIndex index = TrigramIndex.open(shard.resolve(ShardFiles.TRIGRAMS));
        Files.writeString(
                shard.resolve(ShardFiles.MANIFEST),
                new Manifest("shard-0", docs.docCount(), docs.packageCount(), index.trigramCount(), 0, 0, 0, 0, 0)
                        .toJson());
        Shard.open(shard).verify();
    }

    private void flip(String file, long offset) throws Exception {
        byte[] bytes = Files.readAllBytes(shard.resolve(file));
        bytes[(int) offset] ^= 0x5a;
        Files.write(shard.resolve(file), bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {ShardFiles.TRIGRAMS, ShardFiles.DOCS, ShardFiles.CONTENTS})
    void everyFlippedByteIsCaught(String file) throws Exception {
        long size = Files.size(shard.resolve(file));
        Random random = new Random(file.hashCode());
        for (int trial = 0; trial < 40; trial++) {
            long offset = trial < 16 ? trial : random.nextLong(size);
            byte[] original = Files.readAllBytes(shard.resolve(file));
            flip(file, offset);
            assertThatThrownBy(() -> Shard.open(shard).verify())
                    .as("flip at %d", offset)
                    .isInstanceOf(CorruptIndexException.class)
                    .hasMessageContaining(shard.resolve(file).toString())
                    .hasMessageContaining("at offset");
            Files.write(shard.resolve(file), original);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {ShardFiles.TRIGRAMS, ShardFiles.DOCS, ShardFiles.CONTENTS})
    void truncatedFilesAreRefusedAtOpen(String file) throws Exception {
        byte[] bytes = Files.readAllBytes(shard.resolve(file));
        for (int cut : new int[] {0, 5, 16, 31, bytes.length / 2, bytes.length - 1}) {
            Files.write(shard.resolve(file), java.util.Arrays.copyOf(bytes, cut));
            assertThatThrownBy(() -> Shard.open(shard))
                    .as("cut at %d", cut)
                    .isInstanceOf(CorruptIndexException.class)
                    .hasMessageContaining(shard.resolve(file).toString());
        }
    }

    @Test
    void wrongVersionIsNamed() throws Exception {
        byte[] bytes = Files.readAllBytes(shard.resolve(ShardFiles.DOCS));
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(8, 99);
        Files.write(shard.resolve(ShardFiles.DOCS), bytes);
        assertThatThrownBy(() -> Shard.open(shard))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessage(shard.resolve(ShardFiles.DOCS)
                        + " at offset 8: format version 99, this build reads versions 1 to 2");
    }

    @Test
    void swappedFilesAreRefusedByKind() throws Exception {
        Files.copy(
                shard.resolve(ShardFiles.DOCS),
                shard.resolve(ShardFiles.TRIGRAMS),
                StandardCopyOption.REPLACE_EXISTING);
        assertThatThrownBy(() -> Shard.open(shard))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("file kind DOCS, expected TRIG");
    }

    @Test
    void postingListCorruptionIsCaughtWhileDecodingEvenWithoutVerify() throws Exception {
        // Overwrite every posting byte with 0xff: decoding must fail cleanly, not run wild.
        byte[] bytes = Files.readAllBytes(shard.resolve(ShardFiles.TRIGRAMS));
        TrigramIndex clean = TrigramIndex.open(shard.resolve(ShardFiles.TRIGRAMS));
        long tableStart = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getLong(bytes.length - 16 - 48 + 8);
        for (int i = 16; i < tableStart; i++) {
            bytes[i] = (byte) 0xff;
        }
        Files.write(shard.resolve(ShardFiles.TRIGRAMS), bytes);
        TrigramIndex index = TrigramIndex.open(shard.resolve(ShardFiles.TRIGRAMS));
        PostingIterator it = new PostingIterator();
        int failures = 0;
        for (int entry = 0; entry < clean.trigramCount(); entry++) {
            index.postings(entry, it);
            try {
                while (it.next() != PostingIterator.NO_MORE_DOCS) {
                    assertThat(it.docId()).isLessThan(index.docCount());
                }
            } catch (CorruptIndexException expected) {
                assertThat(expected.getMessage())
                        .contains(shard.resolve(ShardFiles.TRIGRAMS).toString())
                        .contains("posting list");
                failures++;
            }
        }
        assertThat(failures).isEqualTo(clean.trigramCount());
    }

    @Test
    void missingManifestMeansIncompleteShard() throws Exception {
        Files.delete(shard.resolve(ShardFiles.MANIFEST));
        assertThatThrownBy(() -> Shard.open(shard))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("is not a complete shard");
    }
}
