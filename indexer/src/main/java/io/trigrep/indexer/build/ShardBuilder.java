package io.trigrep.indexer.build;

import io.trigrep.indexer.format.ContentWriter;
import io.trigrep.indexer.format.DocTableWriter;
import io.trigrep.indexer.format.ShardFiles;
import io.trigrep.indexer.format.TrigramIndexWriter;
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
    record Doc(SpooledPackage.SpooledFile file, int packageId, String packageName, Path spool, Path trigramSpool) {}


    private ShardBuilder() {}

    static BuiltShard build(List<SpooledPackage> packages, Path folder, int pairBuffer, int threads,
            java.util.concurrent.ExecutorService pool) throws IOException {
        List<SpooledPackage> byName = new ArrayList<>(packages);
        byName.sort(Comparator.comparing(SpooledPackage::name));
        List<Doc> docs = new ArrayList<>();
        for (int id = 0; id < byName.size(); id++) {
            SpooledPackage p = byName.get(id);
            for (SpooledPackage.SpooledFile f : p.files()) {
                docs.add(new Doc(f, id, p.name(), p.spool(), p.trigramSpool()));
            }
        }
        docs.sort(Comparator.comparingDouble((Doc d) -> -d.file().rank())
                .thenComparing(Doc::packageName)
                .thenComparing((a, b) -> Arrays.compareUnsigned(a.file().path(), b.file().path())));

        Files.createDirectories(folder);
        Map<Path, MappedByteBuffer> spools = new HashMap<>();
        long[] contentOffsets = new long[docs.size()];
        ByteBuffer[] docSpools = new ByteBuffer[docs.size()];
        int[] docAts = new int[docs.size()];
        int[] docCounts = new int[docs.size()];
        for (int doc = 0; doc < docs.size(); doc++) {
            Doc d = docs.get(doc);
            // The filter collected each file's distinct trigrams once; read them instead of scanning again.
            docSpools[doc] = spools.computeIfAbsent(d.trigramSpool(), ShardBuilder::map);
            docAts[doc] = Math.toIntExact(4 * d.file().trigramOffset());
            docCounts[doc] = d.file().trigrams();
        }
        for (SpooledPackage p : byName) {
            spools.computeIfAbsent(p.spool(), ShardBuilder::map);
        }
        int trigrams;
        long contentBytes;
        long postingBytes;
        long varintBytes;
        PostingBuckets.Outcome postings;
        try (TrigramIndexWriter index = new TrigramIndexWriter(folder.resolve(ShardFiles.TRIGRAMS), docs.size())) {
            // Contents are copied on the pool while this thread (and others) build the postings.
            java.util.concurrent.Future<Long> copying = pool.submit(() -> copyContents(byName, spools, folder, contentOffsets, docs));
            postings = PostingBuckets.build(new PostingBuckets.DocTrigrams(docSpools, docAts, docCounts), pairBuffer, threads, pool,
                    index, folder);
            contentBytes = await(copying);
            index.finish();
            trigrams = index.trigramCount();
            postingBytes = index.postingBytes();
            varintBytes = index.varintPostingBytes();
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
                Files.size(folder.resolve(ShardFiles.TRIGRAMS)), Files.size(folder.resolve(ShardFiles.DOCS)), postings.ranges(), postingBytes, varintBytes);
    }

    /** Contents in package order, one kernel copy per package spool; records where each doc landed. */
    private static long copyContents(List<SpooledPackage> byName, Map<Path, MappedByteBuffer> spools, Path folder, long[] contentOffsets,
            List<Doc> docs) throws IOException {
        Map<Path, Long> packageBase = new HashMap<>();
        long bytes;
        try (ContentWriter contents = new ContentWriter(folder.resolve(ShardFiles.CONTENTS))) {
            for (SpooledPackage p : byName) {
                try (FileChannel spool = FileChannel.open(p.spool(), StandardOpenOption.READ)) {
                    packageBase.put(p.spool(), contents.appendFile(spool, spools.get(p.spool()).duplicate()));
                }
            }
            contents.finish();
            bytes = contents.position();
        }
        for (int doc = 0; doc < docs.size(); doc++) {
            Doc d = docs.get(doc);
            contentOffsets[doc] = packageBase.get(d.spool()) + d.file().offset();
        }
        return bytes;
    }

    /** The task's result; its IOException or RuntimeException rethrown as is. */
    static <T> T await(java.util.concurrent.Future<T> work) throws IOException {
        try {
            return work.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while building a shard");
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(e.getCause());
        }
    }

    private static MappedByteBuffer map(Path spool) {
        try (FileChannel channel = FileChannel.open(spool, StandardOpenOption.READ)) {
            MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            map.order(java.nio.ByteOrder.LITTLE_ENDIAN);
            return map;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(spool + ": cannot map spool", e);
        }
    }
}
