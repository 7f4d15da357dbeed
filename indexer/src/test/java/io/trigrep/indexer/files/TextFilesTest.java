package io.trigrep.indexer.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An operator's small text files: read whole, never past their bound, text only. */
class TextFilesTest {
    @TempDir
    Path dir;

    @Test
    void readsTextWithinTheBound() throws IOException {
        Path file = dir.resolve("list.txt");
        Files.writeString(file, "https://example.org/a.git main\n# é\n");
        assertThat(TextFiles.read(file, 64)).isEqualTo("https://example.org/a.git main\n# é\n");
    }

    @Test
    void aFileThatNeverEndsIsRefusedAtItsBound() {
        assertThatThrownBy(() -> TextFiles.read(Path.of("/dev/zero"), 1 << 16))
                .isInstanceOf(IOException.class)
                .hasMessage("/dev/zero: over 65536 bytes, too large for what it holds");
    }

    @Test
    void bytesThatAreNotUtf8AreRefused() throws IOException {
        Path file = dir.resolve("token");
        Files.write(file, new byte[] {'a', (byte) 0xff, 'b'});
        assertThatThrownBy(() -> TextFiles.read(file, 64))
                .isInstanceOf(IOException.class)
                .hasMessage(file + ": not UTF-8 text");
    }
}
