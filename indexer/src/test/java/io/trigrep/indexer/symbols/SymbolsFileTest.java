package io.trigrep.indexer.symbols;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.Manifest;
import io.trigrep.indexer.format.PostingIterator;
import io.trigrep.indexer.format.ShardFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** symbols.tgs written and read back: every field, both lookups, the corrupt and the absent cases. */
class SymbolsFileTest {
    private static final String[] KINDS = {"function", "struct", "macro", "member", "variable"};
    private static final String[] LANGUAGES = {"C", "C++", "Python", "Go"};

    /** Random tags for {@code docs} docs; names from a small alphabet so that names and trigrams repeat. */
    static Tag[][] randomTags(long seed, int docs) {
        Random random = new Random(seed);
        Tag[][] byDoc = new Tag[docs][];
        for (int d = 0; d < docs; d++) {
            if (random.nextInt(4) == 0) {
                continue;
            }
            int n = random.nextInt(300);
            Tag[] tags = new Tag[n];
            int line = 1;
            for (int i = 0; i < n; i++) {
                line += random.nextInt(3);
                StringBuilder name = new StringBuilder();
                int length = 1 + random.nextInt(8);
                for (int c = 0; c < length; c++) {
                    name.append("abcdeé_".charAt(random.nextInt(7)));
                }
                tags[i] = new Tag(
                        name.toString(),
                        line,
                        KINDS[random.nextInt(KINDS.length)],
                        LANGUAGES[random.nextInt(LANGUAGES.length)],
                        random.nextBoolean() ? "" : "scope" + random.nextInt(20));
            }
            byDoc[d] = tags;
        }
        return byDoc;
    }

    @Test
    void everyTagReadsBackByDocAndByName(@TempDir Path dir) throws Exception {
        Tag[][] byDoc = randomTags(18, 200);
        Path file = dir.resolve(ShardFiles.SYMBOLS);
        int written = SymbolsWriter.write(file, byDoc);
        Symbols symbols = Symbols.openFile(file);
        symbols.verify();
        assertThat(symbols.present()).isTrue();
        assertThat(symbols.docCount()).isEqualTo(200);
        assertThat(symbols.symbolCount())
                .isEqualTo(written)
                .isEqualTo(Arrays.stream(byDoc)
                        .mapToInt(t -> t == null ? 0 : t.length)
                        .sum());

        TreeMap<String, List<String>> expectedByName = new TreeMap<>();
        int s = 0;
        for (int d = 0; d < byDoc.length; d++) {
            Tag[] tags = byDoc[d] == null ? new Tag[0] : byDoc[d];
            assertThat(symbols.firstOfDoc(d)).isEqualTo(s);
            assertThat(symbols.endOfDoc(d)).isEqualTo(s + tags.length);
            assertThat(symbols.definitionLines(d))
                    .isEqualTo(
                            Arrays.stream(tags).mapToInt(Tag::line).distinct().toArray());
            for (Tag t : tags) {
                assertThat(symbols.doc(s)).isEqualTo(d);
                assertThat(symbols.line(s)).isEqualTo(t.line());
                assertThat(symbols.name(symbols.nameId(s))).isEqualTo(t.name());
                assertThat(symbols.kind(s)).isEqualTo(t.kind());
                assertThat(symbols.language(s)).isEqualTo(t.language());
                assertThat(symbols.scope(s)).isEqualTo(t.scope());
                expectedByName.computeIfAbsent(t.name(), k -> new ArrayList<>()).add(d + ":" + s);
                s++;
            }
        }
        assertThat(symbols.nameCount()).isEqualTo(expectedByName.size());
        byte[] previous = null;
        for (int n = 0; n < symbols.nameCount(); n++) {
            byte[] bytes = symbols.name(n).getBytes(StandardCharsets.UTF_8);
            if (previous != null) {
                assertThat(Arrays.compareUnsigned(previous, bytes))
                        .as("names sorted by bytes")
                        .isNegative();
            }
            previous = bytes;
            List<String> found = new ArrayList<>();
            for (int i = symbols.firstOfName(n); i < symbols.endOfName(n); i++) {
                int symbol = symbols.symbolOfNameAt(i);
                found.add(symbols.doc(symbol) + ":" + symbol);
            }
            assertThat(found).as("symbols of %s", symbols.name(n)).isEqualTo(expectedByName.get(symbols.name(n)));
        }
    }

    @Test
    void aTinyMemorySpillsRunsAndWritesTheSameBytes(@TempDir Path dir) throws Exception {
        Tag[][] byDoc = randomTags(60, 400);
        Path ample = dir.resolve("ample.tgs");
        Path tiny = dir.resolve("tiny.tgs");
        SymbolsWriter.Written inMemory = SymbolsWriter.write(ample, byDoc, 64L << 20);
        SymbolsWriter.Written spilled = SymbolsWriter.write(tiny, byDoc, 16 * 1024);
        assertThat(inMemory.runs()).isZero();
        assertThat(spilled.runs()).isGreaterThan(10);
        assertThat(spilled.symbols()).isEqualTo(inMemory.symbols()).isPositive();
        assertThat(Files.readAllBytes(tiny)).isEqualTo(Files.readAllBytes(ample));
        Symbols.openFile(tiny).verify();
        try (var left = Files.list(dir)) {
            assertThat(left.map(p -> p.getFileName().toString()).toList())
                    .as("scratch files removed")
                    .containsExactlyInAnyOrder("ample.tgs", "tiny.tgs");
        }
    }

    @Test
    void trigramListsFindExactlyTheNamesAScanFinds(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ShardFiles.SYMBOLS);
        SymbolsWriter.write(file, randomTags(7, 300));
        Symbols symbols = Symbols.openFile(file);
        assertThat(symbols.trigramCount()).isPositive();
        for (String literal : List.of("abc", "_é_", "dde", "aaaa", "ce_d", "zzz")) {
            byte[] b = literal.getBytes(StandardCharsets.UTF_8);
            int[] trigrams = new int[b.length - 2];
            for (int i = 0; i < trigrams.length; i++) {
                trigrams[i] = (b[i] & 0xff) << 16 | (b[i + 1] & 0xff) << 8 | b[i + 2] & 0xff;
            }
            Pattern regex = Pattern.compile(Pattern.quote(literal));
            int[] scanned = symbols.scanNames(name -> regex.matcher(name).find());
            int[] indexed =
                    symbols.namesWithAll(trigrams, name -> regex.matcher(name).find());
            assertThat(indexed).as(literal).isEqualTo(scanned);
            if (!literal.equals("zzz")) {
                assertThat(scanned).as(literal).isNotEmpty();
            }
            // the first trigram's list holds every name containing it, in id order
            PostingIterator list = symbols.namesWithTrigram(trigrams[0], new PostingIterator());
            TreeSet<Integer> fromList = new TreeSet<>();
            for (int n = list.next(); n != PostingIterator.NO_MORE_DOCS; n = list.next()) {
                fromList.add(n);
            }
            String first = new String(b, 0, 3, StandardCharsets.UTF_8);
            TreeSet<Integer> holding = new TreeSet<>();
            for (int n : symbols.scanNames(name -> name.contains(first))) {
                holding.add(n);
            }
            assertThat(fromList).as(first).isEqualTo(holding);
        }
    }

    @Test
    void aShardWithoutSymbolsSaysWhy(@TempDir Path dir) throws Exception {
        Path old = Files.createDirectories(dir.resolve("old"));
        Files.writeString(old.resolve(ShardFiles.MANIFEST), new Manifest("shard-0", 0, 0, 0, 0, 0, 0, 1, 1).toJson());
        Symbols none = Symbols.open(old);
        assertThat(none.present()).isFalse();
        assertThat(none.absentReason()).contains("built before symbol search");
        assertThatThrownBy(() -> none.firstOfDoc(0))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no symbols");

        Path off = Files.createDirectories(dir.resolve("off"));
        Files.writeString(
                off.resolve(ShardFiles.MANIFEST),
                new Manifest("shard-0", 0, 0, 0, 0, 0, 0, 1, 1, Map.of(), "built with --no-symbols").toJson());
        assertThat(Manifest.read(off.resolve(ShardFiles.MANIFEST)).symbolsAbsent())
                .isEqualTo("built with --no-symbols");
        assertThat(Symbols.open(off).absentReason()).isEqualTo("built with --no-symbols");
    }

    @Test
    void symbolsForAnotherDocCountAreRefused(@TempDir Path dir) throws Exception {
        SymbolsWriter.write(dir.resolve(ShardFiles.SYMBOLS), randomTags(1, 5));
        Files.writeString(dir.resolve(ShardFiles.MANIFEST), new Manifest("shard-0", 6, 0, 0, 0, 0, 0, 1, 1).toJson());
        assertThatThrownBy(() -> Symbols.open(dir))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining(ShardFiles.SYMBOLS)
                .hasMessageContaining("symbols cover 5 docs, the manifest 6");
    }

    @Test
    void truncatedOrForeignFilesAreRefusedNamingThePath(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ShardFiles.SYMBOLS);
        SymbolsWriter.write(file, randomTags(3, 20));
        byte[] good = Files.readAllBytes(file);

        Files.write(file, Arrays.copyOf(good, good.length - 1));
        assertThatThrownBy(() -> Symbols.openFile(file))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining(file.toString());

        byte[] kind = good.clone();
        kind[4] = 'X';
        Files.write(file, kind);
        assertThatThrownBy(() -> Symbols.openFile(file))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessageContaining("file kind XYMS, expected SYMS");
    }

    @Test
    void aFlippedByteInEverySectionIsCaught(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ShardFiles.SYMBOLS);
        SymbolsWriter.write(file, randomTags(5, 30));
        byte[] good = Files.readAllBytes(file);
        Random random = new Random(5);
        for (int trial = 0; trial < 200; trial++) {
            byte[] bad = good.clone();
            int at = 16 + random.nextInt(good.length - 32);
            bad[at] ^= (byte) (1 << random.nextInt(8));
            Files.write(file, bad);
            assertThatThrownBy(() -> Symbols.openFile(file).verify())
                    .as("flip at %d", at)
                    .isInstanceOf(CorruptIndexException.class)
                    .hasMessageContaining(file.toString());
        }
    }

    @Test
    void aDamagedDirectoryIsRefusedAtOpen(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ShardFiles.SYMBOLS);
        SymbolsWriter.write(file, randomTags(9, 30));
        byte[] good = Files.readAllBytes(file);
        int directory = good.length - 16 - SymbolsWriter.DIRECTORY_BYTES;
        for (int field = 0; field < SymbolsWriter.DIRECTORY_BYTES; field += 4) {
            byte[] bad = good.clone();
            bad[directory + field] += 1;
            Files.write(file, bad);
            assertThatThrownBy(() -> Symbols.openFile(file))
                    .as("directory byte %d", field)
                    .isInstanceOf(CorruptIndexException.class)
                    .hasMessageContaining(file.toString());
        }
    }

    /** A refused file is unmapped before the error: a server retrying a bad generation keeps no mapping of it. */
    @Test
    void aRefusedFileIsUnmapped(@TempDir Path dir) throws Exception {
        Path file = dir.resolve(ShardFiles.SYMBOLS);
        SymbolsWriter.write(file, randomTags(1, 5));
        Files.writeString(dir.resolve(ShardFiles.MANIFEST), new Manifest("shard-0", 6, 0, 0, 0, 0, 0, 1, 1).toJson());
        assertThatThrownBy(() -> Symbols.open(dir)).isInstanceOf(CorruptIndexException.class);
        assertThat(mappings(file)).as("mapped after a doc count refused").isEmpty();

        byte[] kind = Files.readAllBytes(file);
        kind[4] = 'X';
        Files.write(file, kind);
        assertThatThrownBy(() -> Symbols.openFile(file)).isInstanceOf(CorruptIndexException.class);
        assertThat(mappings(file)).as("mapped after a foreign kind refused").isEmpty();
    }

    private static List<String> mappings(Path file) throws IOException {
        String path = file.toRealPath().toString();
        return Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter(line -> line.endsWith(path))
                .toList();
    }
}
