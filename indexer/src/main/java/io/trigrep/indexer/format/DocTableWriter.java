package io.trigrep.indexer.format;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;

/** Writes {@code docs.tgd}: doc records in doc-id order, package records, then the string pool (FORMAT.md). */
public final class DocTableWriter implements AutoCloseable {
    static final int DOC_BYTES = 32;
    static final int PACKAGE_BYTES = 16;
    static final int DIRECTORY_BYTES = 40;
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

    public DocTableWriter(Path path) throws IOException {
        this.out = new FormatOutput(path, Envelope.KIND_DOCS);
    }

    /** Records one doc; doc ids are given in order of these calls, from 0. Packages are added after all docs. */
    public void addDoc(
            long contentOffset, int contentLength, byte[] path, int packageId, float rank, int fileType, int lines)
            throws IOException {
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
        out.write(pool, 0, poolLength);
        out.writeInt(docs);
        out.writeInt(packages);
        out.writeLong(Envelope.HEADER);
        out.writeLong(packagesStart);
        out.writeLong(poolStart);
        out.writeLong(poolLength);
        out.finish();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}
