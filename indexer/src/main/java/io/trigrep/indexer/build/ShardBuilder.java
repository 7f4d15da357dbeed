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
        Map<Path, MappedByteBuffer> spools = new java.util.concurrent.ConcurrentHashMap<>();
        long[] contentOffsets = new long[docs.size()];
        int trigrams;
        long contentBytes;
        long postingBytes;
        long varintBytes;
        int slices = Math.max(1, Math.min(threads, docs.size() / 1000 + 1));
        List<PairSorter> sorters = new ArrayList<>();
        try {
            // Trigram pairs for slices of the docs in parallel; contents copied meanwhile on this thread.
            List<java.util.concurrent.Future<?>> work = new ArrayList<>();
            for (int s = 0; s < slices; s++) {
                PairSorter sorter = new PairSorter(Math.max(1024, pairBuffer / slices), folder, Integer.toString(s));
                sorters.add(sorter);
                int from = (int) ((long) docs.size() * s / slices);
                int to = (int) ((long) docs.size() * (s + 1) / slices);
                work.add(pool.submit(() -> {
                    for (int doc = from; doc < to; doc++) {
                        Doc d = docs.get(doc);
                        // The filter collected each file's distinct trigrams once; read them instead of scanning again.
                        ByteBuffer docTrigrams = spools.computeIfAbsent(d.trigramSpool(), ShardBuilder::map);
                        int at = Math.toIntExact(4 * d.file().trigramOffset());
                        for (int i = 0; i < d.file().trigrams(); i++) {
                            sorter.add(docTrigrams.getInt(at + 4 * i), doc);
                        }
                    }
                    sorter.finishFilling();
                    return null;
                }));
            }
            // Contents go in package order, one kernel copy per package spool; docs point into it.
            Map<Path, Long> packageBase = new HashMap<>();
            try (ContentWriter contents = new ContentWriter(folder.resolve(ShardFiles.CONTENTS))) {
                for (SpooledPackage p : byName) {
                    try (FileChannel spool = FileChannel.open(p.spool(), StandardOpenOption.READ)) {
                        packageBase.put(p.spool(), contents.appendFile(spool, spools.computeIfAbsent(p.spool(), ShardBuilder::map).duplicate()));
                    }
                }
                contents.finish();
                contentBytes = contents.position();
            }
            for (int doc = 0; doc < docs.size(); doc++) {
                Doc d = docs.get(doc);
                contentOffsets[doc] = packageBase.get(d.spool()) + d.file().offset();
            }
            for (java.util.concurrent.Future<?> w : work) {
                await(w);
            }
            try (TrigramIndexWriter index = new TrigramIndexWriter(folder.resolve(ShardFiles.TRIGRAMS), docs.size())) {
                // Each thread encodes the lists of one trigram range into a part; parts are appended in order.
                int[] bounds = PairSorter.split(sorters, slices);
                List<TrigramIndexWriter.Part> parts = new ArrayList<>();
                List<java.util.concurrent.Future<?>> encoding = new ArrayList<>();
                for (int r = 0; r < slices; r++) {
                    TrigramIndexWriter.Part part = index.newPart(folder.resolve("part-" + r));
                    parts.add(part);
                    int from = bounds[r];
                    int to = bounds[r + 1];
                    encoding.add(pool.submit(() -> {
                        PairSorter.drain(sorters, from, to, part::add);
                        return null;
                    }));
                }
                for (java.util.concurrent.Future<?> e : encoding) {
                    await(e);
                }
                for (TrigramIndexWriter.Part part : parts) {
                    index.append(part);
                }
                index.finish();
                trigrams = index.trigramCount();
                postingBytes = index.postingBytes();
                varintBytes = index.varintPostingBytes();
            }
        } finally {
            for (PairSorter sorter : sorters) {
                sorter.close();
            }
        }
        int runs = sorters.stream().mapToInt(PairSorter::runs).sum();
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
                Files.size(folder.resolve(ShardFiles.TRIGRAMS)), Files.size(folder.resolve(ShardFiles.DOCS)), runs, postingBytes, varintBytes);
    }

    private static void await(java.util.concurrent.Future<?> work) throws IOException {
        try {
            work.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while building a shard");
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
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
