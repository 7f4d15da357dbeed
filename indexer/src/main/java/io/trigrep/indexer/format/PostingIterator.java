package io.trigrep.indexer.format;

import io.trigrep.indexer.bytes.Swar;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Iterates one posting list: doc ids in increasing order, with {@link #advance} skipping whole
 * blocks through the skip table. Decodes a block at a time into a reused array: no allocation per
 * posting, and one iterator can be {@link #reset} onto another list.
 */
public final class PostingIterator {
    public static final int NO_MORE_DOCS = Integer.MAX_VALUE;

    /** Largest block: a width byte and 128 values of 31 bits; plus 8 bytes so word reads never run off the end. */
    private static final int MAX_BLOCK_BYTES = 1 + (PostingEncoder.BLOCK * 31 + 7) / 8;

    private final int[] docs = new int[PostingEncoder.BLOCK];
    private final byte[] scratch = new byte[MAX_BLOCK_BYTES + 8];
    private int[] skipLast = new int[64];
    private int[] skipOffset = new int[64];
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
        if (blocks > 1) {
            if (skipLast.length < blocks) {
                skipLast = new int[Math.max(blocks, 2 * skipLast.length)];
                skipOffset = new int[skipLast.length];
            }
            for (int b = 0; b < blocks; b++) {
                skipLast[b] = list.getInt(8 * b);
                skipOffset[b] = list.getInt(8 * b + 4);
            }
        }
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
                doc = NO_MORE_DOCS;
                return doc;
            }
            decode(block + 1);
        }
        doc = docs[position++];
        return doc;
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
                doc = NO_MORE_DOCS;
                return doc;
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
        return skipLast[b];
    }

    private void decode(int b) throws CorruptIndexException {
        int base = b == 0 ? -1 : lastDocOf(b - 1);
        int at = blocksStart + (blocks > 1 ? skipOffset[b] : 0);
        int n = b == blocks - 1 ? count - b * PostingEncoder.BLOCK : PostingEncoder.BLOCK;
        if (at < 0 || at >= list.limit()) {
            throw corrupt(at, "block " + b + " starts outside its posting list");
        }
        int width = list.get(at) & 0xff;
        if (width > 31) {
            throw corrupt(at, "bit width " + width + " exceeds 31");
        }
        int bytes = (n * width + 7) >>> 3;
        if (at + 1 + bytes > list.limit()) {
            throw corrupt(at, "block " + b + " runs past the end of its posting list");
        }
        // One bulk copy, then word-at-a-time unpacking from the array.
        list.get(at + 1, scratch, 0, bytes);
        long mask = (1L << width) - 1;
        int previous = base;
        long bit = 0;
        for (int i = 0; i < n; i++) {
            int index = (int) (bit >>> 3);
            long word = Swar.word(scratch, index);
            previous += (int) (word >>> (bit & 7) & mask) + 1;
            bit += width;
            docs[i] = previous;
        }
        if (previous >= docLimit || previous < 0 || (blocks > 1 && previous != lastDocOf(b))) {
            throw corrupt(at, "block " + b + " decodes to doc " + previous + " (limit " + docLimit + ")");
        }
        block = b;
        inBlock = n;
        position = 0;
    }

    private CorruptIndexException corrupt(int at, String problem) {
        return new CorruptIndexException(file, fileOffset + at, "posting list: " + problem);
    }
}
