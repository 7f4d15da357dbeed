package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.trigrep.indexer.filetype.FileType;
import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.segments.Segment;
import io.trigrep.indexer.symbols.Symbols;
import io.trigrep.proto.FileMatch;
import io.trigrep.proto.FileResultsWriter;
import io.trigrep.proto.GitRefBytes;
import io.trigrep.proto.MatchLines;
import io.trigrep.proto.ResultWriter;
import io.trigrep.query.CompiledQuery;
import io.trigrep.re2j.Pattern;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Searches the chunks of one search, one at a time, on whichever pool thread runs it: its line
 * matcher, result writer and buffers are made once and reused for every chunk it takes. A chunk's
 * docs may come from several segments of the shard: the worker binds to each doc's segment (its
 * files, symbols and definitions) as it comes to it. It sees its search only through
 * {@link Coordinator}.
 */
final class ChunkWorker implements ShownDefinitions.Sink {
    static final int CHUNK_DOCS = 64;
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

    /** What a worker asks of the search it works for; every method may be called from any pool thread. */
    interface Coordinator {
        /**
         * Fills up to {@code docs.length} next pieces of work: a segment (its index among the
         * shard's live segments), a doc of it, the byte it starts at and that byte's line number (0
         * and 1 unless a paused chunk handed the rest of a doc back). Returns how many; 0 when
         * there is nothing left or the search must stop.
         */
        int nextChunk(int[] segments, int[] docs, int[] froms, int[] lines) throws Exception;

        /** Work a chunk did not do because the sink was full: handed out first when the search resumes. */
        void handBack(int segment, int doc, int from, int line);

        /** The peer went away: nothing more is worth searching. */
        boolean cancelled();

        /** True once the deadline has passed, which truncates the search. */
        boolean pastDeadline();

        /** Counts one more result and returns the count so far, this one included. */
        long countResult();

        /** The result cap was reached: no more work is handed out. */
        void stopForMaxResults();

        /** Counts a file as searched and appends a progress message to {@code out} when one is due. */
        void fileSearched(ByteBuf out);

        /** The name, in UTF-8, of package {@code packageId} of segment {@code segment}. */
        byte[] packageName(int segment, int packageId) throws Exception;
    }

    private final SearchSpec spec;
    private final CompiledQuery compiled;
    /** Results go out once they take this many bytes: {@link #BATCH_BYTES}, or less for an in-order search's small pieces. */
    private final int batchBytes;

    private final List<Segment> segments;
    /** A sym: query's definitions per segment; null for other queries. */
    private final SymbolHits[] segmentHits;
    /** A boolean query's sym: operands' definitions per segment, then operand; null without such operands. */
    private final SymbolHits[][] segmentDefined;
    /** Per segment, made when the worker first meets one of its docs. */
    private final Definitions[] segmentDefinitions;

    // The segment of the doc being searched (see bind):
    private int bound = -1;
    private Shard shard;
    private DocTable docs;
    private Symbols symbols;
    private Definitions definitions;
    /** A sym: query's definitions in the bound segment; null for other queries. */
    private SymbolHits hits;
    /** A boolean query's sym: operands' definitions in the bound segment, per operand; null without such operands. */
    private SymbolHits[] defined;

    private final FrameSink sink;
    private final Coordinator coordinator;
    private final Scratch scratch;
    /** Finds the lines shown; null when a query's results are whole files. */
    private final LineMatcher matcher;
    /** A boolean query's condition, which a file meets before its lines are searched; null otherwise. */
    private final FileCondition condition;
    /** A boolean query's shown sym: operands' lines, merged with the matcher's; null when it shows none. */
    private final ShownDefinitions shownDefinitions;

    private final int[] nameRanges = new int[64];
    /** A definition line's name occurrences and regex matches together. */
    private final JoinedRanges joinedRanges = new JoinedRanges();
    /** While a sym: query's line is written: its definition; null otherwise. */
    private Definition pending;

    /** Writes a Result per matching line; null when results go by file. */
    private final ResultWriter writer;
    /** Writes a file's matching lines as FileResults; null when each line is a Result. */
    private final FileResultsWriter fileWriter;

    private final int[] chunkSegments = new int[CHUNK_DOCS];
    private final int[] chunk = new int[CHUNK_DOCS];
    private final int[] froms = new int[CHUNK_DOCS];
    private final int[] lines = new int[CHUNK_DOCS];
    /** Lines of the file being searched whose bounds its matches found, for the context of the next ones. */
    private final KnownLines known = new KnownLines();

    private int pauseAt = -1;
    private int pauseLine;
    private boolean full;
    private ByteBuf out;

    // The file being searched, while its matching lines are reported:
    private int doc;
    private byte[] content;
    private int length;
    private byte[] pkg;
    /** The doc's branches and commit when its package is a git repository; null otherwise. */
    private GitRefBytes git;

    private final GitRefCache gitRefs = new GitRefCache();
    private String pathString;
    private byte[] path;
    private ByteBuf source;
    private float staticRank;
    private int pathMatches;
    /** Matching lines the matcher reported in the file, shown or not. */
    private int linesFound;

    ChunkWorker(
            SearchSpec spec,
            SearchInputs inputs,
            List<Segment> segments,
            FrameSink sink,
            Coordinator coordinator,
            Scratch scratch,
            int batchBytes) {
        this.batchBytes = batchBytes;
        this.segments = segments;
        this.segmentHits = inputs.hits();
        this.segmentDefined = inputs.defined();
        this.segmentDefinitions = new Definitions[segments.size()];
        this.spec = spec;
        this.compiled = spec.compiled();
        this.sink = sink;
        this.coordinator = coordinator;
        this.scratch = scratch;
        this.matcher = compiled.literal() != null
                ? LineMatcher.literal(compiled.literal())
                : compiled.foldedLiteral() != null
                        ? LineMatcher.foldedLiteral(compiled.pattern(), compiled.foldedLiteral())
                        : compiled.pattern() != null
                                ? LineMatcher.regex(
                                        compiled.pattern(),
                                        inputs.needles(),
                                        compiled.query().caseInsensitive())
                                : null;
        this.condition = compiled.operands() == null
                ? null
                : new FileCondition(
                        compiled.operands(), inputs.operandNeedles(), compiled.query().caseInsensitive());
        this.shownDefinitions =
                compiled.operands() != null && compiled.operands().showsDefinitions()
                        ? new ShownDefinitions(this, compiled.operands())
                        : null;
        this.writer = spec.fileResults() ? null : new ResultWriter(spec.contextLines());
        this.fileWriter = spec.fileResults() ? new FileResultsWriter(spec.contextLines()) : null;
    }

    /** Searches one chunk; returns whether more chunks may follow. What is left to write is in {@link #takeOutput}. */
    boolean search() throws Exception {
        out = sink.allocator().buffer(batchBytes + BATCH_HEADROOM);
        int n = coordinator.nextChunk(chunkSegments, chunk, froms, lines);
        for (int i = 0; i < n; i++) {
            if (coordinator.cancelled() || full || coordinator.pastDeadline()) {
                break;
            }
            if (!sink.isWritable()) {
                // The peer is behind: give the rest of the chunk back and pause.
                for (int k = i; k < n; k++) {
                    coordinator.handBack(chunkSegments[k], chunk[k], froms[k], lines[k]);
                }
                break;
            }
            pauseAt = -1;
            bind(chunkSegments[i]);
            searchDoc(chunk[i], froms[i], lines[i]);
            if (pauseAt >= 0) {
                coordinator.handBack(chunkSegments[i], chunk[i], pauseAt, pauseLine);
                for (int k = i + 1; k < n; k++) {
                    coordinator.handBack(chunkSegments[k], chunk[k], froms[k], lines[k]);
                }
                break;
            }
            coordinator.fileSearched(out);
        }
        if (full) {
            full = false;
            coordinator.stopForMaxResults();
            return false;
        }
        return n > 0;
    }

    /** Makes segment {@code segment} the one whose docs are searched next. */
    private void bind(int segment) {
        if (segment == bound) {
            return;
        }
        Segment s = segments.get(segment);
        bound = segment;
        shard = s.shard();
        docs = shard.docs();
        symbols = s.symbols();
        hits = segmentHits == null ? null : segmentHits[segment];
        defined = segmentDefined == null ? null : segmentDefined[segment];
        if (segmentDefinitions[segment] == null) {
            segmentDefinitions[segment] = new Definitions(
                    symbols,
                    compiled.pattern(),
                    compiled.operands() == null ? compiled.plan() : null,
                    Definitions.LOOK_UP_AFTER);
        }
        definitions = segmentDefinitions[segment];
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

    private void searchDoc(int doc, int from, int line) throws Exception {
        int packageId = docs.packageId(doc);
        byte[] packageName = coordinator.packageName(bound, packageId);
        GitRefs refs = docs.refs(packageId);
        long branches = refs.isRepository() ? docs.branches(doc) : 0;
        String docPath = null;
        if (compiled.hasFilters()) {
            docPath = docs.path(doc);
            if (!compiled.accepts(
                            new String(packageName, StandardCharsets.UTF_8), docPath, FileType.ofId(docs.fileType(doc)))
                    || (compiled.filtersBranches()
                            && !compiled.acceptsBranches(refs.isRepository() ? refs.names(branches) : List.of()))) {
                return;
            }
        }
        git = refs.isRepository() ? gitRefs.of(bound, packageId, refs, branches) : null;
        if (compiled.query().filesOnly()) {
            // A file-name query: the path is the match; the content is not read.
            fileMatch(doc, packageName, docPath, docs.rank(doc) * (0.5f + 0.5f * (nameMatches(docPath) ? 1f : 0f)));
            return;
        }
        ByteBuffer bytes = shard.content(doc);
        length = bytes.remaining();
        content = scratch.atLeast(length);
        bytes.get(0, content, 0, length);
        this.doc = doc;
        pkg = packageName;
        pathString = docPath;
        path = null;
        source = null;
        pathMatches = -1;
        staticRank = docs.rank(doc);
        linesFound = 0;
        known.clear();
        if (hits != null) {
            definitions(doc, from, line);
            endFile();
            return;
        }
        // A doc handed back mid-file (from > 0) paused after a shown line: its condition held.
        if (condition == null || from > 0 || condition.holds(doc, content, length, defined)) {
            if (shownDefinitions != null) {
                shownDefinitions.start(doc, defined, symbols, content, length, from, line);
                if (matcher != null) {
                    matcher.search(content, length, from, line, shownDefinitions);
                }
                shownDefinitions.finish();
            } else if (matcher != null) {
                matcher.search(content, length, from, line, this);
            }
            if (condition != null && from == 0 && linesFound == 0) {
                // It meets the condition with no line to show (only NOT operands, or an OR whose
                // shown side is absent): the file itself is the result.
                fileMatch(doc, packageName, pathString != null ? pathString : docs.path(doc), 0.5f * staticRank);
            }
        }
        endFile();
    }

    /** The file's lines are all reported: its last frame of results by file goes out, and its bytes are let go. */
    private void endFile() throws Exception {
        if (fileWriter != null && fileWriter.pending() > 0) {
            fileWriter.writeTo(out);
            if (out.readableBytes() >= batchBytes) {
                writeBatch();
            }
        }
        content = null;
    }

    /**
     * A sym: query's results in this file: each line ctags found a matching definition on, from
     * line {@code fromLine} (which starts at byte {@code from}) on, with the name's occurrences
     * marked. Several definitions on one line make one result, the first one's.
     */
    private void definitions(int doc, int from, int fromLine) throws CorruptIndexException {
        int pos = from;
        int lineNumber = fromLine;
        int lastLine = -1;
        for (int hit = hits.firstOf(doc); hit >= 0 && hit < hits.size() && hits.doc(hit) == doc; hit++) {
            int symbol = hits.symbol(hit);
            int target = symbols.line(symbol);
            if (target < fromLine || target == lastLine) {
                continue;
            }
            while (lineNumber < target && pos < length) {
                pos = LineMatcher.lineEnd(content, length, pos) + 1;
                lineNumber++;
            }
            if (lineNumber != target || pos > length) {
                return; // past the file's end: ctags read a line this content does not have
            }
            int end = LineMatcher.lineEnd(content, length, pos);
            boolean more = definition(symbol, pos, end, target, nameRanges, 0);
            if (!more) {
                return;
            }
            lastLine = target;
        }
    }

    /**
     * Writes a definition's line. Among a boolean query's lines it has the boost a regex line
     * defining a matching name has ({@link Ranking#DEFINITION_BOOST}), so the definition asked for
     * by name is not outranked by the lines of the regex operands; a sym: query's lines are all
     * definitions, ranked by kind alone, as they always were.
     */
    @Override
    public boolean definition(int symbol, int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount) {
        int count;
        try {
            byte[] name = utf8(symbols.nameBytes(symbols.nameId(symbol)));
            count = occurrences(name, lineStart, lineEnd);
            String kind = symbols.kind(symbol);
            pending = new Definition(
                    name,
                    kind.getBytes(StandardCharsets.UTF_8),
                    symbols.scope(symbol).getBytes(StandardCharsets.UTF_8),
                    symbols.language(symbol).getBytes(StandardCharsets.UTF_8),
                    staticRank * SymbolKinds.weight(kind) * (condition == null ? 1f : Ranking.DEFINITION_BOOST));
        } catch (CorruptIndexException e) {
            throw new IllegalStateException("cannot read the definitions of doc " + doc + ": " + e.getMessage(), e);
        }
        boolean more;
        if (rangeCount == 0) {
            more = line(lineStart, lineEnd, lineNumber, nameRanges, count);
        } else {
            int n = joinedRanges.join(nameRanges, count, ranges, rangeCount);
            more = line(lineStart, lineEnd, lineNumber, joinedRanges.ranges(), n);
        }
        pending = null;
        return more;
    }

    /** The name's occurrences in {@code content[start, end)}, as absolute pairs in {@link #nameRanges}; how many. */
    private int occurrences(byte[] name, int start, int end) {
        int n = name.length;
        int count = 0;
        for (int at = start; n > 0 && at + n <= end && count < nameRanges.length / 2; at++) {
            int k = 0;
            while (k < n && content[at + k] == name[k]) {
                k++;
            }
            if (k == n) {
                nameRanges[2 * count] = at;
                nameRanges[2 * count + 1] = at + n;
                count++;
                at += n - 1;
            }
        }
        return count;
    }

    /** Whether a positive path filter matches the file's name (the part after the last /), not only a folder's. */
    private boolean nameMatches(String docPath) {
        String name = docPath.substring(docPath.lastIndexOf('/') + 1);
        for (Pattern p : compiled.paths()) {
            if (p.matcher(name).find()) {
                return true;
            }
        }
        return false;
    }

    private static byte[] utf8(ByteBuffer bytes) {
        byte[] out = new byte[bytes.remaining()];
        bytes.duplicate().get(out);
        return out;
    }

    private static final byte[] NO_LANGUAGE = new byte[0];

    /** A sym: query's definition on the line being written, read once from the symbols file. */
    @SuppressWarnings("ArrayRecordComponent") // UTF-8 carried to the writer, never compared
    private record Definition(byte[] name, byte[] kind, byte[] scope, byte[] language, float ranking) {}

    /** Writes a whole file as one result, counted as a line result is. */
    private void fileMatch(int doc, byte[] packageName, String docPath, float ranking) throws Exception {
        long count = coordinator.countResult();
        if (count > spec.maxResults()) {
            full = true;
            return;
        }
        FileType type = FileType.ofId(docs.fileType(doc));
        FileMatch.write(
                out,
                packageName,
                docPath.getBytes(StandardCharsets.UTF_8),
                ranking,
                docs.contentLength(doc),
                type == FileType.UNKNOWN ? NO_LANGUAGE : type.displayName().getBytes(StandardCharsets.UTF_8),
                git);
        if (out.readableBytes() >= batchBytes) {
            writeBatch();
        }
    }

    @Override
    public boolean line(int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount) {
        // The deadline is checked before the line is counted: a line counted is a line sent.
        if ((++linesFound & 255) == 0 && coordinator.pastDeadline()) {
            return false;
        }
        long count = coordinator.countResult();
        if (count > spec.maxResults()) {
            full = true;
            return false;
        }
        if (path == null) {
            // Per file, once it has a match: its path, whether the pattern matches it, and a view of its bytes.
            if (pathString == null) {
                try {
                    pathString = docs.path(doc);
                } catch (Exception e) {
                    throw new IllegalStateException("cannot read the path of doc " + doc + ": " + e.getMessage(), e);
                }
            }
            path = pathString.getBytes(StandardCharsets.UTF_8);
            pathMatches = compiled.pattern() != null
                            && compiled.pattern().matcher(pathString).find()
                    ? 1
                    : 0;
            source = Unpooled.wrappedBuffer(content, 0, length);
            if (fileWriter != null) {
                fileWriter.file(pkg, path, source, git);
            }
        }
        float ranking;
        if (pending != null) {
            ranking = pending.ranking();
        } else {
            boolean defines;
            try {
                defines = definitions.defines(doc, lineNumber);
            } catch (CorruptIndexException e) {
                throw new IllegalStateException("cannot read the definitions of doc " + doc + ": " + e.getMessage(), e);
            }
            ranking = Ranking.of(
                    staticRank, content, lineStart, lineEnd, ranges[0], ranges[1], pathMatches == 1, defines);
        }
        if (fileWriter != null) {
            fileWriter.start(lineNumber, ranking);
            if (pending != null) {
                fileWriter.symbol(pending.name(), pending.kind(), pending.scope(), pending.language());
            }
            lines(fileWriter, lineStart, lineEnd, lineNumber, ranges, rangeCount);
            fileWriter.add(out);
            if (!fileWriter.frameDue()) {
                return true;
            }
            fileWriter.writeTo(out);
        } else {
            writer.start(pkg, path, source, lineNumber, ranking, git);
            if (pending != null) {
                writer.symbol(pending.name(), pending.kind(), pending.scope(), pending.language());
            }
            lines(writer, lineStart, lineEnd, lineNumber, ranges, rangeCount);
            writer.writeTo(out);
        }
        if (out.readableBytes() >= batchBytes) {
            writeBatch();
            if (!sink.isWritable()) {
                // Pause inside the file: it is handed back and resumes at the next line.
                pauseAt = lineEnd + 1;
                pauseLine = lineNumber + 1;
                return false;
            }
        }
        return true;
    }

    @Override
    public int knownEnd(int number) {
        return known.knownEnd(number);
    }

    /** Gives {@code w} the matching line, the context lines around it ({@link KnownLines#around}) and its ranges (absolute pairs in {@code ranges}). */
    private void lines(MatchLines w, int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount) {
        known.around(content, length, lineStart, lineEnd, lineNumber, spec.contextLines(), w);
        // On a long line only the matches in the shown window are written: stop at the first past it.
        for (int i = 0; i < rangeCount; i++) {
            if (w.range(ranges[2 * i] - lineStart, ranges[2 * i + 1] - lineStart)
                    .pastWindow()) {
                break;
            }
        }
    }
}
