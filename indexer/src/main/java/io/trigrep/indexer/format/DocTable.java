package io.trigrep.indexer.format;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads {@code docs.tgd}: per doc its content span, path, package, static rank, file type and line
 * count; in version 2 also its branch mask, and per package its branches and link template.
 */
public final class DocTable implements Closeable {
    private final MappedFile file;
    private final int docs;
    private final int packages;
    private final long packagesStart;
    private final long poolStart;
    private final long poolLength;
    /** Version 2's sections; masksStart -1 in version 1. */
    private final long masksStart;

    private final GitRefs[] refs;

    private DocTable(
            MappedFile file,
            int docs,
            int packages,
            long packagesStart,
            long poolStart,
            long poolLength,
            long masksStart,
            GitRefs[] refs) {
        this.file = file;
        this.docs = docs;
        this.packages = packages;
        this.packagesStart = packagesStart;
        this.poolStart = poolStart;
        this.poolLength = poolLength;
        this.masksStart = masksStart;
        this.refs = refs;
    }

    public static DocTable open(Path path) throws IOException {
        MappedFile file = MappedFile.open(path);
        int version = Envelope.check(file, Envelope.KIND_DOCS, DocTableWriter.GIT_VERSION);
        boolean git = version == DocTableWriter.GIT_VERSION;
        long directory = file.size()
                - Envelope.FOOTER
                - (git ? DocTableWriter.GIT_DIRECTORY_BYTES : DocTableWriter.DIRECTORY_BYTES);
        if (directory < Envelope.HEADER) {
            throw new CorruptIndexException(path, directory, "no room for the directory");
        }
        int docs = file.getInt(directory);
        int packages = file.getInt(directory + 4);
        long docsStart = file.getLong(directory + 8);
        long packagesStart = file.getLong(directory + 16);
        long poolStart = file.getLong(directory + 24);
        long poolLength = file.getLong(directory + 32);
        long masksStart = git ? file.getLong(directory + 40) : -1;
        long reposStart = git ? file.getLong(directory + 48) : -1;
        long branchesStart = git ? file.getLong(directory + 56) : -1;
        int branches = git ? file.getInt(directory + 64) : 0;
        long poolEnd = git ? masksStart : directory;
        if (docs < 0
                || packages < 0
                || docsStart != Envelope.HEADER
                || docsStart + (long) docs * DocTableWriter.DOC_BYTES != packagesStart
                || packagesStart + (long) packages * DocTableWriter.PACKAGE_BYTES != poolStart
                || poolLength < 0
                || poolStart + poolLength != poolEnd
                || (git
                        && (branches < 0
                                || masksStart + 8L * docs != reposStart
                                || reposStart + (long) packages * DocTableWriter.REPO_BYTES != branchesStart
                                || branchesStart + (long) branches * DocTableWriter.BRANCH_BYTES != directory))) {
            throw new CorruptIndexException(
                    path,
                    directory,
                    "directory sections do not add up (" + docs + " docs, " + packages + " packages, pool at "
                            + poolStart + " of " + poolLength + " bytes"
                            + (git ? ", " + branches + " branches" : "") + ")");
        }
        DocTable table = new DocTable(file, docs, packages, packagesStart, poolStart, poolLength, masksStart, null);
        GitRefs[] refs = new GitRefs[packages];
        for (int p = 0; p < packages; p++) {
            refs[p] = git
                    ? table.readRefs(reposStart + (long) p * DocTableWriter.REPO_BYTES, branchesStart, branches)
                    : GitRefs.NONE;
        }
        return new DocTable(file, docs, packages, packagesStart, poolStart, poolLength, masksStart, refs);
    }

    private GitRefs readRefs(long record, long branchesStart, int branchCount) throws CorruptIndexException {
        int first = file.getInt(record);
        int count = file.getInt(record + 4);
        if (first < 0 || count < 0 || count > GitRefs.MAX_BRANCHES || (long) first + count > branchCount) {
            throw new CorruptIndexException(
                    file.path(),
                    record,
                    "branches [" + first + ", +" + count + ") outside the " + branchCount + " branch records");
        }
        String links = utf8(pool(record + 8, file.getInt(record + 8), file.getInt(record + 12)));
        List<GitRefs.Branch> list = new ArrayList<>(count);
        for (int b = first; b < first + count; b++) {
            long at = branchesStart + (long) b * DocTableWriter.BRANCH_BYTES;
            list.add(new GitRefs.Branch(
                    utf8(pool(at, file.getInt(at), file.getInt(at + 4))),
                    utf8(pool(at + 8, file.getInt(at + 8), file.getInt(at + 12)))));
        }
        return new GitRefs(list, links);
    }

    /** The doc's branch mask: bit i set when branch i of its package's {@link #refs} holds it; 0 outside a repository. */
    public long branches(int doc) throws CorruptIndexException {
        doc(doc);
        return masksStart < 0 ? 0 : file.getLong(masksStart + 8L * doc);
    }

    /** The package's branches and link template; {@link GitRefs#NONE} for a package that is not a git repository. */
    public GitRefs refs(int pkg) {
        packageRecord(pkg);
        return refs[pkg];
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
        return find(packageName, path, "");
    }

    /**
     * The doc with this package and path in {@code branch} of the repository (any branch when
     * empty: the first, in search order), or -1.
     */
    public int find(String packageName, String path, String branch) throws CorruptIndexException {
        int pkg = -1;
        for (int p = 0; p < packages && pkg < 0; p++) {
            if (packageName(p).equals(packageName)) {
                pkg = p;
            }
        }
        if (pkg < 0) {
            return -1;
        }
        long mask = -1;
        if (!branch.isEmpty()) {
            mask = 0;
            List<GitRefs.Branch> branches = refs[pkg].branches();
            for (int b = 0; b < branches.size(); b++) {
                if (branches.get(b).name().equals(branch)) {
                    mask = 1L << b;
                }
            }
        }
        ByteBuffer wanted = ByteBuffer.wrap(path.getBytes(StandardCharsets.UTF_8));
        for (int doc = 0; doc < docs; doc++) {
            if (file.getInt(doc(doc) + 16) == pkg
                    && pathBytes(doc).equals(wanted)
                    && (mask == -1 || (branches(doc) & mask) != 0)) {
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
