package io.trigrep.indexer.format;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Reads {@code docs.tgd}: per doc its content span, path, package, static rank, file type and line count. */
public final class DocTable implements java.io.Closeable {
    private final MappedFile file;
    private final int docs;
    private final int packages;
    private final long packagesStart;
    private final long poolStart;
    private final long poolLength;

    private DocTable(MappedFile file, int docs, int packages, long packagesStart, long poolStart, long poolLength) {
        this.file = file;
        this.docs = docs;
        this.packages = packages;
        this.packagesStart = packagesStart;
        this.poolStart = poolStart;
        this.poolLength = poolLength;
    }

    public static DocTable open(Path path) throws IOException {
        MappedFile file = MappedFile.open(path);
        Envelope.check(file, Envelope.KIND_DOCS);
        long directory = file.size() - Envelope.FOOTER - DocTableWriter.DIRECTORY_BYTES;
        if (directory < Envelope.HEADER) {
            throw new CorruptIndexException(path, directory, "no room for the directory");
        }
        int docs = file.getInt(directory);
        int packages = file.getInt(directory + 4);
        long docsStart = file.getLong(directory + 8);
        long packagesStart = file.getLong(directory + 16);
        long poolStart = file.getLong(directory + 24);
        long poolLength = file.getLong(directory + 32);
        if (docs < 0
                || packages < 0
                || docsStart != Envelope.HEADER
                || docsStart + (long) docs * DocTableWriter.DOC_BYTES != packagesStart
                || packagesStart + (long) packages * DocTableWriter.PACKAGE_BYTES != poolStart
                || poolLength < 0
                || poolStart + poolLength != directory) {
            throw new CorruptIndexException(
                    path,
                    directory,
                    "directory sections do not add up (" + docs + " docs, " + packages + " packages, pool at "
                            + poolStart + " of " + poolLength + " bytes)");
        }
        return new DocTable(file, docs, packages, packagesStart, poolStart, poolLength);
    }

    public Path path() {
        return file.path();
    }

    public int docCount() {
        return docs;
    }

    public int packageCount() {
        return packages;
    }

    private long doc(int doc) {
        if (doc < 0 || doc >= docs) {
            throw new IndexOutOfBoundsException("doc must be in [0, " + docs + "), got " + doc);
        }
        return Envelope.HEADER + (long) doc * DocTableWriter.DOC_BYTES;
    }

    public long contentOffset(int doc) throws CorruptIndexException {
        return file.getLong(doc(doc));
    }

    public int contentLength(int doc) throws CorruptIndexException {
        return file.getInt(doc(doc) + 8);
    }

    public int packageId(int doc) throws CorruptIndexException {
        int id = file.getInt(doc(doc) + 16);
        if (id < 0 || id >= packages) {
            throw new CorruptIndexException(
                    file.path(), doc(doc) + 16, "package id " + id + " outside [0, " + packages + ")");
        }
        return id;
    }

    public float rank(int doc) throws CorruptIndexException {
        return Float.intBitsToFloat(file.getInt(doc(doc) + 20));
    }

    public int fileType(int doc) throws CorruptIndexException {
        return file.getInt(doc(doc) + 24) >>> 16 & 0xff;
    }

    public int lines(int doc) throws CorruptIndexException {
        return file.getInt(doc(doc) + 28);
    }

    /** The doc's path, relative to its package, as UTF-8 bytes in the mapping. */
    public ByteBuffer pathBytes(int doc) throws CorruptIndexException {
        long record = doc(doc);
        int offset = file.getInt(record + 12);
        int length = file.getInt(record + 24) & 0xffff;
        return pool(record + 12, offset, length);
    }

    public String path(int doc) throws CorruptIndexException {
        return utf8(pathBytes(doc));
    }

    public String packageName(int pkg) throws CorruptIndexException {
        long record = packageRecord(pkg);
        return utf8(pool(record, file.getInt(record), file.getInt(record + 4)));
    }

    public float packageWeight(int pkg) throws CorruptIndexException {
        return Float.intBitsToFloat(file.getInt(packageRecord(pkg) + 8));
    }

    public int packageDocCount(int pkg) throws CorruptIndexException {
        return file.getInt(packageRecord(pkg) + 12);
    }

    private long packageRecord(int pkg) {
        if (pkg < 0 || pkg >= packages) {
            throw new IndexOutOfBoundsException("package must be in [0, " + packages + "), got " + pkg);
        }
        return packagesStart + (long) pkg * DocTableWriter.PACKAGE_BYTES;
    }

    private ByteBuffer pool(long record, int offset, int length) throws CorruptIndexException {
        if (offset < 0 || length < 0 || (long) offset + length > poolLength) {
            throw new CorruptIndexException(
                    file.path(),
                    record,
                    "string [" + offset + ", +" + length + ") outside the pool of " + poolLength + " bytes");
        }
        return file.slice(poolStart + offset, length);
    }

    private static String utf8(ByteBuffer bytes) {
        byte[] out = new byte[bytes.remaining()];
        bytes.get(out);
        return new String(out, StandardCharsets.UTF_8);
    }

    /** The doc with this package and path, or -1. Scans the table: meant for one-off file fetches. */
    public int find(String packageName, String path) throws CorruptIndexException {
        int pkg = -1;
        for (int p = 0; p < packages && pkg < 0; p++) {
            if (packageName(p).equals(packageName)) {
                pkg = p;
            }
        }
        if (pkg < 0) {
            return -1;
        }
        ByteBuffer wanted = ByteBuffer.wrap(path.getBytes(StandardCharsets.UTF_8));
        for (int doc = 0; doc < docs; doc++) {
            if (file.getInt(doc(doc) + 16) == pkg && pathBytes(doc).equals(wanted)) {
                return doc;
            }
        }
        return -1;
    }

    public void verifyChecksum() throws CorruptIndexException {
        Envelope.verifyChecksum(file);
    }

    /** Unmaps the file: only once no thread reads it (see {@link MappedFile#close}). */
    @Override
    public void close() {
        file.close();
    }
}
