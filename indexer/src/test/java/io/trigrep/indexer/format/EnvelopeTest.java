package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Header and footer: the bytes FormatOutput writes, and each check that refuses a damaged file with its path and offset. */
class EnvelopeTest {
    @TempDir
    Path dir;

    /** A contents file holding {@code body}, written by the real writer. */
    private Path contents(byte[] body) throws Exception {
        Path file = dir.resolve("contents-" + body.length + ".tgc");
        try (ContentWriter writer = new ContentWriter(file)) {
            writer.append(ByteBuffer.wrap(body));
            writer.finish();
        }
        return file;
    }

    private static ByteBuffer le(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static CorruptIndexException refusal(Path file, int kind) {
        try {
            Envelope.check(MappedFile.open(file), kind);
        } catch (CorruptIndexException e) {
            return e;
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError(file + " was accepted");
    }

    @Test
    void headerAndFooterAreTheDocumentedBytes() throws Exception {
        Path file = contents(new byte[] {'h', 'i', '!'});
        byte[] bytes = Files.readAllBytes(file);
        assertThat(bytes).hasSize(16 + 3 + 16);
        assertThat(Arrays.copyOf(bytes, 19))
                .containsExactly('T', 'G', 'R', 'P', 'B', 'L', 'O', 'B', 1, 0, 0, 0, 0, 0, 0, 0, 'h', 'i', '!');
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, 19);
        assertThat(le(bytes).getLong(19)).isEqualTo(35);
        assertThat(le(bytes).getInt(27)).isEqualTo((int) crc.getValue());
        assertThat(Arrays.copyOfRange(bytes, 31, 35)).containsExactly('T', 'G', 'R', 'E');
        MappedFile mapped = MappedFile.open(file);
        Envelope.check(mapped, Envelope.KIND_CONTENTS);
        Envelope.verifyChecksum(mapped);
    }

    @Test
    void kindsAreTheirAsciiNamesAndUnprintableBytesShowAsQuestionMarks() {
        assertThat(Envelope.kindName(Envelope.KIND_TRIGRAMS)).isEqualTo("TRIG");
        assertThat(Envelope.kindName(Envelope.KIND_DOCS)).isEqualTo("DOCS");
        assertThat(Envelope.kindName(Envelope.KIND_CONTENTS)).isEqualTo("BLOB");
        assertThat(Envelope.kindName(0x7f7e201f)).isEqualTo("? ~?");
        assertThat(Envelope.kindName(0x80ff0041)).isEqualTo("A???");
    }

    @Test
    void anEmptyBodyIsTheSmallestValidFile() throws Exception {
        Path file = contents(new byte[0]);
        assertThat(Files.size(file)).isEqualTo(32);
        Envelope.check(MappedFile.open(file), Envelope.KIND_CONTENTS);
        Path shorter = dir.resolve("short");
        Files.write(shorter, Arrays.copyOf(Files.readAllBytes(file), 31));
        CorruptIndexException e = refusal(shorter, Envelope.KIND_CONTENTS);
        assertThat(e.file()).isEqualTo(shorter);
        assertThat(e.offset()).isZero();
        assertThat(e.problem()).isEqualTo("file of 31 bytes is too short for a header and footer (truncated?)");
    }

    @Test
    void wrongMagicIsNotAShardFile() throws Exception {
        Path file = contents(new byte[] {1, 2});
        byte[] bytes = Files.readAllBytes(file);
        le(bytes).putInt(0, 0x12345678);
        Files.write(file, bytes);
        CorruptIndexException e = refusal(file, Envelope.KIND_CONTENTS);
        assertThat(e).hasMessage(file + " at offset 0: not a trigrep shard file (magic 0x12345678)");
    }

    @Test
    void wrongKindNamesBothKinds() throws Exception {
        Path file = contents(new byte[] {1, 2});
        CorruptIndexException e = refusal(file, Envelope.KIND_DOCS);
        assertThat(e.offset()).isEqualTo(4);
        assertThat(e.problem()).isEqualTo("file kind BLOB, expected DOCS");
    }

    @Test
    void wrongVersionNamesBoth() throws Exception {
        Path file = contents(new byte[] {1, 2});
        byte[] bytes = Files.readAllBytes(file);
        le(bytes).putInt(8, 2);
        Files.write(file, bytes);
        CorruptIndexException e = refusal(file, Envelope.KIND_CONTENTS);
        assertThat(e.offset()).isEqualTo(8);
        assertThat(e.problem()).isEqualTo("format version 2, this build reads version 1");
    }

    @Test
    void missingEndMagicIsRefusedAtItsOffset() throws Exception {
        Path file = contents(new byte[] {1, 2});
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 1] ^= 1;
        Files.write(file, bytes);
        CorruptIndexException e = refusal(file, Envelope.KIND_CONTENTS);
        assertThat(e.offset()).isEqualTo(bytes.length - 4);
        assertThat(e.problem()).isEqualTo("footer magic missing (truncated or appended to?)");
    }

    @Test
    void aFooterLengthThatIsNotTheFileSizeIsRefused() throws Exception {
        Path file = contents(new byte[] {1, 2});
        byte[] bytes = Files.readAllBytes(file);
        le(bytes).putLong(bytes.length - 16, bytes.length + 1);
        Files.write(file, bytes);
        CorruptIndexException e = refusal(file, Envelope.KIND_CONTENTS);
        assertThat(e.offset()).isEqualTo(bytes.length - 16);
        assertThat(e.problem()).isEqualTo("footer records 35 bytes, file has 34 (truncated?)");
    }

    @Test
    void aFlippedBodyByteFailsTheChecksumWithBothValues() throws Exception {
        Path file = contents(new byte[] {1, 2});
        byte[] bytes = Files.readAllBytes(file);
        int stored = le(bytes).getInt(bytes.length - 8);
        bytes[16] = 3;
        Files.write(file, bytes);
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 16);
        MappedFile mapped = MappedFile.open(file);
        Envelope.check(mapped, Envelope.KIND_CONTENTS);
        assertThatThrownBy(() -> Envelope.verifyChecksum(mapped))
                .isInstanceOfSatisfying(CorruptIndexException.class, e -> {
                    assertThat(e.file()).isEqualTo(file);
                    assertThat(e.offset()).isEqualTo(bytes.length - 8);
                    assertThat(e.problem())
                            .isEqualTo("checksum mismatch: stored 0x" + Integer.toHexString(stored) + ", computed 0x"
                                    + Integer.toHexString((int) crc.getValue()));
                });
    }
}
