package io.trigrep.frontend.http;

import io.trigrep.frontend.query.StoredResult;
import io.trigrep.proto.FileResultsIndex;
import io.trigrep.proto.LineMatch;
import io.trigrep.proto.Range;
import io.trigrep.proto.Result;
import io.trigrep.proto.Symbol;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import org.capnproto.PrimitiveList;
import org.capnproto.StructList;
import org.capnproto.Text;
import org.capnproto.TextList;

/**
 * One result as the API and the pages show it, read once from its message: texts decoded as
 * {@link ShownText} does, ranges checked against the line they mark (a range past the end is
 * clipped, a reversed one dropped), and the lines the backend cut, with where. Cut claims that
 * contradict the text (a window past the line's end, a length list of the wrong size) are clamped
 * or ignored: a hostile backend cannot make a page throw or lie about what it shows.
 */
final class ResultView {
    /** One cut line: {@code [start, end)} of its {@code bytes} bytes is shown. */
    record Cut(long line, long start, long end, long bytes) {}

    final String pkg;
    final String path;
    final long line;
    final float ranking;
    final byte[] context;
    final String[] before;
    final String[] after;
    /** Ranges as byte offsets into {@link #context}, pairs, each with {@code start <= end <= length}. */
    final int[] ranges;
    /** The cut of each line before and after (null when whole), and of the matching line. */
    final Cut[] beforeCuts;

    final Cut[] afterCuts;
    final Cut contextCut;
    /** A definition line's result (a sym: query's, or a boolean query's sym: operand's): the definition on the line (name, kind, scope, language); null otherwise. */
    final String[] symbol;
    /** The file's branches, commit and code host link template when its package is a git repository; null otherwise. */
    final GitView git;

    /** The line result {@code r}: a result of its own, or one match of a fileResults. */
    static ResultView of(StoredResult r) {
        return r.file() != null
                ? new ResultView(r.file(), r.match())
                : new ResultView(r.response().getResult());
    }

    /**
     * Match {@code m} of a fileResults message: its line and context from the message's lines.
     * Indexes the message claims past its lines read as empty lines (see {@link FileResultsIndex}),
     * and context counts past the message's first or last line stop there. A match the message
     * does not hold (the ingest's peek of a hostile frame counted more) is such a line too.
     */
    ResultView(FileResultsIndex file, int m) {
        pkg = file.pkg();
        path = file.path();
        LineMatch.Reader match = m >= 0 && m < file.matches() ? file.match(m) : null;
        int lines = file.lines();
        long claimed = match == null ? -1 : Integer.toUnsignedLong(match.getLine());
        int at = claimed >= 0 && claimed < lines ? (int) claimed : -1; // -1: shown empty, without context
        line = file.number(at);
        ranking = match == null ? 0f : match.getRanking();
        context = file.text(at);
        ranges = match == null
                ? new int[0]
                : clipped(file::range, file.firstRange(m), file.firstRange(m + 1), context.length);
        int before = at < 0 ? 0 : Math.min(match.getBefore(), at);
        int after = at < 0 ? 0 : Math.min(match.getAfter(), lines - 1 - at);
        this.before = new String[before];
        this.after = new String[after];
        beforeCuts = new Cut[before];
        afterCuts = new Cut[after];
        for (int i = 0; i < before; i++) {
            int k = at - before + i;
            this.before[i] = ShownText.decode(file.text(k));
            beforeCuts[i] = cut(file, k, line - before + i);
        }
        for (int i = 0; i < after; i++) {
            int k = at + 1 + i;
            this.after[i] = ShownText.decode(file.text(k));
            afterCuts[i] = cut(file, k, line + 1 + i);
        }
        contextCut = cut(file, at, line);
        symbol = match != null && match.hasSymbol() ? symbol(match.getSymbol()) : null;
        git = file.file().hasGit() ? GitView.of(file.file().getGit()) : null;
    }

    /** Line {@code k} of the message, numbered {@code number} as shown: its cut, or null when shown whole. */
    private static Cut cut(FileResultsIndex file, int k, long number) {
        long start = file.start(k);
        long end = start + file.shownBytes(k);
        long full = file.full(k);
        return start > 0 || end < full ? new Cut(number, start, end, full) : null;
    }

    /**
     * Ranges {@code from} to {@code to - 1} as pairs of offsets into a line of {@code length} bytes:
     * a range past the end clipped to it, a reversed one dropped.
     */
    private static int[] clipped(IntFunction<Range.Reader> range, int from, int to, int length) {
        int[] kept = new int[2 * (to - from)];
        int n = 0;
        for (int i = from; i < to; i++) {
            Range.Reader r = range.apply(i);
            long start = Integer.toUnsignedLong(r.getStart());
            long end = Math.min(Integer.toUnsignedLong(r.getEnd()), length);
            if (start <= end) {
                kept[n++] = (int) start;
                kept[n++] = (int) end;
            }
        }
        return Arrays.copyOf(kept, n);
    }

    ResultView(Result.Reader r) {
        pkg = r.getPackage().toString();
        path = r.getPath().toString();
        line = Integer.toUnsignedLong(r.getLine());
        ranking = r.getRanking();
        context = bytes(r.getContext());
        StructList.Reader<Range.Reader> list = r.getRanges();
        ranges = clipped(list::get, 0, list.size(), context.length);
        TextList.Reader b = r.getBefore();
        TextList.Reader a = r.getAfter();
        before = new String[b.size()];
        after = new String[a.size()];
        beforeCuts = new Cut[b.size()];
        afterCuts = new Cut[a.size()];
        lines(b, r.getBeforeBytes(), line - b.size(), before, beforeCuts);
        lines(a, r.getAfterBytes(), line + 1, after, afterCuts);
        long start = Integer.toUnsignedLong(r.getContextStart());
        long full = Integer.toUnsignedLong(r.getLineBytes());
        long end = start + context.length;
        // 0 from writers that do not cut; a claim shorter than what was sent is clamped to it.
        full = full == 0 && start == 0 ? end : Math.max(full, end);
        contextCut = start > 0 || end < full ? new Cut(line, start, end, full) : null;
        symbol = r.hasSymbol() ? symbol(r.getSymbol()) : null;
        git = r.hasGit() ? GitView.of(r.getGit()) : null;
    }

    private static void lines(
            TextList.Reader texts, PrimitiveList.Int.Reader fullBytes, long first, String[] out, Cut[] cuts) {
        boolean lengths = fullBytes.size() == texts.size();
        for (int i = 0; i < texts.size(); i++) {
            byte[] shown = bytes(texts.get(i));
            out[i] = ShownText.decode(shown);
            long full = lengths ? Integer.toUnsignedLong(fullBytes.get(i)) : 0;
            if (full > shown.length) {
                cuts[i] = new Cut(first + i, 0, shown.length, full);
            }
        }
    }

    /** A definition's name, kind, scope and language, decoded for showing. */
    private static String[] symbol(Symbol.Reader d) {
        return new String[] {
            ShownText.decode(bytes(d.getName())),
            ShownText.decode(bytes(d.getKind())),
            ShownText.decode(bytes(d.getScope())),
            ShownText.decode(bytes(d.getLanguage()))
        };
    }

    /** Every cut line, in line order. */
    List<Cut> cuts() {
        List<Cut> all = new ArrayList<>();
        for (Cut c : beforeCuts) {
            if (c != null) {
                all.add(c);
            }
        }
        if (contextCut != null) {
            all.add(contextCut);
        }
        for (Cut c : afterCuts) {
            if (c != null) {
                all.add(c);
            }
        }
        return all;
    }

    static byte[] bytes(Text.Reader text) {
        byte[] out = new byte[text.size()];
        text.asByteBuffer().get(out);
        return out;
    }
}
