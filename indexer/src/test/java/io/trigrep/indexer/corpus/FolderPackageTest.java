package io.trigrep.indexer.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.trigrep.indexer.filter.SkipReason;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A sub-folder that cannot be listed is skipped and counted, as an unreadable file is; the rest of the package is read. */
class FolderPackageTest {
    @Test
    void anUnreadableSubFolderIsSkippedNotThePackage(@TempDir Path dir) throws Exception {
        Path pkg = dir.resolve("unr_1.0");
        Files.createDirectories(pkg.resolve("closed"));
        Files.writeString(pkg.resolve("ok.txt"), "ok\n");
        Files.writeString(pkg.resolve("closed/secret.txt"), "x\n");
        Files.setPosixFilePermissions(pkg.resolve("closed"), PosixFilePermissions.fromString("---------"));
        try {
            // As root every folder can be listed: nothing to show then.
            assumeThat(Files.isReadable(pkg.resolve("closed"))).isFalse();
            List<String> read = new ArrayList<>();
            List<String> skipped = new ArrayList<>();
            new FolderPackage("unr_1.0", pkg).read(new FileVisitor() {
                @Override
                public long maxFileBytes() {
                    return 1 << 20;
                }

                @Override
                public void file(String path, ByteBuffer content) {
                    read.add(path);
                }

                @Override
                public void skipped(String path, SkipReason reason, long bytes) {
                    skipped.add(path + " " + reason);
                }
            });
            assertThat(read).containsExactly("ok.txt");
            assertThat(skipped).containsExactly("closed/ " + SkipReason.UNREADABLE);
        } finally {
            Files.setPosixFilePermissions(pkg.resolve("closed"), PosixFilePermissions.fromString("rwx------"));
        }
    }
}
