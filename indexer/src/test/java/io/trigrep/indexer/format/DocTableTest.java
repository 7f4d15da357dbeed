package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docs.tgd: every field reads back as written, lookups by package and path, and each bad record or directory refused. */
class DocTableTest {
    static final byte[] LONG_PATH = longPath();

    @TempDir
    Path dir;

    Path file;

    private static byte[] longPath() {
        byte[] path = new byte[DocTableWriter.MAX_PATH_BYTES];
        Arrays.fill(path, (byte) 'x');
        path[0] = 'd';
        return path;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Three docs in two packages; the second doc's path fills the first 64 KiB of pool, so the pool grows. */
    @BeforeEach
    void write() throws Exception {
        file = dir.resolve("docs.tgd");
        try (DocTableWriter writer = new DocTableWriter(file)) {
            writer.addDoc(16, 120, utf8("src/main.c"), 1, 2.5f, 7, 42);
            writer.addDoc(136, 0, LONG_PATH, 0, -0.25f, 255, 0);
            writer.addDoc(0x1_0000_0010L, Integer.MAX_VALUE, utf8("docs/été.md"), 1, 0f, 0, Integer.MAX_VALUE);
            writer.addPackage("alpha", 1.5f, 1);
            writer.addPackage("bêta", 0.75f, 2);
            writer.finish();
        }
    }

    private void patch(Consumer<ByteBuffer> change) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        change.accept(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN));
        Files.write(file, bytes);
    }

    private long directory() throws Exception {
        return Files.size(file) - 16 - 40;
    }

    private CorruptIndexException refusedAtOpen() {
        try {
            DocTable.open(file);
        } catch (CorruptIndexException e) {
            assertThat(e.file()).isEqualTo(file);
            return e;
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("opened");
    }

    @Test
    void everyFieldReadsBack() throws Exception {
        DocTable docs = DocTable.open(file);
        docs.verifyChecksum();
        assertThat(docs.path()).isEqualTo(file);
        assertThat(docs.docCount()).isEqualTo(3);
        assertThat(docs.packageCount()).isEqualTo(2);

        assertThat(docs.contentOffset(0)).isEqualTo(16);
        assertThat(docs.contentLength(0)).isEqualTo(120);
        assertThat(docs.path(0)).isEqualTo("src/main.c");
        assertThat(docs.packageId(0)).isEqualTo(1);
        assertThat(docs.rank(0)).isEqualTo(2.5f);
        assertThat(docs.fileType(0)).isEqualTo(7);
        assertThat(docs.lines(0)).isEqualTo(42);

        assertThat(docs.contentOffset(1)).isEqualTo(136);
        assertThat(docs.contentLength(1)).isZero();
        assertThat(docs.pathBytes(1).remaining()).isEqualTo(0xffff);
        assertThat(docs.path(1)).isEqualTo(new String(LONG_PATH, StandardCharsets.US_ASCII));
        assertThat(docs.packageId(1)).isZero();
        assertThat(docs.rank(1)).isEqualTo(-0.25f);
        assertThat(docs.fileType(1)).isEqualTo(255);
        assertThat(docs.lines(1)).isZero();

        assertThat(docs.contentOffset(2)).isEqualTo(0x1_0000_0010L);
        assertThat(docs.contentLength(2)).isEqualTo(Integer.MAX_VALUE);
        assertThat(docs.path(2)).isEqualTo("docs/été.md");
        assertThat(docs.fileType(2)).isZero();
        assertThat(docs.lines(2)).isEqualTo(Integer.MAX_VALUE);

        assertThat(docs.packageName(0)).isEqualTo("alpha");
        assertThat(docs.packageWeight(0)).isEqualTo(1.5f);
        assertThat(docs.packageDocCount(0)).isEqualTo(1);
        assertThat(docs.packageName(1)).isEqualTo("bêta");
        assertThat(docs.packageWeight(1)).isEqualTo(0.75f);
        assertThat(docs.packageDocCount(1)).isEqualTo(2);
    }

    @Test
    void theRecordsHaveTheDocumentedLayout() throws Exception {
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        int pool = 16 + 3 * 32 + 2 * 16;
        int d = (int) directory();
        assertThat(bytes.getInt(d)).isEqualTo(3);
        assertThat(bytes.getInt(d + 4)).isEqualTo(2);
        assertThat(bytes.getLong(d + 8)).isEqualTo(16);
        assertThat(bytes.getLong(d + 16)).isEqualTo(16 + 3 * 32);
        assertThat(bytes.getLong(d + 24)).isEqualTo(pool);
        int poolLength = 10 + 0xffff + utf8("docs/été.md").length + 5 + utf8("bêta").length;
        assertThat(bytes.getLong(d + 32)).isEqualTo(poolLength);
        assertThat(d).isEqualTo(pool + poolLength);
        // doc 1: path right after doc 0's in the pool, length 0xffff, file type 255, flags 0
        assertThat(bytes.getInt(16 + 32 + 12)).isEqualTo(10);
        assertThat(bytes.getShort(16 + 32 + 24)).isEqualTo((short) 0xffff);
        assertThat(bytes.get(16 + 32 + 26)).isEqualTo((byte) 255);
        assertThat(bytes.get(16 + 32 + 27)).isZero();
        // package 1: its name after package 0's
        int package1 = 16 + 3 * 32 + 16;
        assertThat(bytes.getInt(package1)).isEqualTo(10 + 0xffff + utf8("docs/été.md").length + 5);
        assertThat(bytes.getInt(package1 + 4)).isEqualTo(utf8("bêta").length);
    }

    @Test
    void findMatchesPackageAndPathExactly() throws Exception {
        DocTable docs = DocTable.open(file);
        assertThat(docs.find("bêta", "src/main.c")).isZero();
        assertThat(docs.find("bêta", "docs/été.md")).isEqualTo(2);
        assertThat(docs.find("alpha", new String(LONG_PATH, StandardCharsets.US_ASCII)))
                .isEqualTo(1);
        assertThat(docs.find("alpha", "src/main.c")).isEqualTo(-1);
        assertThat(docs.find("bêta", "src/main")).isEqualTo(-1);
        assertThat(docs.find("gamma", "src/main.c")).isEqualTo(-1);
    }

    @Test
    void docsAndPackagesOutsideTheTableAreOutOfBounds() throws Exception {
        DocTable docs = DocTable.open(file);
        assertThatThrownBy(() -> docs.lines(3))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("doc must be in [0, 3), got 3");
        assertThatThrownBy(() -> docs.contentOffset(-1))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("doc must be in [0, 3), got -1");
        assertThatThrownBy(() -> docs.packageName(2))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("package must be in [0, 2), got 2");
        assertThatThrownBy(() -> docs.packageWeight(-1))
                .isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessage("package must be in [0, 2), got -1");
    }

    @Test
    void aPackageIdOutsideThePackagesIsCorruption() throws Exception {
        patch(b -> b.putInt(16 + 32 + 16, 2));
        DocTable docs = DocTable.open(file);
        assertThatThrownBy(() -> docs.packageId(1)).isInstanceOfSatisfying(CorruptIndexException.class, e -> {
            assertThat(e.file()).isEqualTo(file);
            assertThat(e.offset()).isEqualTo(16 + 32 + 16);
            assertThat(e.problem()).isEqualTo("package id 2 outside [0, 2)");
        });
        patch(b -> b.putInt(16 + 32 + 16, -1));
        assertThatThrownBy(() -> DocTable.open(file).packageId(1))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageEndingWith("package id -1 outside [0, 2)");
    }

    @Test
    void stringsOutsideThePoolAreCorruption() throws Exception {
        long poolLength = directory() - (16 + 3 * 32 + 2 * 16);
        int record = 16 + 2 * 32;
        int pathLength = utf8("docs/été.md").length;
        // doc 2's path moved to end exactly at the pool's end: read, not refused
        patch(b -> b.putInt(record + 12, (int) poolLength - pathLength));
        assertThat(DocTable.open(file).pathBytes(2).remaining()).isEqualTo(pathLength);
        patch(b -> b.putInt(record + 12, (int) poolLength - pathLength + 1));
        assertThatThrownBy(() -> DocTable.open(file).path(2)).isInstanceOfSatisfying(CorruptIndexException.class, e -> {
            assertThat(e.offset()).isEqualTo(record + 12);
            assertThat(e.problem())
                    .isEqualTo("string [" + (poolLength - pathLength + 1) + ", +" + pathLength
                            + ") outside the pool of " + poolLength + " bytes");
        });
        patch(b -> b.putInt(record + 12, -1));
        assertThatThrownBy(() -> DocTable.open(file).path(2))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("string [-1, +");
        int package0 = 16 + 3 * 32;
        patch(b -> b.putInt(package0 + 4, -1));
        assertThatThrownBy(() -> DocTable.open(file).packageName(0))
                .isInstanceOfSatisfying(CorruptIndexException.class, e -> {
                    assertThat(e.offset()).isEqualTo(package0);
                    assertThat(e.problem()).startsWith("string [");
                });
    }

    @Test
    void directorySectionsThatDoNotAddUpAreRefused() throws Exception {
        int d = (int) directory();
        long packagesStart = 16 + 3 * 32;
        long poolStart = packagesStart + 2 * 16;
        long poolLength = d - poolStart;
        String problem = "directory sections do not add up (3 docs, 2 packages, pool at " + poolStart + " of "
                + poolLength + " bytes)";

        patch(b -> b.putLong(d + 8, 17));
        CorruptIndexException e = refusedAtOpen();
        assertThat(e.offset()).isEqualTo(d);
        assertThat(e.problem()).isEqualTo(problem);
        patch(b -> b.putLong(d + 8, 16).putInt(d, 2));
        assertThat(refusedAtOpen().problem()).startsWith("directory sections do not add up (2 docs");
        patch(b -> b.putInt(d, 3).putInt(d + 4, 3));
        assertThat(refusedAtOpen().problem()).startsWith("directory sections do not add up (3 docs, 3 packages");
        patch(b -> b.putInt(d + 4, 2).putLong(d + 32, poolLength - 1));
        assertThat(refusedAtOpen().problem()).endsWith("of " + (poolLength - 1) + " bytes)");
        // docs and packages shifted together so the sections still meet: only the counts are wrong
        patch(b -> b.putLong(d + 32, poolLength)
                .putInt(d, -1)
                .putLong(d + 16, 16 - 32)
                .putLong(d + 24, 16 - 32 + 5 * 16)
                .putInt(d + 4, 5)
                .putLong(d + 32, d - (16 - 32 + 5 * 16)));
        assertThat(refusedAtOpen().problem()).startsWith("directory sections do not add up (-1 docs, 5 packages");
        patch(b -> b.putInt(d, 3)
                .putLong(d + 16, packagesStart)
                .putInt(d + 4, -1)
                .putLong(d + 24, packagesStart - 16)
                .putLong(d + 32, d - packagesStart + 16));
        assertThat(refusedAtOpen().problem()).startsWith("directory sections do not add up (3 docs, -1 packages");
        // so many packages that the pool starts past the directory and its length is negative
        long packages = Math.floorDiv(d - packagesStart, 16) + 1;
        long lateStart = packagesStart + 16 * packages;
        patch(b -> b.putInt(d + 4, (int) packages).putLong(d + 24, lateStart).putLong(d + 32, d - lateStart));
        assertThat(refusedAtOpen().problem()).endsWith("pool at " + lateStart + " of " + (d - lateStart) + " bytes)");
    }

    @Test
    void anEmptyTableOpensAndTooSmallAFileIsRefused() throws Exception {
        Path empty = dir.resolve("empty.tgd");
        try (DocTableWriter writer = new DocTableWriter(empty)) {
            writer.finish();
        }
        assertThat(Files.size(empty)).isEqualTo(16 + 40 + 16);
        DocTable docs = DocTable.open(empty);
        assertThat(docs.docCount()).isZero();
        assertThat(docs.packageCount()).isZero();
        assertThat(docs.find("any", "path")).isEqualTo(-1);

        file = dir.resolve("small.tgd");
        FormatOutput out = new FormatOutput(file, Envelope.KIND_DOCS);
        out.write(new byte[39], 0, 39);
        out.finish();
        CorruptIndexException e = refusedAtOpen();
        assertThat(e.offset()).isEqualTo(15);
        assertThat(e.problem()).isEqualTo("no room for the directory");
    }

    @Test
    void theWriterRefusesOverlongPathsAndDocsAfterPackages() throws Exception {
        try (DocTableWriter writer = new DocTableWriter(dir.resolve("bad.tgd"))) {
            assertThatThrownBy(() -> writer.addDoc(16, 1, new byte[0x10000], 0, 0, 0, 0))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("path must be at most 65535 bytes, got 65536");
            writer.addPackage("p", 1, 0);
            assertThatThrownBy(() -> writer.addDoc(16, 1, new byte[1], 0, 0, 0, 0))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("docs must all be added before the first package");
        }
    }

    @Test
    void manyPackagesGrowTheirArrays() throws Exception {
        Path many = dir.resolve("many.tgd");
        try (DocTableWriter writer = new DocTableWriter(many)) {
            writer.addDoc(16, 0, utf8("f"), 39, 0, 0, 0);
            for (int p = 0; p < 40; p++) {
                writer.addPackage("pkg-" + p, p / 4f, p);
            }
            writer.finish();
        }
        DocTable docs = DocTable.open(many);
        assertThat(docs.packageCount()).isEqualTo(40);
        for (int p = 0; p < 40; p++) {
            assertThat(docs.packageName(p)).isEqualTo("pkg-" + p);
            assertThat(docs.packageWeight(p)).isEqualTo(p / 4f);
            assertThat(docs.packageDocCount(p)).isEqualTo(p);
        }
        assertThat(docs.find("pkg-39", "f")).isZero();
        assertThat(docs.find("pkg-38", "f")).isEqualTo(-1);
    }

    @Test
    void emptyStringsAndANameLongerThanThePoolReadBack() throws Exception {
        Path odd = dir.resolve("odd.tgd");
        String longName = "p".repeat(200_000);
        try (DocTableWriter writer = new DocTableWriter(odd)) {
            writer.addDoc(16, 0, new byte[0], 1, 0, 0, 0);
            writer.addPackage("", 1, 0);
            writer.addPackage(longName, 1, 1);
            writer.finish();
        }
        DocTable docs = DocTable.open(odd);
        assertThat(docs.path(0)).isEmpty();
        assertThat(docs.packageName(0)).isEmpty();
        assertThat(docs.packageName(1)).isEqualTo(longName);
        assertThat(docs.find(longName, "")).isZero();
    }
}
