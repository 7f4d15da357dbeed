package io.trigrep.indexer.symbols;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.MappedFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One of {@code symbols.tgs}' string tables: offsets, then bytes. Each string is sliced from
 * the mapping on its own, so a table may be larger than one mapped span (up to the 4 GiB its
 * offsets reach).
 */
final class StringTable {
    private final MappedFile file;
    private final long offsetsAt;
    private final int count;
    private final long bytesAt;
    private final long length;

    StringTable(MappedFile file, long offsetsAt, int count) throws CorruptIndexException {
        this.file = file;
        this.offsetsAt = offsetsAt;
        this.count = count;
        this.length = file.getInt(offsetsAt + 4L * count) & 0xffffffffL;
        this.bytesAt = offsetsAt + 4L * (count + 1L);
        if (bytesAt + length > file.size()) {
            throw new CorruptIndexException(
                    file.path(), offsetsAt + 4L * count, "string table of " + length + " bytes runs past the file");
        }
    }

    int checkId(int id, long at) throws CorruptIndexException {
        if (id < 0 || id >= count) {
            throw new CorruptIndexException(file.path(), at, "string id " + id + " outside [0, " + count + ")");
        }
        return id;
    }

    ByteBuffer bytes(int id) throws CorruptIndexException {
        if (id < 0 || id >= count) {
            throw new IllegalArgumentException("id must be in [0, " + count + "), got " + id);
        }
        long start = file.getInt(offsetsAt + 4L * id) & 0xffffffffL;
        long end = file.getInt(offsetsAt + 4L * id + 4) & 0xffffffffL;
        if (end < start || end > length || end - start > MappedFile.DEFAULT_MAX_SPAN) {
            throw new CorruptIndexException(
                    file.path(),
                    offsetsAt + 4L * id,
                    "string " + id + " spans [" + start + ", " + end + ") of a " + length + "-byte table");
        }
        return file.slice(bytesAt + start, (int) (end - start));
    }

    String string(int id) throws CorruptIndexException {
        ByteBuffer b = bytes(id);
        if (b.hasArray()) {
            return new String(b.array(), b.arrayOffset() + b.position(), b.remaining(), StandardCharsets.UTF_8);
        }
        byte[] copy = new byte[b.remaining()];
        b.get(copy);
        return new String(copy, StandardCharsets.UTF_8);
    }
}
