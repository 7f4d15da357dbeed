package io.trigrep.indexer.corpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trigrep.indexer.filter.SkipReason;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.zip.ZipArchiveEntry;
import org.apache.commons.compress.archivers.zip.ZipArchiveOutputStream;
import org.apache.commons.compress.compressors.bzip2.BZip2CompressorOutputStream;
import org.apache.commons.compress.compressors.gzip.GzipCompressorOutputStream;
import org.apache.commons.compress.compressors.xz.XZCompressorOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Real archives written with commons-compress, read back by the corpus readers. */
class ArchivePackageTest {
    @TempDir
    Path dir;

    static final class Recorder implements FileVisitor {
        final Map<String, String> files = new TreeMap<>();
        final List<String> skipped = new ArrayList<>();

        @Override
        public long maxFileBytes() {
            return 1000;
        }

        @Override
        public void file(String path, ByteBuffer content) {
            byte[] bytes = new byte[content.remaining()];
            content.get(bytes);
            files.put(path, new String(bytes, StandardCharsets.UTF_8));
        }

        @Override
        public void skipped(String path, SkipReason reason, long bytes) {
            skipped.add(reason + " " + path);
        }
    }

    private Path tar(String name, OutputStreamFactory compress) throws IOException {
        Path file = dir.resolve(name);
        try (OutputStream raw = Files.newOutputStream(file);
                OutputStream c = compress.wrap(raw);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(c, "UTF-8")) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            entry(tar, "zlib-1.2.13/", null);
            entry(tar, "zlib-1.2.13/README", "zlib readme\n");
            entry(tar, "zlib-1.2.13/src/ünï.c", "int main() { return 0; }\n");
            entry(tar, "zlib-1.2.13/big.bin", "x".repeat(2000));
            TarArchiveEntry link = new TarArchiveEntry("zlib-1.2.13/link", TarArchiveEntry.LF_SYMLINK);
            link.setLinkName("/etc/passwd");
            tar.putArchiveEntry(link);
            tar.closeArchiveEntry();
        }
        return file;
    }

    private static void entry(TarArchiveOutputStream tar, String name, String content) throws IOException {
        TarArchiveEntry e = new TarArchiveEntry(name);
        byte[] bytes = content == null ? new byte[0] : content.getBytes(StandardCharsets.UTF_8);
        e.setSize(bytes.length);
        tar.putArchiveEntry(e);
        tar.write(bytes);
        tar.closeArchiveEntry();
    }

    interface OutputStreamFactory {
        OutputStream wrap(OutputStream out) throws IOException;
    }

    @ParameterizedTest
    @ValueSource(strings = {"zlib_1.2.13.tar.gz", "zlib_1.2.13.tar.xz", "zlib_1.2.13.tar.bz2", "zlib_1.2.13.tar"})
    void tarballsOfEveryCompression(String name) throws Exception {
        OutputStreamFactory compress = name.endsWith(".gz")
                ? GzipCompressorOutputStream::new
                : name.endsWith(".xz")
                        ? XZCompressorOutputStream::new
                        : name.endsWith(".bz2") ? BZip2CompressorOutputStream::new : out -> out;
        ArchivePackage pkg = ArchivePackage.of(tar(name, compress));
        assertThat(pkg.name()).isEqualTo("zlib_1.2.13");
        Recorder r = new Recorder();
        pkg.read(r);
        assertThat(r.files)
                .containsExactly(
                        Map.entry("README", "zlib readme\n"), Map.entry("src/ünï.c", "int main() { return 0; }\n"));
        assertThat(r.skipped).containsExactly("TOO_LARGE big.bin", "SYMLINK link");
    }

    @Test
    void sourcesJarKeepsItsPathsAndRejectsZipSlip() throws Exception {
        Path jar = dir.resolve("re2j-1.8-sources.jar");
        try (ZipArchiveOutputStream zip = new ZipArchiveOutputStream(Files.newOutputStream(jar))) {
            for (String[] e : new String[][] {
                {"com/google/re2j/RE2.java", "class RE2 {}"},
                {"../../evil.sh", "rm -rf /"},
                {"/etc/cron.d/evil", "* * * * * root evil"},
                {"META-INF/MANIFEST.MF", "Manifest-Version: 1.0"}
            }) {
                zip.putArchiveEntry(new ZipArchiveEntry(e[0]));
                zip.write(e[1].getBytes(StandardCharsets.UTF_8));
                zip.closeArchiveEntry();
            }
        }
        ArchivePackage pkg = ArchivePackage.of(jar);
        assertThat(pkg.name()).isEqualTo("re2j-1.8-sources");
        Recorder r = new Recorder();
        pkg.read(r);
        assertThat(r.files).containsOnlyKeys("com/google/re2j/RE2.java", "META-INF/MANIFEST.MF");
        assertThat(r.skipped).containsExactlyInAnyOrder("UNSAFE_PATH ../../evil.sh", "UNSAFE_PATH /etc/cron.d/evil");
    }

    @Test
    void corruptTarballIsReportedWithItsName() throws Exception {
        Path bad = dir.resolve("broken_1.0.tar.gz");
        Files.write(bad, new byte[] {0x1f, (byte) 0x8b, 8, 0, 1, 2, 3, 4, 5, 6, 7});
        assertThatThrownBy(() -> ArchivePackage.of(bad).read(new Recorder()))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("broken_1.0.tar.gz");
    }

    @Test
    void folderPackageSkipsVcsAndSymlinks() throws Exception {
        Path pkg = dir.resolve("hello_2.10");
        Files.createDirectories(pkg.resolve(".git/objects"));
        Files.writeString(pkg.resolve(".git/config"), "[core]");
        Files.createDirectories(pkg.resolve("src"));
        Files.writeString(pkg.resolve("src/hello.c"), "puts(\"hello\");");
        Files.createSymbolicLink(pkg.resolve("escape"), Path.of("/etc"));
        Files.createSymbolicLink(pkg.resolve("src/alias.c"), pkg.resolve("src/hello.c"));
        Recorder r = new Recorder();
        new FolderPackage("hello_2.10", pkg).read(r);
        assertThat(r.files).containsOnlyKeys("src/hello.c");
        assertThat(r.skipped).containsExactlyInAnyOrder("VCS .git/", "SYMLINK escape", "SYMLINK src/alias.c");
    }

    @Test
    void mirrorFolderFindsFoldersArchivesAndDebianSourcePackages() throws Exception {
        Path mirror = dir.resolve("mirror");
        Files.createDirectories(mirror.resolve("alpha_1.0/src"));
        Files.writeString(mirror.resolve("alpha_1.0/src/a.c"), "int a;");
        Files.move(tar("beta_2.0.tar.gz", GzipCompressorOutputStream::new), mirror.resolve("beta_2.0.tar.gz"));
        List<String> errors = new ArrayList<>();
        List<PackageSource> found = Corpus.discover(List.of(mirror, dir.resolve("missing")), dir, errors::add);
        assertThat(found).extracting(PackageSource::name).containsExactly("alpha_1.0", "beta_2.0");
        assertThat(errors).singleElement().asString().contains("missing").contains("no such file");
    }
}
