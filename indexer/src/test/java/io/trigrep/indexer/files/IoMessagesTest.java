package io.trigrep.indexer.files;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import org.junit.jupiter.api.Test;

/** A file system failure says its path and what went wrong, not its path alone. */
class IoMessagesTest {
    @Test
    void aPathAloneGetsItsReason() {
        assertThat(IoMessages.describe(new NoSuchFileException("/srv/x"))).isEqualTo("/srv/x: no such file or folder");
        assertThat(IoMessages.describe(new AccessDeniedException("/srv/d"))).isEqualTo("/srv/d: permission denied");
        assertThat(IoMessages.describe(new NotDirectoryException("/srv/f"))).isEqualTo("/srv/f: not a folder");
        assertThat(IoMessages.describe(new NoSuchFileException("/a", "/b", null)))
                .isEqualTo("/a -> /b: no such file or folder");
    }

    @Test
    void aMessageWithItsReasonIsKept() {
        assertThat(IoMessages.describe(new FileSystemException("/srv/x", null, "Read-only file system")))
                .isEqualTo("/srv/x: Read-only file system");
        assertThat(IoMessages.describe(new IOException("disk full"))).isEqualTo("disk full");
        assertThat(IoMessages.describe(new IllegalStateException())).isEqualTo("java.lang.IllegalStateException");
    }
}
