package io.trigrep.indexer.corpus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A real Debian source package, built with dpkg-source -b, read with and without dpkg-source -x. */
@Tag("external") // drives dpkg-source
@Tag("integration")
class DscPackageTest {
    @TempDir
    Path dir;

    Path dsc;

    @BeforeEach
    void buildSourcePackage() throws Exception {
        Path src = dir.resolve("hello-1.0");
        Files.createDirectories(src.resolve("debian/source"));
        Files.createDirectories(src.resolve("src"));
        Files.writeString(
                src.resolve("debian/control"),
                "Source: hello\nMaintainer: T <t@example.org>\n\n"
                        + "Package: hello\nArchitecture: any\nDescription: test\n test\n");
        Files.writeString(
                src.resolve("debian/changelog"),
                "hello (1:1.0-1) unstable; urgency=low\n\n  * Test.\n\n"
                        + " -- T <t@example.org>  Mon, 01 Jan 2024 00:00:00 +0000\n");
        Files.writeString(src.resolve("debian/source/format"), "3.0 (quilt)\n");
        Files.writeString(src.resolve("src/hello.c"), "int main(void) { return 0; }\n");
        run(dir, "tar", "czf", "hello_1.0.orig.tar.gz", "--exclude=debian", "hello-1.0");
        run(dir, "dpkg-source", "-b", "hello-1.0");
        dsc = dir.resolve("hello_1.0-1.dsc");
        assertThat(dsc).exists();
    }

    private static void run(Path cwd, String... command) throws Exception {
        Process p = new ProcessBuilder(command)
                .directory(cwd.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command)).isZero();
    }

    @Test
    void unpackedWithDpkgSource() throws Exception {
        DscPackage pkg = DscPackage.parse(dsc, dir);
        assertThat(pkg.name()).isEqualTo("hello_1.0-1");
        ArchivePackageTest.Recorder r = new ArchivePackageTest.Recorder();
        pkg.read(r, true);
        assertThat(r.files).containsKeys("src/hello.c", "debian/control", "debian/changelog");
        assertThat(r.files.get("src/hello.c")).isEqualTo("int main(void) { return 0; }\n");
        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("dsc-"));
        }
    }

    @Test
    void readFromTarballsWithoutDpkgSource() throws Exception {
        DscPackage pkg = DscPackage.parse(dsc, dir);
        ArchivePackageTest.Recorder r = new ArchivePackageTest.Recorder();
        pkg.read(r, false);
        assertThat(r.files).containsKeys("src/hello.c", "debian/control", "debian/changelog");
    }

    @Test
    void mirrorIndexesTheDscOnceAndNotItsTarballs() {
        List<PackageSource> found = Corpus.discover(List.of(dir), dir, e -> {
            throw new AssertionError(e);
        });
        assertThat(found).extracting(PackageSource::name).containsExactly("hello-1.0", "hello_1.0-1");
    }
}
