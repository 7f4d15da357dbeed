package io.trigrep.backend.search;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.symbols.Symbols;
import io.trigrep.query.plan.Query;
import io.trigrep.re2j.Pattern;
import java.util.Arrays;

/**
 * Whether a matching line defines a symbol whose name the query's pattern matches: the ranking
 * puts such a line above lines that only use the name.
 *
 * <p>At first a file's definitions are read when its first matching line is ranked, and each
 * name's verdict is kept in a small direct-mapped cache: a selective query ranks a few lines in a
 * few files, and that is all it pays. Once a worker has ranked {@code lookUpAfter} lines, and
 * when the query's plan requires trigrams, the matching names are found once on the shard's name
 * index with where they are defined ({@link SymbolHits#definedLines}), and a line is then one
 * binary search. That matters on queries such as {@code struct} that match in most files: reading
 * every matching file's definitions was a fifth of a backend's time on the Linux tree. Both ways
 * give the same answer. One per worker; not thread-safe.
 */
final class Definitions {
    private static final int CACHE = 256;
    /** At most this many definitions are looked up ahead (8 bytes each); past it, the per-file way. */
    static final int MAX_LOOKED_UP = 1 << 16;
    /** Lines ranked the per-file way before the names are looked up. */
    static final int LOOK_UP_AFTER = 4096;

    private final Symbols symbols;
    private final Pattern pattern;
    private final Query plan;
    private final int lookUpAfter;
    /** The looked-up definitions' keys, or null for the per-file way; valid once {@code lookedUp}. */
    private long[] definedLines;

    private boolean lookedUp;
    private int ranked;
    private final int[] cachedNames = new int[CACHE];
    private final boolean[] cachedVerdicts = new boolean[CACHE];
    /** The looked-up way's cursor: the doc and line last asked, and that doc's keys from {@code keysAt} to {@code keysEnd}. */
    private int keysDoc = -1;

    private int keysLine;
    private int keysAt;
    private int keysEnd;

    private int doc = -1;
    private int[] lines = new int[16];
    private int[] names = new int[16];
    private int count;

    /**
     * @param pattern the query's pattern; null (a query without lines) boosts nothing
     * @param plan the trigram plan every match of {@code pattern} satisfies, or null when there is
     *     none (a boolean query's shown lines match operands the plan does not require)
     * @param lookUpAfter lines ranked the per-file way before the names are looked up ({@link
     *     #LOOK_UP_AFTER}; tests pass 0 and {@code Integer.MAX_VALUE} to take one way only)
     */
    Definitions(Symbols symbols, Pattern pattern, Query plan, int lookUpAfter) {
        this.symbols = symbols;
        this.pattern = pattern;
        this.plan = plan;
        this.lookUpAfter = lookUpAfter;
        Arrays.fill(cachedNames, -1);
    }

    /** Whether line {@code line} (1-based) of {@code doc} defines a symbol the pattern matches by name. */
    boolean defines(int doc, int line) throws CorruptIndexException {
        if (pattern == null || !symbols.present()) {
            return false;
        }
        if (!lookedUp && ranked++ >= lookUpAfter) {
            definedLines = plan == null ? null : SymbolHits.definedLines(symbols, plan, pattern, MAX_LOOKED_UP);
            lookedUp = true;
        }
        if (definedLines != null) {
            return definedOnLookedUp(doc, line);
        }
        if (doc != this.doc) {
            load(doc);
        }
        int at = Arrays.binarySearch(lines, 0, count, line);
        if (at < 0) {
            return false;
        }
        while (at > 0 && lines[at - 1] == line) {
            at--;
        }
        for (; at < count && lines[at] == line; at++) {
            if (matches(names[at])) {
                return true;
            }
        }
        return false;
    }

    /**
     * The looked-up way: the doc's keys are found once, then its lines, which come in order, by a
     * cursor that only moves forward, never a binary search per line.
     */
    private boolean definedOnLookedUp(int doc, int line) {
        if (doc != keysDoc || line < keysLine) {
            keysDoc = doc;
            keysAt = firstKeyAtLeast((long) doc << 32);
            keysEnd = firstKeyAtLeast(((long) doc + 1) << 32);
        }
        keysLine = line;
        while (keysAt < keysEnd && (int) definedLines[keysAt] < line) {
            keysAt++;
        }
        return keysAt < keysEnd && (int) definedLines[keysAt] == line;
    }

    /** The index of the first looked-up key at or above {@code key}. */
    private int firstKeyAtLeast(long key) {
        int at = Arrays.binarySearch(definedLines, key);
        if (at < 0) {
            return -at - 1;
        }
        while (at > 0 && definedLines[at - 1] == key) {
            at--;
        }
        return at;
    }

    private void load(int doc) throws CorruptIndexException {
        int from = symbols.firstOfDoc(doc);
        int to = symbols.endOfDoc(doc);
        count = to - from;
        if (count > lines.length) {
            lines = new int[Integer.highestOneBit(count) << 1];
            names = new int[lines.length];
        }
        // Symbols of a doc come in line order (FORMAT.md), which the binary search relies on.
        for (int i = 0; i < count; i++) {
            lines[i] = symbols.line(from + i);
            names[i] = symbols.nameId(from + i);
        }
        this.doc = doc;
    }

    private boolean matches(int name) throws CorruptIndexException {
        int slot = name & (CACHE - 1);
        if (cachedNames[slot] != name) {
            cachedVerdicts[slot] = pattern.matcher(symbols.name(name)).find();
            cachedNames[slot] = name;
        }
        return cachedVerdicts[slot];
    }
}
