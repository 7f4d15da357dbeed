package io.trigrep.backend.search;

import io.trigrep.indexer.bytes.Swar;
import io.trigrep.indexer.format.TrigramIndex;
import io.trigrep.query.plan.Query;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * Short strings of which every matching line contains at least one, read off the trigram plan:
 * the plan holds for each match, and a match lies within its line. Scanning for these with an
 * intrinsic {@code indexOf} and running the regex only on the lines they hit is what makes
 * regex search fast; a plan that is {@code all} gives none, and the regex scans whole files.
 */
final class Needles {
    private static final int MAX_NEEDLES = 8;

    private Needles() {}

    /** The needles, lower-cased when {@code fold}; empty when the plan gives no usable set. */
    static List<String> of(Query plan, TrigramIndex index, boolean fold) throws Exception {
        NavigableSet<String> set = choose(plan, index, fold);
        return set == null ? List.of() : List.copyOf(set);
    }

    private static NavigableSet<String> choose(Query q, TrigramIndex index, boolean fold) throws Exception {
        if (q instanceof Query.Trigram t) {
            TreeSet<String> one = new TreeSet<>();
            String s = new String(
                    new byte[] {(byte) (t.value() >>> 16), (byte) (t.value() >>> 8), (byte) t.value()},
                    StandardCharsets.ISO_8859_1);
            one.add(fold ? lowerAscii(s) : s);
            return one;
        }
        if (q instanceof Query.And and) {
            NavigableSet<String> best = null;
            long bestCost = Long.MAX_VALUE;
            for (Query operand : and.operands()) {
                NavigableSet<String> candidate = choose(operand, index, fold);
                if (candidate == null) {
                    continue;
                }
                long cost = cost(candidate, index) * candidate.size();
                if (best == null
                        || candidate.size() < best.size()
                        || (candidate.size() == best.size() && cost < bestCost)) {
                    best = candidate;
                    bestCost = cost;
                }
            }
            return best;
        }
        if (q instanceof Query.Or or) {
            TreeSet<String> union = new TreeSet<>();
            for (Query operand : or.operands()) {
                NavigableSet<String> part = choose(operand, index, fold);
                if (part == null) {
                    return null;
                }
                union.addAll(part);
                if (union.size() > MAX_NEEDLES) {
                    return null;
                }
            }
            return union;
        }
        return null;
    }

    /** How many files hold the rarest-looking of these: prefers needles that hit fewer lines. */
    private static long cost(NavigableSet<String> needles, TrigramIndex index) throws Exception {
        long total = 0;
        for (String s : needles) {
            int t = (s.charAt(0) & 0xff) << 16 | (s.charAt(1) & 0xff) << 8 | (s.charAt(2) & 0xff);
            int entry = index.find(t);
            total += entry < 0 ? 0 : index.docCountAt(entry);
        }
        return total;
    }

    private static String lowerAscii(String latin1) {
        char[] out = latin1.toCharArray();
        for (int i = 0; i < out.length; i++) {
            if (out[i] >= 'A' && out[i] <= 'Z') {
                out[i] = (char) (out[i] + 32);
            }
        }
        return new String(out);
    }

    /**
     * ASCII lower case of {@code content[0, length)} into {@code into}, eight bytes at a time;
     * returns whether every byte was ASCII.
     */
    static boolean lowerAscii(byte[] content, int length, byte[] into) {
        long high = 0;
        int i = 0;
        for (; i + 8 <= length; i += 8) {
            long v = Swar.word(content, i);
            high |= v;
            Swar.setWord(into, i, Swar.lowerAscii(v));
        }
        for (; i < length; i++) {
            byte b = content[i];
            high |= b;
            into[i] = b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
        }
        return Swar.nonAscii(high) == 0;
    }
}
