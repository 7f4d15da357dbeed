package io.trigrep.indexer.cli;

import io.trigrep.indexer.build.IndexBuilder;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/**
 * {@code --skipped FILE}: every file the indexer left out, one per line,
 * {@code reason<TAB>bytes<TAB>package/path}, in package order, then the order each package was
 * read. The reason is {@code SkipReason.key()}; a tab, newline or backslash in a path is written
 * as {@code \t}, {@code \n}, {@code \\}.
 */
final class SkippedList {
    private SkippedList() {}

    /** The {@code --skipped} list, written to a temporary file beside it and renamed: a reader never sees half of it. */
    static void write(List<IndexBuilder.SkippedFile> skipped, Path file) throws IOException {
        Path absolute = file.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        Path temporary = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".tmp");
        try (Writer w = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
            for (IndexBuilder.SkippedFile s : skipped) {
                w.write(s.reason().key());
                w.write('\t');
                w.write(Long.toString(s.bytes()));
                w.write('\t');
                w.write(escape(s.packageName() + "/" + s.path()));
                w.write('\n');
            }
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
        Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String escape(String path) {
        if (path.indexOf('\\') < 0 && path.indexOf('\t') < 0 && path.indexOf('\n') < 0) {
            return path;
        }
        return path.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n");
    }
}
