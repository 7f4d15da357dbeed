package io.trigrep.indexer.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trigrep.indexer.filter.SkipReason;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.PostingIterator;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.format.TrigramIndex;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13, "search everything": every file without a NUL byte is indexed whatever its size (up
 * to the cap), lines, trigrams or encoding, and its trigrams are found; what is left out is
 * listed with {@code --skipped} and counted in each shard's manifest.
 */
@Tag("integration") // the index command, with ctags when it is installed
class Issue13CoverageTest {
    @TempDir
    static Path dir;

    static Path corpus;
    static final Map<String, byte[]> INDEXED = new LinkedHashMap<>();

    @BeforeAll
    static void writeCorpus() throws Exception {
        corpus = dir.resolve("corpus");
        StringBuilder big = new StringBuilder(21 << 20);
        for (int line = 0; big.length() < 20 << 20; line++) {
            big.append("static const int entry_")
                    .append(line)
                    .append(" = ")
                    .append(line * 7)
                    .append(";\n");
        }
        big.append("last line ZQXJ marker");
        INDEXED.put("big_1.0/generated/table.c", big.toString().getBytes(StandardCharsets.US_ASCII));
        INDEXED.put(
                "big_1.0/one-line.json",
                ("[" + "\"kq\",".repeat(25_000) + "\"end-of-line-PQW\"]").getBytes(StandardCharsets.US_ASCII));
        Random random = new Random(13);
        byte[] data = new byte[110_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (1 + random.nextInt(255));
        }
        INDEXED.put("big_1.0/data.txt", data);
        INDEXED.put(
                "text_1.0/latin1.txt",
                "caf\u00e9 na\u00efve\nr\u00e9sum\u00e9 d\u00e9j\u00e0 vu\n".getBytes(StandardCharsets.ISO_8859_1));
        INDEXED.put("text_1.0/bom.c", "\ufeffint bom_marker;\n".getBytes(StandardCharsets.UTF_8));
        INDEXED.put("text_1.0/crlf.bat", "@echo off\r\nset CRLF_MARKER=1\r\n".getBytes(StandardCharsets.US_ASCII));
        INDEXED.put("text_1.0/no-newline.py", "print('no newline at end')".getBytes(StandardCharsets.US_ASCII));
        INDEXED.put("text_1.0/web/app.min.js", "var a=1;function f(){return a}".getBytes(StandardCharsets.US_ASCII));
        for (var e : INDEXED.entrySet()) {
            Path file = corpus.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.write(file, e.getValue());
        }
        Files.write(corpus.resolve("text_1.0/blob.bin"), new byte[] {'a', 'b', 0, 'c'});
        Files.createDirectories(corpus.resolve("text_1.0/.git"));
        Files.writeString(corpus.resolve("text_1.0/.git/config"), "[core]\n");
        Files.createSymbolicLink(corpus.resolve("text_1.0/link.c"), Path.of("bom.c"));
    }

    @Test
    void everyTextFileIsIndexedAndItsTrigramsAreFound(@TempDir Path out) throws Exception {
        IndexCommandTest.Run r = IndexCommandTest.run("--shards", "2", "--out", out.toString(), corpus.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        Map<String, int[]> where = new HashMap<>();
        for (int s = 0; s < 2; s++) {
            DocTable docs = Shard.open(out.resolve("shard-" + s)).docs();
            for (int doc = 0; doc < docs.docCount(); doc++) {
                where.put(docs.packageName(docs.packageId(doc)) + "/" + docs.path(doc), new int[] {s, doc});
            }
        }
        assertThat(where.keySet()).containsExactlyInAnyOrderElementsOf(INDEXED.keySet());
        Random random = new Random(7);
        for (var e : INDEXED.entrySet()) {
            int[] at = where.get(e.getKey());
            Shard shard = Shard.open(out.resolve("shard-" + at[0]));
            byte[] content = e.getValue();
            var stored = shard.content(at[1]);
            byte[] actual = new byte[stored.remaining()];
            stored.get(actual);
            assertThat(actual).as(e.getKey()).isEqualTo(content);
            // The first and last trigrams and 200 in between are in the doc's posting lists.
            for (int k = 0; k < 202 && content.length >= 3; k++) {
                int i = k == 0 ? 0 : k == 1 ? content.length - 3 : random.nextInt(content.length - 2);
                int t = (content[i] & 0xff) << 16 | (content[i + 1] & 0xff) << 8 | content[i + 2] & 0xff;
                assertThat(postings(shard.index(), t))
                        .as("%s: trigram %06x at %d", e.getKey(), t, i)
                        .contains(at[1]);
            }
        }
        // The random file's trigrams are all there: over 100,000 distinct ones.
        int[] data = where.get("big_1.0/data.txt");
        assertThat(Shard.open(out.resolve("shard-" + data[0])).index().trigramCount())
                .isGreaterThan(100_000);
    }

    private static List<Integer> postings(TrigramIndex index, int trigram) throws Exception {
        int entry = index.find(trigram);
        if (entry < 0) {
            return List.of();
        }
        PostingIterator it = new PostingIterator();
        index.postings(entry, it);
        List<Integer> docs = new java.util.ArrayList<>();
        for (int d = it.next(); d != PostingIterator.NO_MORE_DOCS; d = it.next()) {
            docs.add(d);
        }
        return docs;
    }

    @Test
    void skippedFilesAreListedAndCountedInTheManifests(@TempDir Path out) throws Exception {
        Path list = out.resolve("skipped.tsv");
        IndexCommandTest.Run r = IndexCommandTest.run(
                "--shards",
                "3",
                "--skip-generated",
                "--skipped",
                list.toString(),
                "--out",
                out.resolve("shards").toString(),
                corpus.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readAllLines(list))
                .containsExactlyInAnyOrder(
                        "binary\t4\ttext_1.0/blob.bin",
                        "vcs\t0\ttext_1.0/.git/",
                        "symlink\t0\ttext_1.0/link.c",
                        "generated\t30\ttext_1.0/web/app.min.js");
        assertThat(r.out())
                .contains("binary                      1 files")
                .contains("generated                   1 files")
                .contains("4 files listed in " + list);
        Map<String, long[]> sum = new HashMap<>();
        for (int s = 0; s < 3; s++) {
            Manifest manifest = Manifest.read(out.resolve("shards/shard-" + s + "/manifest.json"));
            assertThat(Shard.open(out.resolve("shards/shard-" + s)).manifest()).isEqualTo(manifest);
            manifest.skipped().forEach((reason, c) -> {
                long[] total = sum.computeIfAbsent(reason, k -> new long[2]);
                total[0] += c.files();
                total[1] += c.bytes();
            });
        }
        assertThat(sum.keySet())
                .contains("binary", "too_large", "generated", "vcs", "symlink", "unsafe_path", "unreadable");
        assertThat(sum.get("binary")).containsExactly(1, 4);
        assertThat(sum.get("generated")).containsExactly(1, 30);
        assertThat(sum.get("vcs")).containsExactly(1, 0);
        assertThat(sum.get("symlink")).containsExactly(1, 0);
        assertThat(sum.get("too_large")).containsExactly(0, 0);
    }

    @Test
    void generatedNamesAreIndexedByDefaultAndTheCapIsConfigurable(@TempDir Path out) throws Exception {
        Path list = out.resolve("skipped.tsv");
        IndexCommandTest.Run r = IndexCommandTest.run(
                "--max-file-bytes",
                "100000",
                "--skipped",
                list.toString(),
                "--out",
                out.resolve("shards").toString(),
                corpus.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readAllLines(list))
                .contains(
                        "too_large\t" + INDEXED.get("big_1.0/generated/table.c").length + "\tbig_1.0/generated/table.c",
                        "too_large\t110000\tbig_1.0/data.txt",
                        "too_large\t" + INDEXED.get("big_1.0/one-line.json").length + "\tbig_1.0/one-line.json")
                .noneMatch(l -> l.startsWith("generated"));
        Manifest manifest = Manifest.read(out.resolve("shards/shard-0/manifest.json"));
        assertThat(manifest.skipped().get("too_large").files()).isEqualTo(3);
        assertThat(manifest.skipped().get("generated").files()).isZero();
    }

    @Test
    void oddPathsInTheSkippedListAreEscaped(@TempDir Path out) throws Exception {
        Path list = out.resolve("list.tsv");
        SkippedList.write(
                List.of(new io.trigrep.indexer.build.IndexBuilder.SkippedFile(
                        "p_1", "a\tb\nc\\d", SkipReason.BINARY, 7)),
                list);
        assertThat(Files.readString(list)).isEqualTo("binary\t7\tp_1/a\\tb\\nc\\\\d\n");
    }

    @Test
    void aCapAboveTheFormatsSpanIsRefused(@TempDir Path out) {
        IndexCommandTest.Run r =
                IndexCommandTest.run("--max-file-bytes", "67108865", "--out", out.toString(), corpus.toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--max-file-bytes must be in [1, 67108864]");
    }

    @Test
    void helpDocumentsTheSkippedListAndTheOptIn() {
        IndexCommandTest.Run r = IndexCommandTest.run("--help");
        assertThat(r.exit()).isZero();
        assertThat(r.out())
                .contains("--skipped=FILE")
                .contains("reason<TAB>bytes<TAB>package/path")
                .contains("--skip-generated")
                .contains("default 67108864")
                .doesNotContain("--max-line-bytes")
                .doesNotContain("--max-trigrams");
    }

    @Test
    void removedOptionsAreAcceptedWithAWarning(@TempDir Path out) {
        IndexCommandTest.Run r = IndexCommandTest.run(
                "--max-line-bytes",
                "2000",
                "--max-trigrams",
                "20000",
                "--out",
                out.toString(),
                IndexCommandTest.CORPUS.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).contains("warning: --max-line-bytes and --max-trigrams are gone and ignored");
    }

    @Test
    void oldManifestsReadWithNoSkippedCounts(@TempDir Path out) throws Exception {
        Path file = out.resolve("manifest.json");
        Files.writeString(
                file,
                "{\n  \"formatVersion\": 1,\n  \"shard\": \"shard-0\",\n  \"docs\": 3,\n  \"packages\": 2,\n  \"trigrams\": 9,\n"
                        + "  \"contentBytes\": 30,\n  \"indexBytes\": 100,\n  \"docTableBytes\": 200,\n  \"builtAtMillis\": 1,\n  \"buildMillis\": 2\n}\n");
        Manifest old = Manifest.read(file);
        assertThat(old.skipped()).isEmpty();
        assertThat(old.docs()).isEqualTo(3);
        Manifest withCounts =
                new Manifest("shard-1", 1, 1, 1, 1, 1, 1, 1, 1, Map.of("binary", new Manifest.Skipped(2, 40)));
        Files.writeString(file, withCounts.toJson());
        assertThat(Manifest.read(file)).isEqualTo(withCounts);
        assertThat(Manifest.read(file).skippedFiles()).isEqualTo(2);
    }
}
