package io.trigrep.backend;

import io.trigrep.indexer.build.IndexBuilder;
import io.trigrep.indexer.corpus.Corpus;
import io.trigrep.indexer.corpus.PackageSource;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.Shard;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/** Builds real shards from the test corpus with the real indexer. */
public final class TestShards {
    public static final Path CORPUS = Path.of("src/test/resources/corpus");

    private TestShards() {}

    public static List<Shard> build(Path corpus, Path out, int shards) throws Exception {
        return build(corpus, out, IndexBuilder.Options.defaults(shards));
    }

    public static List<Shard> build(Path corpus, Path out, IndexBuilder.Options options) throws Exception {
        int shards = options.shards();
        List<String> errors = new ArrayList<>();
        List<PackageSource> packages = Corpus.discover(List.of(corpus), out, errors::add);
        new IndexBuilder(options, Clock.systemUTC()).build(packages, out, errors::add);
        if (!errors.isEmpty()) {
            throw new AssertionError("indexing failed: " + errors);
        }
        List<Shard> opened = new ArrayList<>();
        for (int i = 0; i < shards; i++) {
            opened.add(Shard.open(out.resolve("shard-" + i)));
        }
        return opened;
    }

    /** Every indexed file: "package/path" to its path in the corpus folder. */
    public static TreeMap<String, Path> files(Shard shard, Path corpus) throws Exception {
        TreeMap<String, Path> files = new TreeMap<>();
        DocTable docs = shard.docs();
        for (int doc = 0; doc < docs.docCount(); doc++) {
            String pkg = docs.packageName(docs.packageId(doc));
            String path = docs.path(doc);
            files.put(pkg + "/" + path, corpus.resolve(pkg).resolve(path));
        }
        return files;
    }
}
