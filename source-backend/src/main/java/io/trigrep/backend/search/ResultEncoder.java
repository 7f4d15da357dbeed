package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.trigrep.indexer.filetype.FileType;
import io.trigrep.proto.FileMatch;
import io.trigrep.proto.FileResultsWriter;
import io.trigrep.proto.GitRefBytes;
import io.trigrep.proto.MatchLines;
import io.trigrep.proto.ResultWriter;
import java.nio.charset.StandardCharsets;

/**
 * Encodes a worker's results, a Result per line or FileResults per file, with their context
 * lines, into batches that go to its sink. One per worker, reused file after file; not thread-safe.
 */
final class ResultEncoder {
    /**
     * Results go to the connection in batches of this many bytes (or fewer, at a chunk's end).
     * Each batch is a task for the event loop, which it wakes when idle: few large batches keep
     * a result-heavy stream's wake-ups and context switches rare (BENCHMARKS.md, "Tried and dropped").
     */
    static final int BATCH_BYTES = 256 << 10;
    /**
     * A batch's buffer holds this much more than its batch: a batch goes out once it holds
     * {@code batchBytes}, so its last frame goes past that, and a buffer without room for it grew
     * (a new buffer, and a copy of the batch) in most batches.
     */
    static final int BATCH_HEADROOM = 64 << 10;

    private static final byte[] NO_LANGUAGE = new byte[0];

    private final FrameSink sink;
    /** A batch goes out once it takes this many bytes: {@link #BATCH_BYTES}, or less for an in-order search's small pieces. */
    private final int batchBytes;

    private final int contextLines;
    /** Writes a Result per matching line; null when results go by file. */
    private final ResultWriter writer;
    /** Writes a file's matching lines as FileResults; null when each line is a Result. */
    private final FileResultsWriter fileWriter;
    /** Lines of the file whose bounds its matches found, for the context of the next ones. */
    private final KnownLines known = new KnownLines();

    private ByteBuf out;

    // The file whose lines are written:
    private byte[] pkg;
    /** Its branches and commit when its package is a git repository; null otherwise. */
    private GitRefBytes git;

    private byte[] content;
    private int length;
    /** Its path, once it has a matching line; null before. */
    private byte[] path;
    /** A view of its bytes, once it has a matching line. */
    private ByteBuf source;

    ResultEncoder(FrameSink sink, int batchBytes, int contextLines, boolean fileResults) {
        this.sink = sink;
        this.batchBytes = batchBytes;
        this.contextLines = contextLines;
        this.writer = fileResults ? null : new ResultWriter(contextLines);
        this.fileWriter = fileResults ? new FileResultsWriter(contextLines) : null;
    }

    /** Begins a chunk's first batch. */
    void beginChunk() {
        out = sink.allocator().buffer(batchBytes + BATCH_HEADROOM);
    }

    /** The batch being filled, where progress messages go too. */
    ByteBuf batch() {
        return out;
    }

    /** The buffer with the chunk's last results, null if the chunk got none; the caller owns it now. */
    ByteBuf takeOutput() {
        ByteBuf taken = out;
        out = null;
        return taken;
    }

    /** The batch goes to the sink, and a new one is begun. */
    private void writeBatch() {
        ByteBuf full = out;
        out = null; // the sink owns it now, whether or not the next allocation succeeds
        sink.write(full);
        out = sink.allocator().buffer(batchBytes + BATCH_HEADROOM);
    }

    /** Writes a whole file as one result. */
    void fileMatch(byte[] packageName, String docPath, float ranking, long bytes, FileType type, GitRefBytes refs) {
        FileMatch.write(
                out,
                packageName,
                docPath.getBytes(StandardCharsets.UTF_8),
                ranking,
                bytes,
                type == FileType.UNKNOWN ? NO_LANGUAGE : type.displayName().getBytes(StandardCharsets.UTF_8),
                refs);
        if (out.readableBytes() >= batchBytes) {
            writeBatch();
        }
    }

    /** The file whose matching lines come next. */
    void startFile(byte[] packageName, GitRefBytes refs, byte[] bytes, int size) {
        pkg = packageName;
        git = refs;
        content = bytes;
        length = size;
        path = null;
        source = null;
        known.clear();
    }

    /** True once the file's first matching line was written. */
    boolean hasPath() {
        return path != null;
    }

    /** The file has its first matching line, and its path is {@code filePath}. */
    void firstMatch(byte[] filePath) {
        path = filePath;
        source = Unpooled.wrappedBuffer(content, 0, length);
        if (fileWriter != null) {
            fileWriter.file(pkg, path, source, git);
        }
    }

    /**
     * Writes a matching line, as {@code definition}'s when it is not null. Returns false when a
     * batch went out and the sink can take no more: the file pauses after this line.
     */
    boolean line(
            int lineStart,
            int lineEnd,
            int lineNumber,
            float ranking,
            DefinitionLines.Definition definition,
            int[] ranges,
            int rangeCount) {
        if (fileWriter != null) {
            fileWriter.start(lineNumber, ranking);
            if (definition != null) {
                fileWriter.symbol(definition.name(), definition.kind(), definition.scope(), definition.language());
            }
            lines(fileWriter, lineStart, lineEnd, lineNumber, ranges, rangeCount);
            fileWriter.add(out);
            if (!fileWriter.frameDue()) {
                return true;
            }
            fileWriter.writeTo(out);
        } else {
            writer.start(pkg, path, source, lineNumber, ranking, git);
            if (definition != null) {
                writer.symbol(definition.name(), definition.kind(), definition.scope(), definition.language());
            }
            lines(writer, lineStart, lineEnd, lineNumber, ranges, rangeCount);
            writer.writeTo(out);
        }
        if (out.readableBytes() >= batchBytes) {
            writeBatch();
            return sink.isWritable();
        }
        return true;
    }

    /** See {@link LineSink#knownEnd}. */
    int knownEnd(int number) {
        return known.knownEnd(number);
    }

    /** The file's lines are all written: its last frame of results by file goes out, and its bytes are let go. */
    void endFile() {
        if (fileWriter != null && fileWriter.pending() > 0) {
            fileWriter.writeTo(out);
            if (out.readableBytes() >= batchBytes) {
                writeBatch();
            }
        }
        content = null;
    }

    /** Gives {@code w} the matching line, the context lines around it ({@link KnownLines#around}) and its ranges (absolute pairs in {@code ranges}). */
    private void lines(MatchLines w, int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount) {
        known.around(content, length, lineStart, lineEnd, lineNumber, contextLines, w);
        // On a long line only the matches in the shown window are written: stop at the first past it.
        for (int i = 0; i < rangeCount; i++) {
            if (w.range(ranges[2 * i] - lineStart, ranges[2 * i + 1] - lineStart)
                    .pastWindow()) {
                break;
            }
        }
    }
}
