package io.trigrep.indexer.format;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Iterates one posting list: doc ids in increasing order, with {@link #advance} skipping whole
 * blocks through the skip table. Decodes a block at a time into a reused array: no allocation per
 * posting, and one iterator can be {@link #reset} onto another list.
 */
public final class PostingIterator {
    public static final int NO_MORE_DOCS = Integer.MAX_VALUE;

    private final int[] docs = new int[PostingEncoder.BLOCK];
    private ByteBuffer list;
    private Path file;
    private long fileOffset;
    private int count;
    private int docLimit;
    private int blocks;
    private int blocksStart;
    private int block;
    private int inBlock;
    private int position;
    private int doc;

    /**
     * Points this iterator at a list of {@code count} docs encoded in {@code list} (position 0 to
     * limit). Doc ids at or above {@code docLimit} mean corruption. {@code file} and
     * {@code fileOffset} only name the place in errors.
     */
    public PostingIterator reset(ByteBuffer list, int count, int docLimit, Path file, long fileOffset) {
        this.list = list;
        this.count = count;
        this.docLimit = docLimit;
        this.file = file;
        this.fileOffset = fileOffset;
        this.blocks = (count + PostingEncoder.BLOCK - 1) / PostingEncoder.BLOCK;
        this.blocksStart = blocks > 1 ? 8 * blocks : 0;
        this.block = -1;
        this.inBlock = 0;
        this.position = 0;
        this.doc = -1;
        return this;
    }

    /** Number of docs in the list: what intersection orders lists by. */
    public int cost() {
        return count;
    }

    /** The current doc, -1 before the first {@link #next}, {@link #NO_MORE_DOCS} at the end. */
    public int docId() {
        return doc;
    }

    public int next() throws CorruptIndexException {
        if (position == inBlock) {
            if (block + 1 >= blocks) {
                return doc = NO_MORE_DOCS;
            }
            decode(block + 1);
        }
        return doc = docs[position++];
    }

    /** Moves to the first doc at or after {@code target} and returns it. */
    public int advance(int target) throws CorruptIndexException {
        if (doc >= target) {
            return doc;
        }
        if (blocks > 1 && (block < 0 || lastDocOf(block) < target)) {
            int b = Math.max(block, 0);
            while (b < blocks && lastDocOf(b) < target) {
                b++;
            }
            if (b == blocks) {
                position = inBlock;
                block = blocks;
                return doc = NO_MORE_DOCS;
            }
            if (b != block) {
                decode(b);
            }
        }
        while (true) {
            int d = next();
            if (d >= target) {
                return d;
            }
        }
    }

    private int lastDocOf(int b) {
        return list.getInt(8 * b);
    }

    private void decode(int b) throws CorruptIndexException {
        int base = b == 0 ? -1 : lastDocOf(b - 1);
        int at = blocksStart + (blocks > 1 ? list.getInt(8 * b + 4) : 0);
        int n = b == blocks - 1 ? count - b * PostingEncoder.BLOCK : PostingEncoder.BLOCK;
        try {
            int width = list.get(at++) & 0xff;
            if (width > 31) {
                throw corrupt(at - 1, "bit width " + width + " exceeds 31");
            }
            long mask = (1L << width) - 1;
            long accumulator = 0;
            int bits = 0;
            int previous = base;
            for (int i = 0; i < n; i++) {
                while (bits < width) {
                    accumulator |= (long) (list.get(at++) & 0xff) << bits;
                    bits += 8;
                }
                previous += (int) (accumulator & mask) + 1;
                accumulator >>>= width;
                bits -= width;
                docs[i] = previous;
            }
            if (previous >= docLimit || previous < 0 || (blocks > 1 && previous != lastDocOf(b))) {
                throw corrupt(at, "block " + b + " decodes to doc " + previous + " (limit " + docLimit + ")");
            }
        } catch (IndexOutOfBoundsException e) {
            throw corrupt(at, "block " + b + " runs past the end of its posting list");
        }
        block = b;
        inBlock = n;
        position = 0;
    }

    private CorruptIndexException corrupt(int at, String problem) {
        return new CorruptIndexException(file, fileOffset + at, "posting list: " + problem);
    }
}
