package io.trigrep.backend.search;

import io.trigrep.indexer.format.CorruptIndexException;
import io.trigrep.indexer.symbols.Symbols;
import io.trigrep.re2j.Pattern;
import java.util.Arrays;

/**
 * Whether a matching line defines a symbol whose name the query's pattern matches: the ranking
 * puts such a line above lines that only use the name (issue 18). A file's definitions are read
 * once, when its first matching line is ranked; a name's verdict is kept in a small direct-mapped
 * cache, so a name defined on many result lines is matched once. One per worker; not thread-safe.
 */
final class Definitions {
    private static final int CACHE = 256;

    private final Symbols symbols;
    private final Pattern pattern;
    private final int[] cachedNames = new int[CACHE];
    private final boolean[] cachedVerdicts = new boolean[CACHE];
    private int doc = -1;
    private int[] lines = new int[16];
    private int[] names = new int[16];
    private int count;

    /** @param pattern the query's pattern; null (a query without lines) boosts nothing */
    Definitions(Symbols symbols, Pattern pattern) {
        this.symbols = symbols;
        this.pattern = pattern;
        Arrays.fill(cachedNames, -1);
    }

    /** Whether line {@code line} (1-based) of {@code doc} defines a symbol the pattern matches by name. */
    boolean defines(int doc, int line) throws CorruptIndexException {
        if (pattern == null || !symbols.present()) {
            return false;
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
