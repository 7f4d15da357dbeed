package io.trigrep.proto;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * Writes framed {@code Response{fileResults}} messages straight into a {@link ByteBuf}, without a
 * MessageBuilder: the backend's hot path when the frontend asks for results by file. A file's
 * matching lines are added one by one, each as {@link ResultWriter} takes one (its context lines,
 * the line, its ranges); the writer keeps each shown line once, so a line that is context to two
 * matches, or one match's line and another's context, is copied once, and writes them as one
 * message on {@link #writeTo}. The frame is valid Cap'n Proto in one segment; FileResultsWriterTest
 * reads it back with the generic bindings.
 *
 * <p>Use: {@link #file}; per matching line {@link #start}, {@link #before} for each context line
 * before it (oldest first), {@link #match}, {@link #after} for each line after, {@link #range} for
 * each match on the line, then {@link #add}. When {@link #frameDue} says so, and at the file's end,
 * {@link #writeTo}. Lines are spans (absolute indices) of the file's buffer; nothing is copied
 * until {@link #writeTo}, so the buffer must stay as it is until then. Long lines are cut as
 * {@link ResultWriter} cuts them. One instance per thread; no allocation per line once its arrays
 * have grown to the largest frame (a sym: query's definitions aside).
 */
public final class FileResultsWriter implements MatchLines {
    /** A frame is due once its shown lines hold this many bytes: a page reads a frame per result it shows. */
    public static final int FRAME_LINE_BYTES = 32 << 10;
    /** Or once it holds this many matches. */
    public static final int FRAME_MATCHES = 1024;

    private static final long ROOT = WordWriter.structPointer(0, 1, 1);
    private static final long FILE_RESULTS = WordWriter.structPointer(0, 0, 8);
    /** Words before the first blob: root pointer, Response data and pointer, FileResults' eight pointers. */
    private static final int FIXED_WORDS = 3 + 8;

    private static final int SYMBOL_POINTERS = 4;
    private static final int MATCH_WORDS = 3;

    private final int maxContext;
    private final int frameLineBytes;
    private final ShownLine matched;
    private final WordWriter words = new WordWriter();

    private byte[] pkg;
    private byte[] path;
    private ByteBuf source;
    private GitRefBytes git;

    // The match being added:
    private int number;
    private float ranking;
    private final int[] beforeOffsets;
    private final int[] beforeLengths;
    private final int[] afterOffsets;
    private final int[] afterLengths;
    private int beforeCount;
    private int afterCount;
    private byte[][] symbol;

    // The frame's lines, in file order: where the shown text is in the source, its length, where it
    // starts in the full line, the full line's length, and its 1-based number.
    private int[] lineSource = new int[64];
    private int[] lineShown = new int[64];
    private int[] lineStart = new int[64];
    private int[] lineFull = new int[64];
    private int[] lineNumber = new int[64];
    private int lines;
    private int runs;
    /** The shown lines' bytes with one '\n' each. */
    private int lineBytes;

    // The frame's matches:
    private int[] matchLine = new int[16];
    private float[] matchRanking = new float[16];
    private int[] matchRanges = new int[16];
    private int[] matchContext = new int[16];
    private byte[][][] matchSymbol = new byte[16][][];
    private int matches;
    private int symbols;
    /** Every match's ranges, pairs of offsets into its shown line. */
    private int[] ranges = new int[32];

    private int rangeCount;

    /** @param maxContext most context lines on each side of a match; lines are cut at {@link ResultWriter#MAX_LINE_BYTES} */
    public FileResultsWriter(int maxContext) {
        this(maxContext, ResultWriter.MAX_LINE_BYTES);
    }

    /**
     * @param maxContext most context lines on each side of a match, at most 255
     * @param maxLineBytes longest line written whole; longer ones are cut to a window of at most this many bytes
     */
    public FileResultsWriter(int maxContext, int maxLineBytes) {
        this(maxContext, maxLineBytes, FRAME_LINE_BYTES);
    }

    /** The same, a frame due at {@code frameLineBytes} of lines: small in tests, to make many frames. */
    FileResultsWriter(int maxContext, int maxLineBytes, int frameLineBytes) {
        this.frameLineBytes = frameLineBytes;
        if (maxContext < 0 || maxContext > 255) {
            throw new IllegalArgumentException("maxContext must be in [0, 255], got " + maxContext);
        }
        this.matched = new ShownLine(maxLineBytes);
        this.maxContext = maxContext;
        beforeOffsets = new int[maxContext];
        beforeLengths = new int[maxContext];
        afterOffsets = new int[maxContext];
        afterLengths = new int[maxContext];
    }

    /**
     * Begins a file: UTF-8 package and path, and its bytes. Matches not yet written are dropped:
     * call {@link #writeTo} first.
     */
    public FileResultsWriter file(byte[] pkg, byte[] path, ByteBuf source) {
        return file(pkg, path, source, null);
    }

    /** As {@link #file(byte[], byte[], ByteBuf)} for a file of a git repository package ({@code git} null for any other). */
    public FileResultsWriter file(byte[] pkg, byte[] path, ByteBuf source, GitRefBytes git) {
        this.git = git;
        this.pkg = pkg;
        this.path = path;
        this.source = source;
        clearFrame();
        return this;
    }

    /** Begins matching line number {@code number} (1-based) with its ranking. */
    public FileResultsWriter start(int number, float ranking) {
        this.number = number;
        this.ranking = ranking;
        beforeCount = 0;
        afterCount = 0;
        symbol = null;
        matched.clear();
        return this;
    }

    /** Marks the match as a sym: query's, naming the definition on its line (UTF-8, kept until written). */
    public FileResultsWriter symbol(byte[] name, byte[] kind, byte[] scope, byte[] language) {
        symbol = new byte[][] {name, kind, scope, language};
        return this;
    }

    @Override
    public FileResultsWriter before(int offset, int length) {
        if (beforeCount == maxContext) {
            throw new IllegalStateException("more than " + maxContext + " lines before the match");
        }
        beforeOffsets[beforeCount] = offset;
        beforeLengths[beforeCount++] = length;
        return this;
    }

    @Override
    public FileResultsWriter match(int offset, int length) {
        matched.start(source, offset, length);
        return this;
    }

    @Override
    public FileResultsWriter after(int offset, int length) {
        if (afterCount == maxContext) {
            throw new IllegalStateException("more than " + maxContext + " lines after the match");
        }
        afterOffsets[afterCount] = offset;
        afterLengths[afterCount++] = length;
        return this;
    }

    /** One match on the line, as byte offsets into the whole line, left to right; see {@link ResultWriter#range}. */
    @Override
    public FileResultsWriter range(int start, int end) {
        matched.range(start, end);
        return this;
    }

    /** True once a range was offered that starts past the cut window: later ones cannot be shown either. */
    @Override
    public boolean pastWindow() {
        return matched.pastWindow();
    }

    /**
     * Adds the match begun by {@link #start} to the frame. A match that does not follow the frame's
     * last one in the file (a line at or before it) cannot share its lines: the frame is written to
     * {@code out} first, and the match begins the next.
     */
    public void add(ByteBuf out) {
        if (!matched.started()) {
            throw new IllegalStateException("match(offset, length) was not called for this match");
        }
        if (matches > 0 && (number <= lineNumber[matchLine[matches - 1]] || !fits())) {
            writeTo(out);
        }
        int first = number - beforeCount;
        for (int i = 0; i < beforeCount; i++) {
            if (first + i > lastNumber()) {
                int shown = matched.prefix(source, beforeOffsets[i], beforeLengths[i]);
                line(first + i, beforeOffsets[i], shown, 0, beforeLengths[i]);
            }
        }
        int windowStart = matched.windowStart();
        int shown = matched.shown();
        int at;
        if (number <= lastNumber()) {
            // Shown already, as the last match's context: now as this match's line, cut around its match.
            at = lines - 1 - (lastNumber() - number);
            lineBytes += shown - lineShown[at];
            lineSource[at] = matched.offset() + windowStart;
            lineShown[at] = shown;
            lineStart[at] = windowStart;
        } else {
            at = lines;
            line(number, matched.offset() + windowStart, shown, windowStart, matched.full());
        }
        for (int i = 0; i < afterCount; i++) {
            if (number + 1 + i > lastNumber()) {
                int full = afterLengths[i];
                line(number + 1 + i, afterOffsets[i], matched.prefix(source, afterOffsets[i], full), 0, full);
            }
        }
        if (matches == matchLine.length) {
            int n = 2 * matches;
            matchLine = Arrays.copyOf(matchLine, n);
            matchRanking = Arrays.copyOf(matchRanking, n);
            matchRanges = Arrays.copyOf(matchRanges, n);
            matchContext = Arrays.copyOf(matchContext, n);
            matchSymbol = Arrays.copyOf(matchSymbol, n);
        }
        int n = matched.rangeCount();
        matchLine[matches] = at;
        matchRanking[matches] = ranking;
        matchRanges[matches] = n;
        matchContext[matches] = beforeCount | afterCount << 8;
        matchSymbol[matches] = symbol;
        symbols += symbol == null ? 0 : 1;
        matches++;
        if (2 * (rangeCount + n) > ranges.length) {
            ranges = Arrays.copyOf(ranges, Math.max(2 * ranges.length, 2 * (rangeCount + n)));
        }
        System.arraycopy(matched.ranges(), 0, ranges, 2 * rangeCount, 2 * n);
        rangeCount += n;
        matched.clear();
    }

    /**
     * Whether the match being added can share the frame's lines: its context lines already in the
     * frame are the frame's last lines, as they are when matches come in file order with the same
     * context on each side.
     */
    private boolean fits() {
        int shared = lastNumber() - (number - beforeCount) + 1;
        return shared <= 0 || (shared <= lines && lineNumber[lines - shared] == number - beforeCount);
    }

    private int lastNumber() {
        return lines == 0 ? Integer.MIN_VALUE : lineNumber[lines - 1];
    }

    private void line(int number, int sourceOffset, int shown, int start, int full) {
        if (lines == lineNumber.length) {
            int n = 2 * lines;
            lineSource = Arrays.copyOf(lineSource, n);
            lineShown = Arrays.copyOf(lineShown, n);
            lineStart = Arrays.copyOf(lineStart, n);
            lineFull = Arrays.copyOf(lineFull, n);
            lineNumber = Arrays.copyOf(lineNumber, n);
        }
        if (lines == 0 || lineNumber[lines - 1] != number - 1) {
            runs++;
        }
        lineSource[lines] = sourceOffset;
        lineShown[lines] = shown;
        lineStart[lines] = start;
        lineFull[lines] = full;
        lineNumber[lines++] = number;
        lineBytes += shown + 1;
    }

    /** Matches added and not yet written. */
    public int pending() {
        return matches;
    }

    /** Whether the frame is big enough to be written now (the file may go on in the next one). */
    public boolean frameDue() {
        return matches >= FRAME_MATCHES || lineBytes >= frameLineBytes;
    }

    /** Frame size in bytes of the matches added so far. */
    public int frameBytes() {
        return 8 + 8 * words(windows(), symbolsWords());
    }

    private int windows() {
        int cut = 0;
        for (int i = 0; i < lines; i++) {
            cut += lineStart[i] > 0 || lineShown[i] < lineFull[i] ? 1 : 0;
        }
        return cut;
    }

    private int words(int windows, int symbolsWords) {
        return FIXED_WORDS
                + WordWriter.textWords(pkg.length)
                + WordWriter.textWords(path.length)
                + WordWriter.dataWords(lineBytes)
                + 1
                + runs
                + 1
                + 2 * windows
                + 1
                + MATCH_WORDS * matches
                + symbolsWords
                + 1
                + rangeCount
                + (git == null ? 0 : git.words());
    }

    /** The Symbol structs of a sym: query's matches, which follow the list of matches. */
    private int symbolsWords() {
        int words = 0;
        for (int i = 0; symbols > 0 && i < matches; i++) {
            if (matchSymbol[i] != null) {
                words += symbolWords(matchSymbol[i]);
            }
        }
        return words;
    }

    private static int symbolWords(byte[][] symbol) {
        int words = SYMBOL_POINTERS;
        for (byte[] text : symbol) {
            words += WordWriter.textWords(text.length);
        }
        return words;
    }

    /** Appends the frame of the matches added so far to {@code out} (nothing when there are none) and starts the next. */
    public void writeTo(ByteBuf out) {
        if (matches == 0) {
            clearFrame();
            return;
        }
        int windows = windows();
        int symbolsWords = symbolsWords();
        int total = words(windows, symbolsWords);
        WordWriter w = words;
        w.begin(total);
        w.putLong(ROOT);
        w.putLong(Response.FILE_RESULTS.unionTag());
        w.putLong(FILE_RESULTS);

        // The eight pointers, each aimed at where its object will land in write order.
        int next = FIXED_WORDS;
        int pointer = 3;
        next = w.pointTo(pointer++, next, WordWriter.textPointer(pkg.length), WordWriter.textWords(pkg.length));
        next = w.pointTo(pointer++, next, WordWriter.textPointer(path.length), WordWriter.textWords(path.length));
        next = w.pointTo(pointer++, next, WordWriter.bytesPointer(lineBytes), WordWriter.dataWords(lineBytes));
        next = w.pointTo(pointer++, next, WordWriter.compositePointer(runs), 1 + runs);
        next = w.pointTo(pointer++, next, WordWriter.compositePointer(2 * windows), 1 + 2 * windows);
        int matchesAt = next;
        next = w.pointTo(
                pointer++, next, WordWriter.compositePointer(MATCH_WORDS * matches), 1 + MATCH_WORDS * matches);
        next += symbolsWords;
        next = w.pointTo(pointer++, next, WordWriter.compositePointer(rangeCount), 1 + rangeCount);
        if (git == null) {
            w.putLong(0);
        } else {
            w.pointTo(pointer, next, WordWriter.structPointer(0, 0, GitRef.POINTERS), git.words());
        }

        w.text(pkg, 0, pkg.length);
        w.text(path, 0, path.length);
        // One method per list, each its own loop. As one method of six loops it was compiled loop
        // by loop on the stack (OSR) and thrown away whenever one loop met a new shape: a Linux
        // backend compiled it 17 times, 10 of them during its first heavy queries after ready.
        writeLineBytes(w);
        writeRuns(w);
        writeWindows(w, windows);
        writeMatches(w, matchesAt);
        w.ranges(ranges, rangeCount);
        if (git != null) {
            git.writeTo(w);
        }
        w.end(total, out);
        clearFrame();
    }

    /** The shown lines' bytes, each with its newline. */
    private void writeLineBytes(WordWriter w) {
        int to = w.dataAt(lineBytes);
        for (int i = 0; i < lines; ) {
            // Lines that follow each other in the source, each shown up to its newline, are one
            // span of it, newlines included: one copy, not one per line.
            int from = lineSource[i];
            int end = from + lineShown[i];
            while (++i < lines && lineSource[i] == end + 1 && source.getByte(end) == '\n') {
                end = lineSource[i] + lineShown[i];
            }
            w.blobBytes(source, from, to, end - from);
            to += end - from;
            w.blobByte(to++, (byte) '\n');
        }
    }

    /** The runs of consecutive line numbers: first number and length. */
    private void writeRuns(WordWriter w) {
        w.putLong(WordWriter.compositeTag(runs, 1, 0));
        for (int i = 0; i < lines; ) {
            int first = i;
            while (++i < lines && lineNumber[i] == lineNumber[i - 1] + 1) {
                // extend the run
            }
            w.putLong(Integer.toUnsignedLong(lineNumber[first]) | (long) (i - first) << 32);
        }
    }

    /** The cut lines' windows: the line, where its shown part starts, its full length. */
    private void writeWindows(WordWriter w, int windows) {
        w.putLong(WordWriter.compositeTag(windows, 2, 0));
        for (int i = 0; i < lines; i++) {
            if (lineStart[i] > 0 || lineShown[i] < lineFull[i]) {
                w.putLong(Integer.toUnsignedLong(i) | (long) lineStart[i] << 32);
                w.putLong(Integer.toUnsignedLong(lineFull[i]));
            }
        }
    }

    /** The matches (the list at word {@code matchesAt}), then a sym: query's Symbol structs, which follow it. */
    private void writeMatches(WordWriter w, int matchesAt) {
        w.putLong(WordWriter.compositeTag(matches, 2, 1));
        int symbolAt = matchesAt + 1 + MATCH_WORDS * matches;
        for (int i = 0; i < matches; i++) {
            w.putLong(Integer.toUnsignedLong(matchLine[i]) | (long) Float.floatToRawIntBits(matchRanking[i]) << 32);
            w.putLong(Integer.toUnsignedLong(matchRanges[i]) | (long) matchContext[i] << 32);
            if (matchSymbol[i] == null) {
                w.putLong(0);
            } else {
                int pointerAt = matchesAt + 1 + MATCH_WORDS * i + 2;
                symbolAt = w.pointTo(
                        pointerAt,
                        symbolAt,
                        WordWriter.structPointer(0, 0, SYMBOL_POINTERS),
                        symbolWords(matchSymbol[i]));
            }
        }
        for (int i = 0; symbols > 0 && i < matches; i++) {
            if (matchSymbol[i] != null) {
                ResultWriter.symbols(w, matchSymbol[i]);
            }
        }
    }

    private void clearFrame() {
        lines = 0;
        runs = 0;
        lineBytes = 0;
        if (symbols > 0) {
            // Only a sym: query's matches hold one: the rest skip a store per match.
            Arrays.fill(matchSymbol, 0, matches, null);
        }
        matches = 0;
        symbols = 0;
        rangeCount = 0;
    }
}
