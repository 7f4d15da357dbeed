package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** contents.tgc: each way of appending lands where it says, and reads outside the content section are refused. */
class ContentStoreTest {
    @TempDir
    Path dir;

    private static String text(ByteBuffer bytes) {
        byte[] out = new byte[bytes.remaining()];
        bytes.duplicate().get(out);
        return new String(out, StandardCharsets.US_ASCII);
    }

    private Path spool(String text) throws Exception {
        Path file = dir.resolve("spool-" + text.length());
        Files.writeString(file, text);
        return file;
    }

    @Test
    void appendsLandAtTheOffsetsTheyReturn() throws Exception {
        Path file = dir.resolve("contents.tgc");
        long first;
        long second;
        long third;
        long fourth;
        try (ContentWriter writer = new ContentWriter(file);
                FileChannel whole = FileChannel.open(spool("package-spool"), StandardOpenOption.READ);
                FileChannel range = FileChannel.open(spool("0123456789"), StandardOpenOption.READ)) {
            assertThat(writer.position()).isEqualTo(16);
            first = writer.append(ByteBuffer.wrap("alpha".getBytes(StandardCharsets.US_ASCII)));
            assertThat(writer.position()).isEqualTo(21);
            second = writer.appendRange(whole, 0, whole.size());
            third = writer.appendRange(range, 3, 4);
            fourth = writer.append(ByteBuffer.wrap("omega".getBytes(StandardCharsets.US_ASCII)));
            assertThat(writer.position()).isEqualTo(16 + 5 + 13 + 4 + 5);
            writer.finish();
        }
        assertThat(new long[] {first, second, third, fourth}).containsExactly(16, 21, 34, 38);
        ContentStore store = ContentStore.open(file);
        store.verifyChecksum();
        assertThat(store.size()).isEqualTo(16 + 27 + 16);
        assertThat(text(store.content(first, 5))).isEqualTo("alpha");
        assertThat(text(store.content(second, 13))).isEqualTo("package-spool");
        assertThat(text(store.content(third, 4))).isEqualTo("3456");
        assertThat(text(store.content(fourth, 5))).isEqualTo("omega");
    }

    @Test
    void spansOutsideTheContentSectionAreRefused() throws Exception {
        Path file = dir.resolve("contents.tgc");
        try (ContentWriter writer = new ContentWriter(file)) {
            writer.append(ByteBuffer.wrap(new byte[] {'a', 'b', 'c', 'd'}));
            writer.finish();
        }
        ContentStore store = ContentStore.open(file);
        assertThat(text(store.content(16, 4))).isEqualTo("abcd");
        assertThat(text(store.content(20, 0))).isEmpty();
        assertThatThrownBy(() -> store.content(15, 1))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessage(file + " at offset 15: content span of 1 bytes outside the content section");
        assertThatThrownBy(() -> store.content(17, 4)).isInstanceOfSatisfying(CorruptIndexException.class, e -> {
            assertThat(e.file()).isEqualTo(file);
            assertThat(e.offset()).isEqualTo(17);
        });
    }

    @Test
    void aFileOfAnotherKindIsRefused() throws Exception {
        Path file = dir.resolve("docs.tgd");
        try (DocTableWriter writer = new DocTableWriter(file)) {
            writer.finish();
        }
        assertThatThrownBy(() -> ContentStore.open(file))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessage(file + " at offset 4: file kind DOCS, expected BLOB");
    }
}
