package io.trigrep.indexer.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Writes {@code docs.tgd}: doc records in doc-id order, package records, then the string pool; in
 * version 2 (a shard holding a git repository) then each doc's branch mask, each package's
 * repository record and the branch records (FORMAT.md).
 */
public final class DocTableWriter implements AutoCloseable {
    static final int DOC_BYTES = 32;
    static final int PACKAGE_BYTES = 16;
    static final int DIRECTORY_BYTES = 40;
    static final int GIT_VERSION = 2;
    static final int REPO_BYTES = 16;
    static final int BRANCH_BYTES = 16;
    static final int GIT_DIRECTORY_BYTES = 72;
    public static final int MAX_PATH_BYTES = 0xffff;

    private final FormatOutput out;
    private byte[] pool = new byte[1 << 16];
    private int poolLength;
    private int docs;
    private int[] packageNameOffsets = new int[16];
    private int[] packageNameLengths = new int[16];
    private float[] packageWeights = new float[16];
    private int[] packageDocs = new int[16];
    private int packages;
    private boolean docsDone;
    private final boolean git;
    private long[] masks = new long[0];
    private final List<GitRefs> repos = new ArrayList<>();

    /** Version 1: no package is a git repository. */
    public DocTableWriter(Path path) throws IOException {
        this(path, false);
    }

    /** {@code git}: version 2, with branch masks and repository records. */
    public DocTableWriter(Path path, boolean git) throws IOException {
        this.out = new FormatOutput(path, Envelope.KIND_DOCS, git ? GIT_VERSION : Envelope.VERSION);
        this.git = git;
    }

    /** As {@link #addDoc(long, int, byte[], int, float, int, int, long)} for a doc of no branch. */
    public void addDoc(
            long contentOffset, int contentLength, byte[] path, int packageId, float rank, int fileType, int lines)
            throws IOException {
        addDoc(contentOffset, contentLength, path, packageId, rank, fileType, lines, 0);
    }

    /**
     * Records one doc; doc ids are given in order of these calls, from 0. Packages are added after
     * all docs. {@code branches}: the doc's branch mask (0 outside a repository).
     */
    public void addDoc(
            long contentOffset,
            int contentLength,
            byte[] path,
            int packageId,
            float rank,
            int fileType,
            int lines,
            long branches)
            throws IOException {
        if (branches != 0 && !git) {
            throw new IllegalStateException(
                    "a branch mask needs a version 2 doc table (new DocTableWriter(path, true))");
        }
        if (git) {
            if (docs == masks.length) {
                masks = Arrays.copyOf(masks, Math.max(16, 2 * docs));
            }
            masks[docs] = branches;
        }
        if (docsDone) {
            throw new IllegalStateException("docs must all be added before the first package");
        }
        if (path.length > MAX_PATH_BYTES) {
            throw new IllegalArgumentException("path must be at most " + MAX_PATH_BYTES + " bytes, got " + path.length);
        }
        out.writeLong(contentOffset);
        out.writeInt(contentLength);
        out.writeInt(intern(path));
        out.writeInt(packageId);
        out.writeFloat(rank);
        out.writeShort(path.length);
        out.writeByte(fileType);
        out.writeByte(0);
        out.writeInt(lines);
        docs++;
    }

    /** Records package {@code id} = the number of packages added before it. */
    public void addPackage(String name, float weight, int docCount) throws IOException {
        addPackage(name, weight, docCount, GitRefs.NONE);
    }

    /** As {@link #addPackage(String, float, int)}, for a package that may be a git repository. */
    public void addPackage(String name, float weight, int docCount, GitRefs refs) throws IOException {
        if (refs.isRepository() && !git) {
            throw new IllegalStateException(
                    "a repository needs a version 2 doc table (new DocTableWriter(path, true))");
        }
        repos.add(refs);
        docsDone = true;
        if (packages == packageDocs.length) {
            packageNameOffsets = Arrays.copyOf(packageNameOffsets, packages * 2);
            packageNameLengths = Arrays.copyOf(packageNameLengths, packages * 2);
            packageWeights = Arrays.copyOf(packageWeights, packages * 2);
            packageDocs = Arrays.copyOf(packageDocs, packages * 2);
        }
        byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
        packageNameOffsets[packages] = intern(bytes);
        packageNameLengths[packages] = bytes.length;
        packageWeights[packages] = weight;
        packageDocs[packages] = docCount;
        packages++;
    }

    private int intern(byte[] bytes) {
        if (poolLength + bytes.length > pool.length) {
            long grown = Math.max(2L * pool.length, (long) poolLength + bytes.length);
            if (grown > Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("string pool over 2 GiB: too many paths for one shard");
            }
            pool = Arrays.copyOf(pool, (int) grown);
        }
        int at = poolLength;
        System.arraycopy(bytes, 0, pool, poolLength, bytes.length);
        poolLength += bytes.length;
        return at;
    }

    public void finish() throws IOException {
        long packagesStart = out.position();
        for (int i = 0; i < packages; i++) {
            out.writeInt(packageNameOffsets[i]);
            out.writeInt(packageNameLengths[i]);
            out.writeFloat(packageWeights[i]);
            out.writeInt(packageDocs[i]);
        }
        long poolStart = out.position();
        // Version 2's strings go to the pool too, so they are interned before it is written.
        int[] repoFields = new int[4 * packages];
        List<int[]> branchFields = new ArrayList<>();
        if (git) {
            for (int p = 0; p < packages; p++) {
                GitRefs refs = repos.get(p);
                byte[] links = refs.links().getBytes(StandardCharsets.UTF_8);
                repoFields[4 * p] = branchFields.size();
                repoFields[4 * p + 1] = refs.branches().size();
                repoFields[4 * p + 2] = intern(links);
                repoFields[4 * p + 3] = links.length;
                for (GitRefs.Branch b : refs.branches()) {
                    byte[] name = b.name().getBytes(StandardCharsets.UTF_8);
                    byte[] commit = b.commit().getBytes(StandardCharsets.UTF_8);
                    branchFields.add(new int[] {intern(name), name.length, intern(commit), commit.length});
                }
            }
        }
        out.write(pool, 0, poolLength);
        long masksStart = out.position();
        long reposStart = masksStart;
        long branchesStart = masksStart;
        if (git) {
            for (int d = 0; d < docs; d++) {
                out.writeLong(masks[d]);
            }
            reposStart = out.position();
            for (int field : repoFields) {
                out.writeInt(field);
            }
            branchesStart = out.position();
            for (int[] b : branchFields) {
                for (int field : b) {
                    out.writeInt(field);
                }
            }
        }
        out.writeInt(docs);
        out.writeInt(packages);
        out.writeLong(Envelope.HEADER);
        out.writeLong(packagesStart);
        out.writeLong(poolStart);
        out.writeLong(poolLength);
        if (git) {
            out.writeLong(masksStart);
            out.writeLong(reposStart);
            out.writeLong(branchesStart);
            out.writeInt(branchFields.size());
            out.writeInt(0);
        }
        out.finish();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
