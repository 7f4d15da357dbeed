package io.trigrep.indexer.build;

import io.trigrep.indexer.format.ContentWriter;
import io.trigrep.indexer.format.DocTableWriter;
import io.trigrep.indexer.format.ShardFiles;
import io.trigrep.indexer.format.TrigramIndexWriter;
import io.trigrep.indexer.format.Trigrams;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds one shard folder from spooled packages: docs ordered by static rank (best first, so doc
 * id order is search order), contents copied in that order, trigram postings sorted in bounded
 * memory, then the doc table. Writes into {@code folder}, which the caller renames into place.
 */
final class ShardBuilder {
    record Doc(SpooledPackage.SpooledFile file, int packageId, String packageName, Path spool) {}


    private ShardBuilder() {}

    static BuiltShard build(List<SpooledPackage> packages, Path folder, int pairBuffer, IndexStats stats) throws IOException {
        List<SpooledPackage> byName = new ArrayList<>(packages);
        byName.sort(Comparator.comparing(SpooledPackage::name));
        List<Doc> docs = new ArrayList<>();
        for (int id = 0; id < byName.size(); id++) {
            SpooledPackage p = byName.get(id);
            for (SpooledPackage.SpooledFile f : p.files()) {
                docs.add(new Doc(f, id, p.name(), p.spool()));
            }
        }
        docs.sort(Comparator.comparingDouble((Doc d) -> -d.file().rank())
                .thenComparing(Doc::packageName)
                .thenComparing((a, b) -> Arrays.compareUnsigned(a.file().path(), b.file().path())));

        Files.createDirectories(folder);
        Map<Path, MappedByteBuffer> spools = new HashMap<>();
        long[] contentOffsets = new long[docs.size()];
        Trigrams.Set set = new Trigrams.Set();
        int trigrams;
        int runs;
        long contentBytes;
        try (PairSorter sorter = new PairSorter(pairBuffer, folder);
             ContentWriter contents = new ContentWriter(folder.resolve(ShardFiles.CONTENTS))) {
            for (int doc = 0; doc < docs.size(); doc++) {
                Doc d = docs.get(doc);
                ByteBuffer content = spools.computeIfAbsent(d.spool(), ShardBuilder::map).slice((int) d.file().offset(), d.file().length());
                set.clear();
                Trigrams.collect(content, set, Integer.MAX_VALUE);
                int[] members = set.members();
                for (int i = 0; i < set.size(); i++) {
                    sorter.add(members[i], doc);
                }
                contentOffsets[doc] = contents.append(content);
            }
            contents.finish();
            contentBytes = contents.position();
            try (TrigramIndexWriter index = new TrigramIndexWriter(folder.resolve(ShardFiles.TRIGRAMS), docs.size())) {
                sorter.drain(index::add);
                index.finish();
                trigrams = index.trigramCount();
            }
            runs = sorter.runs();
        }
        try (DocTableWriter table = new DocTableWriter(folder.resolve(ShardFiles.DOCS))) {
            int[] perPackage = new int[byName.size()];
            for (int doc = 0; doc < docs.size(); doc++) {
                Doc d = docs.get(doc);
                SpooledPackage.SpooledFile f = d.file();
                table.addDoc(contentOffsets[doc], f.length(), f.path(), d.packageId(), f.rank(), f.type().ordinal(), f.lines());
                perPackage[d.packageId()]++;
            }
            for (int id = 0; id < byName.size(); id++) {
                table.addPackage(byName.get(id).name(), byName.get(id).weight(), perPackage[id]);
            }
            table.finish();
        }
        return new BuiltShard(docs.size(), byName.size(), trigrams, contentBytes,
                Files.size(folder.resolve(ShardFiles.TRIGRAMS)), Files.size(folder.resolve(ShardFiles.DOCS)), runs);
    }

    private static MappedByteBuffer map(Path spool) {
        try (FileChannel channel = FileChannel.open(spool, StandardOpenOption.READ)) {
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(spool + ": cannot map spool", e);
        }
    }
}
