package io.trigrep.backend.search;

import io.trigrep.indexer.bytes.Swar;
import io.trigrep.re2j.CompiledProgram;

/**
 * What the line search can know about a regex before reading any text, read off RE2J's compiled
 * program: bytes every match holds, the bytes a match may hold, the bytes that end a match when
 * every match ends at a line's end, and how many runes a match spans. Each is a superset or a
 * bound, never a guess: the search uses them to skip text, so a wrong fact would lose matches.
 */
final class ProgramFacts {
    /** At most this many ASCII bytes may end a match for {@link #lastBytes} to be used: more would pass most lines. */
    static final int MAX_LAST_BYTES = 8;

    /**
     * An ASCII byte every match holds (the rarest such, by how often it appears in source code),
     * repeated in a word; 0 when none. When the idle states have too many exits to jump, the search
     * jumps instead from line start to the next line holding this byte: no other line can match.
     */
    private final long required;
    /**
     * A second byte every match holds, repeated in a word; 0 when none. A line the jump lands on
     * that lacks it is passed over without the DFA ({@code \w+_\w+\(}: the lines holding an
     * {@code _} but no {@code (}), eight bytes at a time.
     */
    private final long alsoRequired;
    /**
     * When every match ends at a line's end, after one of a few ASCII characters (as in
     * {@code [ \t]+$}): those bytes as a 128-bit mask, and bit 128 when the last character may
     * be non-ASCII; null otherwise. Then only a line whose last byte is one of them can match, and
     * the search looks at line ends first (measured: {@code [ \t]+$} exits its idle states on every
     * blank, so the DFA stepped through most of the text).
     */
    private final long[] lastBytes;

    private final int maxMatchRunes;
    private final int fixedMatchRunes;
    /** The bytes some match may hold, as {@link #lastBytes} holds its bytes. */
    private final long[] matchBytes = new long[3];

    ProgramFacts(CompiledProgram program) {
        int b = requiredByte(program);
        this.required = b < 0 ? 0 : Swar.broadcast(b);
        int b2 = b < 0 ? -1 : requiredByte(program, b);
        this.alsoRequired = b2 < 0 ? 0 : Swar.broadcast(b2);
        this.lastBytes = lastBytesAtLineEnd(program);
        long lengths = matchLengths(program);
        this.maxMatchRunes = (int) (lengths >> 32);
        int shortest = (int) lengths;
        this.fixedMatchRunes = maxMatchRunes > 0 && shortest == maxMatchRunes ? shortest : -1;
        for (int pc = 0; pc < program.size(); pc++) {
            addRuneBytes(program, pc, matchBytes);
        }
    }

    /** The rarest byte every match holds, repeated in a word; 0 when none. */
    long required() {
        return required;
    }

    /** Another byte every match holds, repeated in a word; 0 when none. */
    long alsoRequired() {
        return alsoRequired;
    }

    /** The bytes that end every match, at a line's end, as a 129-bit mask; null when matches can end elsewhere. */
    long[] lastBytes() {
        return lastBytes;
    }

    /**
     * The most runes a match can span, or -1 when unbounded: the longest path of rune-consuming
     * instructions from the start to MATCH, when the program has no loop. A match that ends at
     * byte {@code e} then starts at or after {@code e - 4 * maxMatchRunes()}, which lets RE2J start
     * there instead of at the line's start.
     */
    int maxMatchRunes() {
        return maxMatchRunes;
    }

    /**
     * The runes every match spans when all matches span the same number (at least one), else -1.
     * Then the match that ends first is the one that starts first, the leftmost (RE2J's choice,
     * whatever its priorities, as no other match starts there): each match is the {@code L} runes
     * before an end the DFA finds, and RE2J is not needed for the ranges at all.
     */
    int fixedMatchRunes() {
        return fixedMatchRunes;
    }

    /** Whether some match may hold byte {@code b} (a byte of 0x80 or more: when a match may hold a non-ASCII character). */
    boolean mayBeInMatch(int b) {
        return b < 0 ? matchBytes[2] != 0 : (matchBytes[b >>> 6] >>> b & 1) != 0;
    }

    /**
     * Punctuation from rarest to most common in source code, counted over 150 MB of the benchmark
     * corpus (every fifth file under 1 MB of 31 Debian packages): {@code ?} 61,000 times,
     * {@code (} 1.34 million, {@code _} 2.2 million. Letters, digits and blanks are commoner still.
     * (The order guessed before put {@code _} before {@code (}; {@code \w+_\w+\(} then jumped to
     * the commoner byte.)
     */
    private static final String RARITY = "?`^!~&|@<+$}{>']%[#=;/\\*:()\".,-_";

    /**
     * The rarest ASCII byte that every match must consume, or -1: a byte is required when MATCH
     * cannot be reached from the start once the instructions that consume exactly that byte are
     * removed. (A class that also holds the byte stays passable, so this can miss a required
     * byte but never names one that is not.)
     */
    static int requiredByte(CompiledProgram program) {
        return requiredByte(program, -1);
    }

    /** The rarest ASCII byte every match holds other than {@code except}, or -1. */
    static int requiredByte(CompiledProgram program, int except) {
        int best = -1;
        int bestRank = Integer.MAX_VALUE;
        for (int pc = 0; pc < program.size(); pc++) {
            if (program.op(pc) != CompiledProgram.RUNE1) {
                continue;
            }
            int rune = program.rune1(pc);
            int rank = RARITY.indexOf(rune);
            if (rune >= 128 || rune == '\n' || rune == except || (rank < 0 && bestRank != Integer.MAX_VALUE)) {
                continue;
            }
            int r = rank < 0 ? RARITY.length() : rank;
            if (r < bestRank && !matchReachableWithout(program, rune)) {
                best = rune;
                bestRank = r;
            }
        }
        return best;
    }

    private static boolean matchReachableWithout(CompiledProgram program, int rune) {
        boolean[] seen = new boolean[program.size()];
        int[] stack = new int[2 * program.size() + 2];
        int top = 0;
        stack[top++] = program.start();
        while (top > 0) {
            int pc = stack[--top];
            if (seen[pc]) {
                continue;
            }
            seen[pc] = true;
            switch (program.op(pc)) {
                case CompiledProgram.MATCH -> {
                    return true;
                }
                case CompiledProgram.ALT, CompiledProgram.ALT_MATCH -> {
                    stack[top++] = program.out(pc);
                    stack[top++] = program.arg(pc);
                }
                case CompiledProgram.FAIL -> {}
                case CompiledProgram.RUNE1 -> {
                    if (program.rune1(pc) != rune) {
                        stack[top++] = program.out(pc);
                    }
                }
                default -> stack[top++] = program.out(pc); // NOP, CAPTURE, EMPTY_WIDTH, other runes
            }
        }
        return false;
    }

    /**
     * The bytes that can end a match when every match ends at a line's end (see {@link #lastBytes()}),
     * or null: when a match can end elsewhere, can be empty, or can end after more than
     * {@link #MAX_LAST_BYTES} ASCII characters. Follows the empty transitions after each
     * instruction that consumes a character, noting whether an end-of-line or end-of-text
     * assertion was passed before MATCH.
     */
    static long[] lastBytesAtLineEnd(CompiledProgram program) {
        int n = program.size();
        long[] mask = new long[3];
        if (reachesMatch(program, program.start(), n) != 0) {
            return null; // a match can be empty
        }
        for (int pc = 0; pc < n; pc++) {
            int op = program.op(pc);
            if (op < CompiledProgram.RUNE || op > CompiledProgram.RUNE_ANY_NOT_NL) {
                continue;
            }
            int reach = reachesMatch(program, program.out(pc), n);
            if ((reach & 1) != 0) {
                return null; // a match can end after this character without being at a line's end
            }
            if (reach == 0) {
                continue;
            }
            addRuneBytes(program, pc, mask);
        }
        return Long.bitCount(mask[0]) + Long.bitCount(mask[1]) <= MAX_LAST_BYTES ? mask : null;
    }

    /**
     * Adds the ASCII bytes instruction {@code pc} consumes to the 128-bit mask, and bit 128 when
     * it may consume a non-ASCII character; nothing when it consumes none.
     */
    static void addRuneBytes(CompiledProgram program, int pc, long[] mask) {
        int op = program.op(pc);
        if (op < CompiledProgram.RUNE || op > CompiledProgram.RUNE_ANY_NOT_NL) {
            return;
        }
        for (int b = 0; b < 128; b++) {
            if (program.matchRune(pc, b)) {
                mask[b >>> 6] |= 1L << b;
            }
        }
        if (op != CompiledProgram.RUNE1 || program.rune1(pc) >= 128) {
            mask[2] |= 1;
        }
    }

    /**
     * Whether MATCH is reachable from {@code root} by empty transitions: bit 0 without passing an
     * end-of-line or end-of-text assertion, bit 1 after passing one. (Other assertions are
     * followed as if they held: the answer is a superset, which is what a filter needs.)
     */
    private static int reachesMatch(CompiledProgram program, int root, int n) {
        int endFlags = CompiledProgram.EMPTY_END_LINE | CompiledProgram.EMPTY_END_TEXT;
        boolean[] seen = new boolean[2 * n];
        int[] stack = new int[4 * n + 2];
        int top = 0;
        stack[top++] = root << 1;
        int reach = 0;
        while (top > 0) {
            int item = stack[--top];
            int pc = item >>> 1;
            int passed = item & 1;
            if (seen[item]) {
                continue;
            }
            seen[item] = true;
            switch (program.op(pc)) {
                case CompiledProgram.MATCH -> reach |= 1 << passed;
                case CompiledProgram.ALT, CompiledProgram.ALT_MATCH -> {
                    stack[top++] = program.out(pc) << 1 | passed;
                    stack[top++] = program.arg(pc) << 1 | passed;
                }
                case CompiledProgram.NOP, CompiledProgram.CAPTURE -> stack[top++] = program.out(pc) << 1 | passed;
                case CompiledProgram.EMPTY_WIDTH ->
                    stack[top++] = program.out(pc) << 1 | ((program.arg(pc) & endFlags) != 0 ? 1 : passed);
                default -> {} // a character or FAIL: not an empty transition
            }
        }
        return reach;
    }

    /**
     * The shortest and longest paths of rune-consuming instructions from the start to MATCH, as
     * {@code longest << 32 | shortest}; longest -1 when the program has a loop (matches can be as
     * long as the line). A depth-first walk that finishes each instruction after its successors.
     */
    static long matchLengths(CompiledProgram program) {
        int n = program.size();
        int[] longest = new int[n];
        int[] shortest = new int[n];
        byte[] color = new byte[n]; // 0 new, 1 on the stack, 2 done
        int[] stack = new int[n];
        int[] nextEdge = new int[n];
        int top = 0;
        stack[top++] = program.start();
        color[program.start()] = 1;
        while (top > 0) {
            int pc = stack[top - 1];
            int op = program.op(pc);
            int edges = op == CompiledProgram.ALT || op == CompiledProgram.ALT_MATCH
                    ? 2
                    : op == CompiledProgram.MATCH || op == CompiledProgram.FAIL ? 0 : 1;
            if (nextEdge[pc] < edges) {
                int next = nextEdge[pc]++ == 0 ? program.out(pc) : program.arg(pc);
                if (color[next] == 1) {
                    return -1L << 32; // a loop
                }
                if (color[next] == 0) {
                    color[next] = 1;
                    stack[top++] = next;
                }
                continue;
            }
            int most = op == CompiledProgram.MATCH ? 0 : Integer.MIN_VALUE;
            int least = op == CompiledProgram.MATCH ? 0 : Integer.MAX_VALUE;
            for (int e = 0; e < edges; e++) {
                int next = e == 0 ? program.out(pc) : program.arg(pc);
                most = Math.max(most, longest[next]);
                least = Math.min(least, shortest[next]);
            }
            int self = op >= CompiledProgram.RUNE && op <= CompiledProgram.RUNE_ANY_NOT_NL ? 1 : 0;
            longest[pc] = most == Integer.MIN_VALUE ? most : most + self;
            shortest[pc] = least == Integer.MAX_VALUE ? least : least + self;
            color[pc] = 2;
            top--;
        }
        int start = program.start();
        int most = Math.max(0, longest[start]);
        int least = shortest[start] == Integer.MAX_VALUE ? 0 : shortest[start];
        return (long) most << 32 | least;
    }
}
