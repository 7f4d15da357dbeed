package io.trigrep.proto;

import io.netty.buffer.ByteBuf;

/**
 * Writes framed {@code Response{result}} messages straight into a {@link ByteBuf}, without a
 * MessageBuilder and without allocating: the backend's hot path, once per matching line. The
 * output is the single-segment encoding the reference implementation produces for the same
 * values (ResultWriterTest compares it byte for byte with {@code capnp encode}).
 *
 * <p>Use: {@link #start}, then the lines in order ({@link #before}, {@link #match}, {@link #after}),
 * {@link #range} for each match on the line, in order, then {@link #writeTo}. Lines are spans
 * (absolute indices) of one source buffer, normally the file's contents wrapped once per file; the
 * writer copies them and keeps no reference after {@code writeTo}. One instance per thread.
 *
 * <p>A line longer than {@code maxLineBytes} is cut to a window of at most that many bytes (see
 * package-info, "Long lines"): a context line to its prefix; the matching line to a window that
 * starts {@code maxLineBytes / 4} bytes before the first match, so the match is in sight. Ranges
 * are clipped to the window and shifted into it; those outside are dropped, and {@link #range}
 * says when no later one can fall inside, so a line with a million matches costs a few hundred.
 */
public final class ResultWriter implements MatchLines {
    /** The default window: a few hundred bytes of a line is what a result page can show. */
    public static final int MAX_LINE_BYTES = 400;

    private static final long ROOT = WordWriter.structPointer(0, 1, 1);
    private static final long RESULT = WordWriter.structPointer(0, 2, 10);
    private static final int RESULT_POINTERS = 10;
    private static final int SYMBOL_POINTERS = 4;
    /** Words before the first blob: root pointer, Response data and pointer, Result data (2) and pointers. */
    private static final int FIXED_WORDS = 5 + RESULT_POINTERS;

    private final int maxContext;
    private final int[] beforeOffsets;
    private final int[] beforeLengths;
    private final int[] beforeFull;
    private final int[] afterOffsets;
    private final int[] afterLengths;
    private final int[] afterFull;
    /** The matching line: its window and its ranges. */
    private final ShownLine matched;

    private final WordWriter words = new WordWriter();

    private byte[] pkg;
    private byte[] path;
    private ByteBuf source;
    private int line;
    private float ranking;
    private int beforeCount;
    private int afterCount;
    private boolean beforeCut;
    private boolean afterCut;
    /** A sym: query's result: the definition's name, kind, scope and language (UTF-8), when {@link #hasSymbol}. */
    private final byte[][] symbol = new byte[SYMBOL_POINTERS][];

    private boolean hasSymbol;
    private GitRefBytes git;

    /** @param maxContext most context lines on each side of a match; lines are cut at {@link #MAX_LINE_BYTES} */
    public ResultWriter(int maxContext) {
        this(maxContext, MAX_LINE_BYTES);
    }

    /**
     * @param maxContext most context lines on each side of a match
     * @param maxLineBytes longest line written whole; longer ones are cut to a window of at most this many bytes
     */
    public ResultWriter(int maxContext, int maxLineBytes) {
        if (maxContext < 0) {
            throw new IllegalArgumentException("maxContext must be >= 0, got " + maxContext);
        }
        this.matched = new ShownLine(maxLineBytes);
        this.maxContext = maxContext;
        beforeOffsets = new int[maxContext];
        beforeLengths = new int[maxContext];
        beforeFull = new int[maxContext];
        afterOffsets = new int[maxContext];
        afterLengths = new int[maxContext];
        afterFull = new int[maxContext];
    }

    /** Begins a result. {@code pkg} and {@code path} are UTF-8 and typically encoded once per file. */
    public ResultWriter start(byte[] pkg, byte[] path, ByteBuf source, int line, float ranking) {
        return start(pkg, path, source, line, ranking, null);
    }

    /** As above, for a file of a git repository package ({@code git} null for any other). */
    public ResultWriter start(byte[] pkg, byte[] path, ByteBuf source, int line, float ranking, GitRefBytes git) {
        this.git = git;
        this.pkg = pkg;
        this.path = path;
        this.source = source;
        this.line = line;
        this.ranking = ranking;
        matched.clear();
        beforeCount = 0;
        afterCount = 0;
        beforeCut = false;
        afterCut = false;
        hasSymbol = false;
        return this;
    }

    /** Marks the result as a sym: query's, naming the definition on its line; the arrays are read by {@link #writeTo}. */
    public ResultWriter symbol(byte[] name, byte[] kind, byte[] scope, byte[] language) {
        symbol[0] = name;
        symbol[1] = kind;
        symbol[2] = scope;
        symbol[3] = language;
        hasSymbol = true;
        return this;
    }

    @Override
    public ResultWriter before(int offset, int length) {
        if (beforeCount == maxContext) {
            throw new IllegalStateException("more than " + maxContext + " lines before the match");
        }
        int shown = matched.prefix(source, offset, length);
        beforeCut |= shown < length;
        beforeOffsets[beforeCount] = offset;
        beforeLengths[beforeCount] = shown;
        beforeFull[beforeCount++] = length;
        return this;
    }

    @Override
    public ResultWriter match(int offset, int length) {
        matched.start(source, offset, length);
        return this;
    }

    @Override
    public ResultWriter after(int offset, int length) {
        if (afterCount == maxContext) {
            throw new IllegalStateException("more than " + maxContext + " lines after the match");
        }
        int shown = matched.prefix(source, offset, length);
        afterCut |= shown < length;
        afterOffsets[afterCount] = offset;
        afterLengths[afterCount] = shown;
        afterFull[afterCount++] = length;
        return this;
    }

    /**
     * One match on the line, as byte offsets into the whole matching line, after {@link #match};
     * matches come left to right. On a cut line the range is clipped to the window (dropped when
     * outside it). Once a range starts past the window's end, {@link #pastWindow} says so: no later
     * one can be shown, and the caller may stop.
     */
    @Override
    public ResultWriter range(int start, int end) {
        matched.range(start, end);
        return this;
    }

    /** True once a range was offered that starts past the cut window: later ones cannot be shown either. */
    @Override
    public boolean pastWindow() {
        return matched.pastWindow();
    }

    /** Frame size in bytes of the result as it stands. */
    public int frameBytes() {
        return 8 + 8 * words();
    }

    private int words() {
        int rangeCount = matched.rangeCount();
        int words = FIXED_WORDS
                + WordWriter.textWords(pkg.length)
                + WordWriter.textWords(path.length)
                + WordWriter.textWords(matched.shown())
                + beforeCount
                + afterCount
                + 1
                + rangeCount
                + intsWords(beforeCut, beforeCount)
                + intsWords(afterCut, afterCount);
        for (int i = 0; i < beforeCount; i++) {
            words += WordWriter.textWords(beforeLengths[i]);
        }
        for (int i = 0; i < afterCount; i++) {
            words += WordWriter.textWords(afterLengths[i]);
        }
        return words + symbolWords() + (git == null ? 0 : git.words());
    }

    private int symbolWords() {
        if (!hasSymbol) {
            return 0;
        }
        int words = SYMBOL_POINTERS;
        for (byte[] text : symbol) {
            words += WordWriter.textWords(text.length);
        }
        return words;
    }

    /** Appends the framed message to {@code out}. */
    public void writeTo(ByteBuf out) {
        if (!matched.started()) {
            throw new IllegalStateException("match(offset, length) was not called for this result");
        }
        int total = words();
        WordWriter w = words;
        w.begin(total);
        w.putLong(ROOT);
        w.putLong(0);
        w.putLong(RESULT);
        int windowStart = matched.windowStart();
        int shown = matched.shown();
        w.putLong(Integer.toUnsignedLong(line) | (long) Float.floatToRawIntBits(ranking) << 32);
        w.putLong(Integer.toUnsignedLong(windowStart) | (long) matched.full() << 32);

        // The ten pointers, each aimed at where its object will land in write order.
        int rangeCount = matched.rangeCount();
        int next = FIXED_WORDS;
        int pointer = 5;
        next = w.pointTo(pointer++, next, WordWriter.textPointer(pkg.length), WordWriter.textWords(pkg.length));
        next = w.pointTo(pointer++, next, WordWriter.textPointer(path.length), WordWriter.textWords(path.length));
        next = w.pointTo(
                pointer++,
                next,
                WordWriter.listOfPointers(beforeCount),
                beforeCount + linesWords(beforeLengths, beforeCount));
        next = w.pointTo(pointer++, next, WordWriter.textPointer(shown), WordWriter.textWords(shown));
        next = w.pointTo(
                pointer++,
                next,
                WordWriter.listOfPointers(afterCount),
                afterCount + linesWords(afterLengths, afterCount));
        next = w.pointTo(pointer++, next, WordWriter.compositePointer(rangeCount), 1 + rangeCount);
        next = intsPointer(pointer++, next, beforeCut, beforeCount);
        next = intsPointer(pointer++, next, afterCut, afterCount);
        if (!hasSymbol) {
            w.putLong(0);
            pointer++;
        } else {
            next = w.pointTo(pointer++, next, WordWriter.structPointer(0, 0, SYMBOL_POINTERS), symbolWords());
        }
        if (git == null) {
            w.putLong(0);
        } else {
            w.pointTo(pointer, next, WordWriter.structPointer(0, 0, GitRef.POINTERS), git.words());
        }

        w.text(pkg, 0, pkg.length);
        w.text(path, 0, path.length);
        lines(beforeOffsets, beforeLengths, beforeCount);
        w.text(source, matched.offset() + windowStart, shown);
        lines(afterOffsets, afterLengths, afterCount);
        // Inline-composite list: a tag word (element count, element size), then one word per range.
        w.ranges(matched.ranges(), rangeCount);
        if (beforeCut) {
            w.ints(beforeFull, beforeCount);
        }
        if (afterCut) {
            w.ints(afterFull, afterCount);
        }
        if (hasSymbol) {
            symbols(w, symbol);
        }
        if (git != null) {
            git.writeTo(w);
        }
        source = null;
        matched.clear();
        w.end(total, out);
    }

    /** A Symbol struct's four text pointers, then its texts. */
    static void symbols(WordWriter w, byte[][] symbol) {
        int target = SYMBOL_POINTERS;
        for (int i = 0; i < SYMBOL_POINTERS; i++) {
            w.putLong(WordWriter.textPointer(symbol[i].length) | ((long) (target - (i + 1)) << 2 & 0xffffffffL));
            target += WordWriter.textWords(symbol[i].length);
        }
        for (byte[] text : symbol) {
            w.text(text, 0, text.length);
        }
    }

    /** A List(UInt32) of the full line lengths when some line was cut, else a null pointer (an empty list). */
    private int intsPointer(int pointer, int target, boolean cut, int count) {
        if (!cut) {
            words.putLong(0);
            return target;
        }
        return words.pointTo(pointer, target, WordWriter.intsPointer(count), intsWords(true, count));
    }

    private static int intsWords(boolean cut, int count) {
        return cut ? (count + 1) >>> 1 : 0;
    }

    private void lines(int[] offsets, int[] lengths, int count) {
        // The list's pointers first, then the texts they point at, in order.
        int target = count;
        for (int i = 0; i < count; i++) {
            long offset = target - (i + 1L);
            words.putLong(WordWriter.textPointer(lengths[i]) | (offset << 2 & 0xffffffffL));
            target += WordWriter.textWords(lengths[i]);
        }
        for (int i = 0; i < count; i++) {
            words.text(source, offsets[i], lengths[i]);
        }
    }

    private static int linesWords(int[] lengths, int count) {
        int words = 0;
        for (int i = 0; i < count; i++) {
            words += WordWriter.textWords(lengths[i]);
        }
        return words;
    }
}
