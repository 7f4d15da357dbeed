package io.trigrep.indexer.build;

import io.trigrep.indexer.format.ContentWriter;
import io.trigrep.indexer.format.DocTableWriter;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.format.ShardFiles;
import io.trigrep.indexer.format.TrigramIndexWriter;
import io.trigrep.indexer.symbols.Extraction;
import io.trigrep.indexer.symbols.SymbolExtractor;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.function.Consumer;

/**
 * Builds one shard folder from slices of spooled parts: docs ordered by static rank (best first, so
 * doc id order is search order), contents copied slice by slice, trigram postings built in bounded
 * memory, then the doc table. A package split across shards is one package record here, counting
 * the docs this shard holds. Writes into {@code folder}, which the caller renames into place.
 */
final class ShardBuilder {
    /** Files {@code [from, to)} of a part. */
    record Slice(SpooledPart part, int from, int to) {
        long startOffset() {
            return part.files().get(from).offset();
        }

        long bytes() {
            SpooledPart.SpooledFile last = part.files().get(to - 1);
            return last.offset() + last.length() - startOffset();
        }

        /** Where the slice's first file's trigrams start in the part's trigram spool, in ints. */
        long trigramStart() {
            return part.files().get(from).trigramOffset();
        }

        /** The slice's run of the trigram spool, in ints: its files' runs are back to back. */
        long trigramInts() {
            SpooledPart.SpooledFile last = part.files().get(to - 1);
            return last.trigramOffset() + last.trigrams() - trigramStart();
        }
    }

    /** A doc: its file, the file's index in its part, its package and the slice it came in. */
    record Doc(SpooledPart.SpooledFile file, int index, int packageId, String packageName, Slice slice) {}

    /**
     * Where a build's definitions come from: the extraction fed by {@code feed} as the corpus was
     * read. At most {@code writers}' permits of shards write their definitions at once, each within
     * its share of the extractor's memory budget, so the budget holds for the whole build.
     */
    record Definitions(Extraction extraction, CtagsFeed feed, Semaphore writers, int shares) {
        Definitions(Extraction extraction, CtagsFeed feed, int atOnce) {
            this(extraction, feed, new Semaphore(atOnce), atOnce);
        }
    }

    /**
     * A shard whose trigrams, contents and doc table are written; its definitions may still be
     * under way, so the next shard can be built while ctags finishes.
     */
    static final class Pending {
        private final BuiltShard built;
        private final FutureTask<SymbolExtractor.Result> definitions;
        private final List<Doc> docs;
        private final Path folder;

        private Pending(BuiltShard built, FutureTask<SymbolExtractor.Result> definitions, List<Doc> docs, Path folder) {
            this.built = built;
            this.definitions = definitions;
            this.docs = docs;
            this.folder = folder;
        }

        /** Waits for the shard's definitions (when it has any) and answers what was built. */
        BuiltShard finish(Consumer<String> phase) throws IOException {
            if (definitions == null) {
                return built;
            }
            phase.accept("definitions (ctags)");
            SymbolExtractor.Result extracted = await(definitions);
            List<IndexBuilder.SymbolFailure> named = new ArrayList<>();
            for (SymbolExtractor.Failure f : extracted.failures()) {
                Doc d = docs.get(f.doc());
                named.add(new IndexBuilder.SymbolFailure(d.packageName(), pathOf(d), f.reason()));
            }
            return new BuiltShard(
                    built.docs(),
                    built.packages(),
                    built.trigrams(),
                    built.contentBytes(),
                    built.indexBytes(),
                    built.docTableBytes(),
                    built.postingPasses(),
                    built.postingBytes(),
                    built.varintPostingBytes(),
                    extracted,
                    Files.size(folder.resolve(ShardFiles.SYMBOLS)),
                    List.copyOf(named));
        }

        /** Stops the definitions' writer (a build that failed). */
        void cancel() {
            if (definitions != null) {
                definitions.cancel(true);
            }
        }
    }

    private ShardBuilder() {}

    /** {@code symbols} null: no symbols file. */
    static Pending build(
            List<Slice> slices, Path folder, int pairBuffer, int threads, ExecutorService pool, Definitions symbols)
            throws IOException {
        List<Slice> ordered = new ArrayList<>(slices);
        ordered.sort(Comparator.comparing((Slice s) -> s.part().packageName())
                .thenComparingInt(s -> s.part().index())
                .thenComparingInt(Slice::from));
        TreeMap<String, Float> weights = new TreeMap<>();
        Map<String, GitRefs> refs = new HashMap<>();
        boolean git = false;
        for (Slice s : ordered) {
            weights.put(s.part().packageName(), s.part().weight());
            refs.put(s.part().packageName(), s.part().refs());
            git |= s.part().refs().isRepository();
        }
        Map<String, Integer> ids = new HashMap<>();
        for (String name : weights.keySet()) {
            ids.put(name, ids.size());
        }
        List<Doc> docs = new ArrayList<>();
        for (Slice s : ordered) {
            String name = s.part().packageName();
            for (int f = s.from(); f < s.to(); f++) {
                docs.add(new Doc(s.part().files().get(f), f, ids.get(name), name, s));
            }
        }
        docs.sort(Comparator.comparingDouble((Doc d) -> -d.file().rank())
                .thenComparing(Doc::packageName)
                .thenComparing((a, b) ->
                        Arrays.compareUnsigned(a.file().path(), b.file().path())));

        Files.createDirectories(folder);
        // The definitions are written on a thread of their own while the postings are built: it
        // waits for ctags to have had every file, then turns their tags into symbols.tgs.
        FutureTask<SymbolExtractor.Result> definitions = null;
        if (symbols != null) {
            Path file = folder.resolve(ShardFiles.SYMBOLS);
            definitions = new FutureTask<>(() -> extractSymbols(symbols, docs, file));
            Thread writer = new Thread(definitions, "trigrep-definitions");
            writer.setDaemon(true);
            writer.start();
        }
        int trigrams;
        long contentBytes;
        long postingBytes;
        long varintBytes;
        PostingBuckets.Outcome postings;
        try {
            // The filter collected each file's distinct trigrams once; read them instead of scanning
            // again. Each slice maps its own run of its part's spool, not the whole spool: a part split
            // over the shards (a striped package) is then resident in each shard's build only for that
            // shard's files; mapped whole, the kernel's fault-around would make nearly all of the
            // spool resident in every shard's build.
            long[] contentOffsets = new long[docs.size()];
            try (TrigramIndexWriter index = new TrigramIndexWriter(folder.resolve(ShardFiles.TRIGRAMS), docs.size())) {
                // Contents are copied on the pool while this thread (and others) build the postings.
                Future<Long> copying = pool.submit(() -> copyContents(ordered, folder, contentOffsets, docs));
                // The spools' mappings end with the arena, as soon as the postings are built, or each
                // shard's would stay resident until a collection. After a failure a posting worker may
                // still run: its next read of a spool throws instead of reading freed memory.
                try (Arena spoolMaps = Arena.ofShared()) {
                    IdentityHashMap<Slice, ByteBuffer> spools = new IdentityHashMap<>();
                    ByteBuffer[] docSpools = new ByteBuffer[docs.size()];
                    int[] docAts = new int[docs.size()];
                    int[] docCounts = new int[docs.size()];
                    for (int doc = 0; doc < docs.size(); doc++) {
                        Doc d = docs.get(doc);
                        docSpools[doc] = spools.computeIfAbsent(d.slice(), slice -> mapTrigrams(slice, spoolMaps));
                        docAts[doc] = Math.toIntExact(
                                4 * (d.file().trigramOffset() - d.slice().trigramStart()));
                        docCounts[doc] = d.file().trigrams();
                    }
                    postings = PostingBuckets.build(
                            new PostingBuckets.DocTrigrams(docSpools, docAts, docCounts),
                            pairBuffer,
                            threads,
                            pool,
                            index,
                            folder);
                }
                contentBytes = await(copying);
                index.finish();
                trigrams = index.trigramCount();
                postingBytes = index.postingBytes();
                varintBytes = index.varintPostingBytes();
            }
            try (DocTableWriter table = new DocTableWriter(folder.resolve(ShardFiles.DOCS), git)) {
                int[] perPackage = new int[weights.size()];
                for (int doc = 0; doc < docs.size(); doc++) {
                    Doc d = docs.get(doc);
                    SpooledPart.SpooledFile f = d.file();
                    table.addDoc(
                            contentOffsets[doc],
                            f.length(),
                            f.path(),
                            d.packageId(),
                            f.rank(),
                            f.type().id(),
                            f.lines(),
                            f.branches());
                    perPackage[d.packageId()]++;
                }
                int id = 0;
                for (Map.Entry<String, Float> p : weights.entrySet()) {
                    table.addPackage(p.getKey(), p.getValue(), perPackage[id++], refs.get(p.getKey()));
                }
                table.finish();
            }
        } catch (IOException | RuntimeException e) {
            if (definitions != null) {
                definitions.cancel(true);
            }
            throw e;
        }
        return new Pending(
                new BuiltShard(
                        docs.size(),
                        weights.size(),
                        trigrams,
                        contentBytes,
                        Files.size(folder.resolve(ShardFiles.TRIGRAMS)),
                        Files.size(folder.resolve(ShardFiles.DOCS)),
                        postings.ranges(),
                        postingBytes,
                        varintBytes,
                        null,
                        0,
                        List.of()),
                definitions,
                docs,
                folder);
    }

    private static String pathOf(Doc d) {
        return new String(d.file().path(), StandardCharsets.UTF_8);
    }

    /**
     * The docs' definitions, in doc order, from the tags ctags spilled while the corpus was read
     * (waiting for it to have every file first, then for a writer's permit).
     */
    private static SymbolExtractor.Result extractSymbols(Definitions definitions, List<Doc> docs, Path out)
            throws IOException, InterruptedException {
        Map<SpooledPart, Extraction.Batch> batches = definitions.feed().batches();
        definitions.writers().acquire();
        try {
            return writeSymbols(definitions, batches, docs, out);
        } finally {
            definitions.writers().release();
        }
    }

    private static SymbolExtractor.Result writeSymbols(
            Definitions definitions, Map<SpooledPart, Extraction.Batch> batches, List<Doc> docs, Path out)
            throws IOException {
        Extraction.Batch[] batchOf = new Extraction.Batch[docs.size()];
        for (int doc = 0; doc < docs.size(); doc++) {
            batchOf[doc] = batches.get(docs.get(doc).slice().part());
            if (batchOf[doc] == null) {
                throw new IllegalStateException("doc " + doc + " (" + pathOf(docs.get(doc)) + ") never went to ctags");
            }
        }
        return definitions
                .extraction()
                .write(
                        new Extraction.ShardDocs() {
                            @Override
                            public int count() {
                                return docs.size();
                            }

                            @Override
                            public Extraction.Batch batch(int doc) {
                                return batchOf[doc];
                            }

                            @Override
                            public int file(int doc) {
                                return docs.get(doc).index();
                            }
                        },
                        out,
                        definitions.shares());
    }

    /**
     * Contents slice by slice (package order, then read order), read through one buffer rather
     * than mapped (a mapping would count the whole corpus in the process's resident memory);
     * records where each doc landed.
     */
    private static long copyContents(List<Slice> ordered, Path folder, long[] contentOffsets, List<Doc> docs)
            throws IOException {
        IdentityHashMap<Slice, Long> sliceBase = new IdentityHashMap<>();
        long bytes;
        try (ContentWriter contents = new ContentWriter(folder.resolve(ShardFiles.CONTENTS))) {
            for (Slice s : ordered) {
                try (FileChannel spool = FileChannel.open(s.part().spool(), StandardOpenOption.READ)) {
                    sliceBase.put(s, contents.appendRange(spool, s.startOffset(), s.bytes()));
                }
            }
            contents.finish();
            bytes = contents.position();
        }
        for (int doc = 0; doc < docs.size(); doc++) {
            Doc d = docs.get(doc);
            contentOffsets[doc] =
                    sliceBase.get(d.slice()) + d.file().offset() - d.slice().startOffset();
        }
        return bytes;
    }

    /** The task's result; its IOException or RuntimeException rethrown as is. */
    static <T> T await(Future<T> work) throws IOException {
        try {
            return work.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while building a shard");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(e.getCause());
        }
    }

    /** The slice's run of its part's trigram spool, mapped in {@code arena}. */
    private static ByteBuffer mapTrigrams(Slice slice, Arena arena) {
        Path spool = slice.part().trigramSpool();
        try (FileChannel channel = FileChannel.open(spool, StandardOpenOption.READ)) {
            return channel.map(FileChannel.MapMode.READ_ONLY, 4 * slice.trigramStart(), 4 * slice.trigramInts(), arena)
                    .asByteBuffer()
                    .order(ByteOrder.LITTLE_ENDIAN);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(spool + ": cannot map spool", e);
        }
    }
}
