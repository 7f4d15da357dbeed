package io.trigrep.indexer.format;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A shard opened for search: its trigram index, doc table and contents, all mapped. Opening
 * checks headers, footers and directories (constant time, whatever the size); {@link #verify}
 * reads every byte against the checksums.
 */
public final class Shard implements Closeable {
    private final Path folder;
    private final Manifest manifest;
    private final TrigramIndex index;
    private final DocTable docs;
    private final ContentStore contents;

    private Shard(Path folder, Manifest manifest, TrigramIndex index, DocTable docs, ContentStore contents) {
        this.folder = folder;
        this.manifest = manifest;
        this.index = index;
        this.docs = docs;
        this.contents = contents;
    }

    public static Shard open(Path folder) throws IOException {
        Path manifestFile = folder.resolve(ShardFiles.MANIFEST);
        if (!Files.isRegularFile(manifestFile)) {
            throw new CorruptIndexException(manifestFile, 0, "missing: " + folder + " is not a complete shard");
        }
        Manifest manifest = Manifest.read(manifestFile);
        TrigramIndex index = TrigramIndex.open(folder.resolve(ShardFiles.TRIGRAMS));
        DocTable docs = DocTable.open(folder.resolve(ShardFiles.DOCS));
        ContentStore contents = ContentStore.open(folder.resolve(ShardFiles.CONTENTS));
        if (index.docCount() != docs.docCount() || docs.docCount() != manifest.docs()) {
            throw new CorruptIndexException(
                    index.path(),
                    0,
                    "index counts " + index.docCount() + " docs, doc table " + docs.docCount() + ", manifest "
                            + manifest.docs());
        }
        return new Shard(folder, manifest, index, docs, contents);
    }

    /** Reads every file completely and checks its CRC32C. */
    public void verify() throws CorruptIndexException {
        index.verifyChecksum();
        docs.verifyChecksum();
        contents.verifyChecksum();
    }

    public Path folder() {
        return folder;
    }

    /**
     * {@code message} with this shard's folder written as its name ({@code shard-0/docs.tgd}, not
     * {@code /srv/trigrep/shards/shard-0/docs.tgd}): for answers that leave the server, which
     * must not show how its disks are laid out.
     */
    public String withoutPaths(String message) {
        String absolute = folder.toAbsolutePath().normalize().toString();
        String named = message.replace(absolute, manifest.shard());
        return folder.toString().equals(absolute) ? named : named.replace(folder.toString(), manifest.shard());
    }

    public Manifest manifest() {
        return manifest;
    }

    public TrigramIndex index() {
        return index;
    }

    public DocTable docs() {
        return docs;
    }

    public ContentStore contents() {
        return contents;
    }

    /** The bytes of one doc's file, as a view of the mapping. */
    public ByteBuffer content(int doc) throws CorruptIndexException {
        return contents.content(docs.contentOffset(doc), docs.contentLength(doc));
    }

    /**
     * Unmaps the shard's files. Only for a shard no search reads any more: a server closes a
     * replaced generation's shards once its last query ended (any later read would crash).
     */
    @Override
    public void close() {
        index.close();
        docs.close();
        contents.close();
    }
}
