package io.trigrep.indexer.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * trigrams.tgi with five lists, written partly through parts: the layout FORMAT.md gives, lookups
 * hit and miss, the writer's counters, and each directory, prefix or entry field that is out of
 * place refused with the file and offset.
 */
class TrigramIndexTest {
    static final int DOCS = 1 << 30;
    static final int LOW = 0x000001;
    static final int ABC = 0x616263;
    static final int ABD = 0x616264;
    static final int ABF = 0x616266;
    static final int ZZZ = 0x7a7a7a;
    /** Gaps from 127 to 2^28: one at each side of every varint length step. */
    static final int[] WIDE = {126, 254, 16637, 33021, 2130172, 4227324, 272662779, 541098235};
    // Lists of 2 + 2 + 2 + 29 + 2 bytes, then 5 entries of 12 bytes and 257 prefixes of 4.
    static final long TABLE = 16 + 37;
    static final long PREFIXES = TABLE + 5 * 12;
    static final long DIRECTORY = PREFIXES + 257 * 4;

    @TempDir
    Path dir;

    Path file;
    TrigramIndexWriter written;

    @BeforeEach
    void writeIndex() throws Exception {
        file = dir.resolve("trigrams.tgi");
        try (TrigramIndexWriter writer = new TrigramIndexWriter(file, DOCS)) {
            writer.add(LOW, 2);
            TrigramIndexWriter.Part first = writer.newPart(dir.resolve("part-1"));
            first.add(ABC, 0);
            first.add(ABC, 2);
            first.add(ABD, 1);
            TrigramIndexWriter.Part second = writer.newPart(dir.resolve("part-2"));
            for (int doc : WIDE) {
                second.add(ABF, doc);
            }
            writer.append(first);
            writer.append(second);
            writer.add(ZZZ, 3);
            writer.finish();
            written = writer;
        }
    }

    private void patch(Consumer<ByteBuffer> change) throws Exception {
        byte[] bytes = Files.readAllBytes(file);
        change.accept(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN));
        Files.write(file, bytes);
    }

    private CorruptIndexException refusedAtOpen() {
        try {
            TrigramIndex.open(file);
        } catch (CorruptIndexException e) {
            assertThat(e.file()).isEqualTo(file);
            return e;
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        throw new AssertionError("opened");
    }

    private static List<Integer> docs(PostingIterator it) throws CorruptIndexException {
        List<Integer> docs = new ArrayList<>();
        for (int d = it.next(); d != PostingIterator.NO_MORE_DOCS; d = it.next()) {
            docs.add(d);
        }
        return docs;
    }

    @Test
    void theFileHasTheDocumentedLayout() throws Exception {
        assertThat(Files.size(file)).isEqualTo(DIRECTORY + 48 + 16);
        assertThat(Files.exists(dir.resolve("trigrams.tgi.table"))).isFalse();
        assertThat(Files.exists(dir.resolve("part-1"))).isFalse();
        assertThat(Files.exists(dir.resolve("part-2"))).isFalse();
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.LITTLE_ENDIAN);
        long[] offsets = {16, 18, 20, 22, 51};
        int[] trigrams = {LOW, ABC, ABD, ABF, ZZZ};
        int[] counts = {1, 2, 1, 8, 1};
        for (int i = 0; i < 5; i++) {
            assertThat(bytes.getLong((int) TABLE + 12 * i)).isEqualTo((long) trigrams[i] << 40 | offsets[i]);
            assertThat(bytes.getInt((int) TABLE + 12 * i + 8)).isEqualTo(counts[i]);
        }
        for (int prefix = 0; prefix <= 256; prefix++) {
            int expected = prefix == 0 ? 0 : prefix <= 0x61 ? 1 : prefix <= 0x7a ? 4 : 5;
            assertThat(bytes.getInt((int) PREFIXES + 4 * prefix))
                    .as("prefix %d", prefix)
                    .isEqualTo(expected);
        }
        int d = (int) DIRECTORY;
        assertThat(bytes.getLong(d)).isEqualTo(16);
        assertThat(bytes.getLong(d + 8)).isEqualTo(TABLE);
        assertThat(bytes.getInt(d + 16)).isEqualTo(5);
        assertThat(bytes.getInt(d + 20)).isEqualTo(DOCS);
        assertThat(bytes.getLong(d + 24)).isEqualTo(PREFIXES);
        assertThat(bytes.getInt(d + 32)).isEqualTo(29);
        assertThat(bytes.getInt(d + 36)).isZero();
        assertThat(bytes.getLong(d + 40)).isZero();
    }

    @Test
    void partsGiveTheSameBytesAsDirectAdds() throws Exception {
        Path direct = dir.resolve("direct.tgi");
        try (TrigramIndexWriter writer = new TrigramIndexWriter(direct, DOCS)) {
            writer.add(LOW, 2);
            writer.add(ABC, 0);
            writer.add(ABC, 2);
            writer.add(ABD, 1);
            for (int doc : WIDE) {
                writer.add(ABF, doc);
            }
            writer.add(ZZZ, 3);
            writer.finish();
            assertThat(writer.trigramCount()).isEqualTo(5);
            assertThat(writer.postingBytes()).isEqualTo(37);
            assertThat(writer.varintPostingBytes()).isEqualTo(29);
        }
        assertThat(Files.readAllBytes(direct)).isEqualTo(Files.readAllBytes(file));
    }

    @Test
    void theWriterCountsTrigramsAndBothEncodingsSizes() {
        assertThat(written.trigramCount()).isEqualTo(5);
        assertThat(written.postingBytes()).isEqualTo(37);
        // 1 + (1 + 1) + 1 + (1 + 2 + 2 + 3 + 3 + 4 + 4 + 5) + 1
        assertThat(written.varintPostingBytes()).isEqualTo(29);
    }

    @Test
    void everyTrigramIsFoundAndReadsBackItsDocs() throws Exception {
        TrigramIndex index = TrigramIndex.open(file);
        index.verifyChecksum();
        assertThat(index.path()).isEqualTo(file);
        assertThat(index.trigramCount()).isEqualTo(5);
        assertThat(index.docCount()).isEqualTo(DOCS);
        int[] trigrams = {LOW, ABC, ABD, ABF, ZZZ};
        List<List<Integer>> lists = List.of(
                List.of(2),
                List.of(0, 2),
                List.of(1),
                java.util.Arrays.stream(WIDE).boxed().toList(),
                List.of(3));
        PostingIterator it = new PostingIterator();
        for (int i = 0; i < 5; i++) {
            assertThat(index.find(trigrams[i])).isEqualTo(i);
            assertThat(index.trigramAt(i)).isEqualTo(trigrams[i]);
            assertThat(index.docCountAt(i)).isEqualTo(lists.get(i).size());
            assertThat(docs(index.postings(i, it))).isEqualTo(lists.get(i));
        }
    }

    @Test
    void absentTrigramsAreMinusOne() throws Exception {
        TrigramIndex index = TrigramIndex.open(file);
        for (int absent : new int[] {
            0, 2, 0x616200, 0x616262, 0x616265, 0x616267, 0x61ffff, 0x620000, 0x7a7a79, 0x7a7a7b, 0xffffff
        }) {
            assertThat(index.find(absent)).as("%06x", absent).isEqualTo(-1);
        }
    }

    @Test
    void writerRefusesOutOfOrderInput() throws Exception {
        try (TrigramIndexWriter writer = new TrigramIndexWriter(dir.resolve("bad.tgi"), 4)) {
            writer.add(ABD, 1);
            assertThatThrownBy(() -> writer.add(ABC, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("trigrams must be 24-bit and increasing: " + ABC + " after " + ABD);
            assertThatThrownBy(() -> writer.add(1 << 24, 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("trigrams must be 24-bit and increasing: " + (1 << 24) + " after " + ABD);
            assertThatThrownBy(() -> writer.add(ABF, 4))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("doc must be in [0, 4), got 4");
            assertThatThrownBy(() -> writer.add(ABF, -1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("doc must be in [0, 4), got -1");
            writer.add(ABF, 3);
            try (TrigramIndexWriter.Part late = writer.newPart(dir.resolve("late"))) {
                late.add(ABC, 0);
                assertThatThrownBy(() -> writer.append(late))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage("parts must be appended in increasing trigram order: " + ABC + " after " + ABF);
            }
        }
        assertThat(Files.exists(dir.resolve("late"))).isFalse();
        assertThat(Files.exists(dir.resolve("bad.tgi.table"))).isFalse();
    }

    @Test
    void aPartIsCopiedAfterWhatWasAddedDirectly() throws Exception {
        Path path = dir.resolve("mixed.tgi");
        try (TrigramIndexWriter writer = new TrigramIndexWriter(path, 200)) {
            writer.add(ABC, 5);
            TrigramIndexWriter.Part empty = writer.newPart(dir.resolve("empty"));
            writer.append(empty);
            TrigramIndexWriter.Part part = writer.newPart(dir.resolve("part"));
            for (int doc = 0; doc < 200; doc++) {
                part.add(ABD, doc);
            }
            writer.append(part);
            writer.finish();
        }
        TrigramIndex index = TrigramIndex.open(path);
        PostingIterator it = new PostingIterator();
        assertThat(docs(index.postings(index.find(ABC), it))).containsExactly(5);
        assertThat(docs(index.postings(index.find(ABD), it)))
                .hasSize(200)
                .startsWith(0, 1)
                .endsWith(199);
    }

    @Test
    void directorySectionsThatDoNotAddUpAreRefused() throws Exception {
        int d = (int) DIRECTORY;
        patch(b -> b.putLong(d, 17));
        CorruptIndexException e = refusedAtOpen();
        assertThat(e.offset()).isEqualTo(DIRECTORY);
        assertThat(e.problem())
                .isEqualTo("directory sections do not add up (tables at " + TABLE + ", " + PREFIXES + ", 5 trigrams)");
        patch(b -> b.putLong(d, 16).putInt(d + 20, -1));
        assertThat(refusedAtOpen().problem()).startsWith("directory sections do not add up");
        patch(b -> b.putInt(d + 20, 0).putInt(d + 16, -1).putLong(d + 8, PREFIXES + 12));
        assertThat(refusedAtOpen().problem())
                .isEqualTo("directory sections do not add up (tables at " + (PREFIXES + 12) + ", " + PREFIXES
                        + ", -1 trigrams)");
        // table and prefixes moved together: only the prefix table's end misses the directory
        patch(b -> b.putInt(d + 16, 5).putLong(d + 8, TABLE + 4).putLong(d + 24, PREFIXES + 4));
        assertThat(refusedAtOpen().problem()).startsWith("directory sections do not add up (tables at " + (TABLE + 4));
        // a table that would start inside the header but still ends at the prefix table
        long inHeader = 4 + Math.floorMod(PREFIXES - 4, 12);
        patch(b -> b.putLong(d + 8, inHeader)
                .putInt(d + 16, (int) ((PREFIXES - inHeader) / 12))
                .putLong(d + 24, PREFIXES));
        assertThat(refusedAtOpen().problem())
                .isEqualTo("directory sections do not add up (tables at " + inHeader + ", " + PREFIXES + ", "
                        + (PREFIXES - inHeader) / 12 + " trigrams)");
    }

    @Test
    void anEmptyDocCountIsAccepted() throws Exception {
        patch(b -> b.putInt((int) DIRECTORY + 20, 0));
        assertThat(TrigramIndex.open(file).docCount()).isZero();
    }

    @Test
    void aLongestListOverTheSpanLimitIsRefused() throws Exception {
        int at = (int) DIRECTORY + 32;
        patch(b -> b.putInt(at, -1));
        CorruptIndexException e = refusedAtOpen();
        assertThat(e.offset()).isEqualTo(at);
        assertThat(e.problem()).isEqualTo("longest posting list of -1 bytes is over the limit");
        patch(b -> b.putInt(at, MappedFile.DEFAULT_MAX_SPAN + 1));
        assertThat(refusedAtOpen().problem())
                .isEqualTo("longest posting list of " + (MappedFile.DEFAULT_MAX_SPAN + 1) + " bytes is over the limit");
        patch(b -> b.putInt(at, MappedFile.DEFAULT_MAX_SPAN));
        assertThat(TrigramIndex.open(file).trigramCount()).isEqualTo(5);
        patch(b -> b.putInt(at, 0));
        assertThat(TrigramIndex.open(file).trigramCount()).isEqualTo(5);
    }

    @Test
    void aPrefixTableThatDoesNotEndAtTheCountIsRefused() throws Exception {
        patch(b -> b.putInt((int) PREFIXES + 4 * 256, 4));
        CorruptIndexException e = refusedAtOpen();
        assertThat(e.offset()).isEqualTo(PREFIXES);
        assertThat(e.problem()).isEqualTo("prefix table does not end at the trigram count");
    }

    @Test
    void aFileTooSmallForTheDirectoryIsRefused() throws Exception {
        for (int body : new int[] {0, 47}) {
            FormatOutput out = new FormatOutput(file.resolveSibling("small-" + body), Envelope.KIND_TRIGRAMS);
            out.write(new byte[body], 0, body);
            out.finish();
            file = file.resolveSibling("small-" + body);
            CorruptIndexException e = refusedAtOpen();
            assertThat(e.offset()).isEqualTo(body - 32);
            assertThat(e.problem()).isEqualTo("no room for the directory");
        }
        // 48 bytes of body: the directory fits, and its zeros are what is refused
        FormatOutput out = new FormatOutput(dir.resolve("just-room"), Envelope.KIND_TRIGRAMS);
        out.write(new byte[48], 0, 48);
        out.finish();
        file = dir.resolve("just-room");
        assertThat(refusedAtOpen().problem()).startsWith("directory sections do not add up");
    }

    @Test
    void prefixEntriesOutsideTheTableAreRefusedOnLookup() throws Exception {
        patch(b -> b.putInt((int) PREFIXES + 4 * 0x62, 5));
        TrigramIndex wide = TrigramIndex.open(file);
        assertThat(wide.find(ABC)).isEqualTo(1);
        assertThat(wide.find(0x616300)).isEqualTo(-1);
        patch(b -> b.putInt((int) PREFIXES + 4 * 0x62, 6));
        TrigramIndex past = TrigramIndex.open(file);
        assertThatThrownBy(() -> past.find(ABC)).isInstanceOfSatisfying(CorruptIndexException.class, e -> {
            assertThat(e.offset()).isEqualTo(PREFIXES + 4 * 0x61);
            assertThat(e.problem()).isEqualTo("prefix table entry outside the trigram table");
        });
        patch(b -> b.putInt((int) PREFIXES + 4 * 0x62, 4).putInt((int) PREFIXES + 4 * 0x61, -1));
        TrigramIndex before = TrigramIndex.open(file);
        assertThatThrownBy(() -> before.find(ABC))
                .isInstanceOf(CorruptIndexException.class)
                .hasMessage(file + " at offset " + (PREFIXES + 4 * 0x61)
                        + ": prefix table entry outside the trigram table");
        assertThat(before.find(ZZZ)).isEqualTo(4);
    }

    private void setOffset(int entry, int trigram, long offset) throws Exception {
        patch(b -> b.putLong((int) TABLE + 12 * entry, (long) trigram << 40 | offset));
    }

    private CorruptIndexException refusedPostings(int entry) throws Exception {
        TrigramIndex index = TrigramIndex.open(file);
        try {
            index.postings(entry, new PostingIterator());
        } catch (CorruptIndexException e) {
            assertThat(e.file()).isEqualTo(file);
            assertThat(e.offset()).isEqualTo(TABLE + 12L * entry);
            return e;
        }
        throw new AssertionError("entry " + entry + " accepted");
    }

    @Test
    void entriesPointingOutsideThePostingsAreRefused() throws Exception {
        setOffset(0, LOW, 15);
        assertThat(refusedPostings(0).problem()).isEqualTo("trigram entry 0 points at [15, 18) with 1 docs");
        setOffset(0, LOW, 16);
        setOffset(2, ABD, 17);
        assertThat(refusedPostings(1).problem()).isEqualTo("trigram entry 1 points at [18, 17) with 2 docs");
        setOffset(2, ABD, 18);
        assertThat(TrigramIndex.open(file).postings(1, new PostingIterator()).cost())
                .isEqualTo(2);
        setOffset(2, ABD, 20);
        setOffset(4, ZZZ, TABLE + 1);
        assertThat(refusedPostings(3).problem())
                .isEqualTo("trigram entry 3 points at [22, " + (TABLE + 1) + ") with 8 docs");
        setOffset(4, ZZZ, TABLE);
        assertThat(docs(TrigramIndex.open(file).postings(3, new PostingIterator())))
                .hasSize(8);
    }

    @Test
    void entryDocCountsOutsideOneToTheDocCountAreRefused() throws Exception {
        int count = (int) TABLE + 12 * 4 + 8;
        patch(b -> b.putInt(count, 0));
        assertThat(refusedPostings(4).problem()).isEqualTo("trigram entry 4 points at [51, " + TABLE + ") with 0 docs");
        // a shard of one doc: lists of one doc are whole, of two are not
        patch(b -> b.putInt(count, 1).putInt((int) DIRECTORY + 20, 1));
        assertThat(TrigramIndex.open(file).postings(4, new PostingIterator()).cost())
                .isEqualTo(1);
        assertThat(refusedPostings(1).problem()).isEqualTo("trigram entry 1 points at [18, 20) with 2 docs");
    }

    @Test
    void trigramZeroIsAListLikeAnyOther() throws Exception {
        Path path = dir.resolve("zero.tgi");
        try (TrigramIndexWriter writer = new TrigramIndexWriter(path, 3)) {
            writer.add(0, 0);
            writer.add(0, 2);
            writer.add(1, 1);
            writer.finish();
        }
        TrigramIndex index = TrigramIndex.open(path);
        assertThat(index.trigramCount()).isEqualTo(2);
        assertThat(index.find(0)).isZero();
        assertThat(docs(index.postings(0, new PostingIterator()))).containsExactly(0, 2);
        assertThat(docs(index.postings(1, new PostingIterator()))).containsExactly(1);
    }

    @Test
    void anIndexWithoutTrigramsOpensEmpty() throws Exception {
        Path path = dir.resolve("empty.tgi");
        try (TrigramIndexWriter writer = new TrigramIndexWriter(path, 0)) {
            writer.finish();
        }
        assertThat(Files.size(path)).isEqualTo(16 + 257 * 4 + 48 + 16);
        TrigramIndex index = TrigramIndex.open(path);
        index.verifyChecksum();
        assertThat(index.trigramCount()).isZero();
        assertThat(index.docCount()).isZero();
        assertThat(index.find(ABC)).isEqualTo(-1);
        assertThat(index.find(0)).isEqualTo(-1);
    }

    @Test
    void aPartOfManyTrigramsKeepsEveryEntry() throws Exception {
        Path path = dir.resolve("many.tgi");
        try (TrigramIndexWriter writer = new TrigramIndexWriter(path, 5000)) {
            TrigramIndexWriter.Part part = writer.newPart(dir.resolve("many-part"));
            for (int t = 0; t < 3000; t++) {
                part.add(t * 5000 + 7, t);
            }
            writer.append(part);
            writer.finish();
        }
        TrigramIndex index = TrigramIndex.open(path);
        assertThat(index.trigramCount()).isEqualTo(3000);
        PostingIterator it = new PostingIterator();
        for (int t = 0; t < 3000; t++) {
            int entry = index.find(t * 5000 + 7);
            assertThat(entry).isEqualTo(t);
            assertThat(index.postings(entry, it).next()).isEqualTo(t);
        }
    }

    @Test
    void aPartRepeatingTheLastDirectTrigramIsRefused() throws Exception {
        try (TrigramIndexWriter writer = new TrigramIndexWriter(dir.resolve("twice.tgi"), 4);
                TrigramIndexWriter.Part part = writer.newPart(dir.resolve("twice-part"))) {
            writer.add(ABC, 0);
            part.add(ABC, 1);
            assertThatThrownBy(() -> writer.append(part))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessage("parts must be appended in increasing trigram order: " + ABC + " after " + ABC);
        }
    }
}
