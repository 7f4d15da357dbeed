package io.trigrep.backend.search;

import io.netty.buffer.ByteBuf;
import io.trigrep.indexer.filetype.FileType;
import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.format.DocTable;
import io.trigrep.indexer.format.GitRefs;
import io.trigrep.indexer.format.Shard;
import io.trigrep.indexer.segments.Segment;
import io.trigrep.indexer.symbols.Symbols;
import io.trigrep.proto.GitRefBytes;
import io.trigrep.query.CompiledQuery;
import io.trigrep.re2j.Pattern;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Searches the chunks of one search, one at a time, on whichever pool thread runs it: its line
 * matcher, result encoder and buffers are made once and reused for every chunk it takes. A chunk's
 * docs may come from several segments of the shard: the worker binds to each doc's segment (its
 * files, symbols and definitions) as it comes to it. It decides which files and lines match and
 * how they rank; {@link ResultEncoder} writes them, and {@link DefinitionLines} makes definition
 * lines. It sees its search only through {@link Coordinator}.
 */
final class ChunkWorker implements ShownDefinitions.Sink {
    static final int CHUNK_DOCS = 64;

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

    private final DefinitionLines definitionLines = new DefinitionLines();
    private final ResultEncoder encoder;

    private final int[] chunkSegments = new int[CHUNK_DOCS];
    private final int[] chunk = new int[CHUNK_DOCS];
    private final int[] froms = new int[CHUNK_DOCS];
    private final int[] lines = new int[CHUNK_DOCS];

    private int pauseAt = -1;
    private int pauseLine;
    private boolean full;

    // The file being searched, while its matching lines are reported:
    private int doc;
    private byte[] content;
    private int length;

    private final GitRefCache gitRefs = new GitRefCache();
    private String pathString;
    private float staticRank;
    private int pathMatches;
    /** Matching lines the matcher reported in the file, shown or not. */
    private int linesFound;

    /** @param batchBytes results go out once they take this many bytes ({@link ResultEncoder#BATCH_BYTES} or less) */
    ChunkWorker(
            SearchSpec spec,
            SearchInputs inputs,
            List<Segment> segments,
            FrameSink sink,
            Coordinator coordinator,
            Scratch scratch,
            int batchBytes) {
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
                        compiled.operands(),
                        inputs.operandNeedles(),
                        compiled.query().caseInsensitive());
        this.shownDefinitions =
                compiled.operands() != null && compiled.operands().showsDefinitions()
                        ? new ShownDefinitions(this, compiled.operands())
                        : null;
        this.encoder = new ResultEncoder(sink, batchBytes, spec.contextLines(), spec.fileResults());
    }

    /** Searches one chunk; returns whether more chunks may follow. What is left to write is in {@link #takeOutput}. */
    boolean search() throws Exception {
        encoder.beginChunk();
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
            coordinator.fileSearched(encoder.batch());
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
        return encoder.takeOutput();
    }

    private void searchDoc(int doc, int from, int line) throws Exception {
        int packageId = docs.packageId(doc);
        byte[] packageName = coordinator.packageName(bound, packageId);
        GitRefs refs = segments.get(bound).refs(packageId);
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
        GitRefBytes git = refs.isRepository() ? gitRefs.of(bound, packageId, refs, branches) : null;
        if (compiled.query().filesOnly()) {
            // A file-name query: the path is the match; the content is not read.
            fileMatch(
                    doc, packageName, docPath, docs.rank(doc) * (0.5f + 0.5f * (nameMatches(docPath) ? 1f : 0f)), git);
            return;
        }
        ByteBuffer bytes = shard.content(doc);
        length = bytes.remaining();
        content = scratch.atLeast(length);
        bytes.get(0, content, 0, length);
        this.doc = doc;
        encoder.startFile(packageName, git, content, length);
        pathString = docPath;
        pathMatches = -1;
        staticRank = docs.rank(doc);
        linesFound = 0;
        if (hits != null) {
            DefinitionLines.walk(hits, symbols, doc, content, length, from, line, this);
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
                fileMatch(doc, packageName, pathString != null ? pathString : docs.path(doc), 0.5f * staticRank, git);
            }
        }
        endFile();
    }

    /** The file's lines are all reported: its last frame of results by file goes out, and its bytes are let go. */
    private void endFile() {
        encoder.endFile();
        content = null;
    }

    /**
     * Writes a definition's line. Among a boolean query's lines it has the boost a regex line
     * defining a matching name has ({@link Ranking#DEFINITION_BOOST}), so the definition asked for
     * by name is not outranked by the lines of the regex operands; a sym: query's lines are all
     * definitions, ranked by kind alone, as they always were.
     */
    @Override
    public boolean definition(int symbol, int lineStart, int lineEnd, int lineNumber, int[] ranges, int rangeCount) {
        try {
            return definitionLines.write(
                    symbols,
                    symbol,
                    staticRank,
                    condition == null ? 1f : Ranking.DEFINITION_BOOST,
                    content,
                    lineStart,
                    lineEnd,
                    lineNumber,
                    ranges,
                    rangeCount,
                    this);
        } catch (CorruptIndexException e) {
            throw new IllegalStateException("cannot read the definitions of doc " + doc + ": " + e.getMessage(), e);
        }
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

    /** Writes a whole file as one result, counted as a line result is. */
    private void fileMatch(int doc, byte[] packageName, String docPath, float ranking, GitRefBytes git)
            throws Exception {
        long count = coordinator.countResult();
        if (count > spec.maxResults()) {
            full = true;
            return;
        }
        encoder.fileMatch(
                packageName, docPath, ranking, docs.contentLength(doc), FileType.ofId(docs.fileType(doc)), git);
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
        if (!encoder.hasPath()) {
            // Per file, once it has a match: its path, and whether the pattern matches it.
            if (pathString == null) {
                try {
                    pathString = docs.path(doc);
                } catch (Exception e) {
                    throw new IllegalStateException("cannot read the path of doc " + doc + ": " + e.getMessage(), e);
                }
            }
            pathMatches = compiled.pattern() != null
                            && compiled.pattern().matcher(pathString).find()
                    ? 1
                    : 0;
            encoder.firstMatch(pathString.getBytes(StandardCharsets.UTF_8));
        }
        DefinitionLines.Definition pending = definitionLines.pending();
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
        if (!encoder.line(lineStart, lineEnd, lineNumber, ranking, pending, ranges, rangeCount)) {
            // Pause inside the file: it is handed back and resumes at the next line.
            pauseAt = lineEnd + 1;
            pauseLine = lineNumber + 1;
            return false;
        }
        return true;
    }

    @Override
    public int knownEnd(int number) {
        return encoder.knownEnd(number);
    }
}
