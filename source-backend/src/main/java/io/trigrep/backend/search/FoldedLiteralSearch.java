package io.trigrep.backend.search;

import io.trigrep.re2j.Pattern;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A case-insensitive ASCII literal: on an all-ASCII file, the occurrences of the lower-case
 * literal in the lower-cased file are exactly the regex's matches; a file with other bytes
 * (where RE2 also folds, say, U+212A KELVIN SIGN to k) goes through the regex.
 */
final class FoldedLiteralSearch implements LineMatcher {
    private final byte[] literal;
    /**
     * The longest piece of the literal without k or s (see {@link #foldSafeCore}): null when the
     * literal has neither letter, empty when no piece is left.
     */
    private final String core;

    private final byte[][] coreNeedle;
    private final int[][] corePair;
    /**
     * The offsets of the literal's two rarest bytes: compared case-blind when the scan folds as it
     * compares. Null for a literal no line holds ({@link LiteralScan#fitsOnALine}), which finds nothing.
     */
    private final int[] pair;

    private final LiteralScan scan = new LiteralScan();
    private final RegexRanges regex;
    private byte[] lowered = new byte[0];

    FoldedLiteralSearch(Pattern pattern, byte[] lowerCase) {
        this.literal = lowerCase;
        this.core = foldSafeCore(new String(lowerCase, StandardCharsets.ISO_8859_1));
        boolean hasCore = core != null && !core.isEmpty();
        this.coreNeedle = hasCore ? LiteralScan.latin1(List.of(core)) : null;
        this.corePair = hasCore ? LiteralScan.rarePairs(coreNeedle) : null;
        // Without k or s the scan folds as it compares; with them it reads the lowered copy.
        this.pair = lowerCase.length == 0 || !LiteralScan.fitsOnALine(lowerCase)
                ? null
                : ByteRarity.rarestPair(lowerCase, core == null);
        this.regex = new RegexRanges(pattern);
    }

    @Override
    public void search(byte[] content, int length, int start, int startLine, LineSink sink) {
        if (pair == null) {
            return;
        }
        if (core == null) {
            // No k or s: folding ASCII is exact, and the scan folds as it compares.
            scan.scan(content, literal, pair, content, length, start, startLine, sink, true);
            return;
        }
        if (lowered.length < length) {
            lowered = new byte[Math.max(length, 2 * lowered.length)];
        }
        if (Needles.lowerAscii(content, length, lowered)) {
            scan.scan(lowered, literal, pair, content, length, start, startLine, sink, false);
        } else if (core.isEmpty()) {
            regex.searchFile(content, length, start, startLine, sink);
        } else {
            regex.searchCandidates(lowered, coreNeedle, corePair, content, length, start, startLine, sink);
        }
    }

    /**
     * RE2 folds k with U+212A KELVIN SIGN and s with U+017F LONG S; no other character folds to an
     * ASCII letter. So lower-casing ASCII finds every match of a literal without k or s; with them,
     * in a file that is not all ASCII, the longest piece without k or s finds the candidate lines
     * and the regex decides. Null when the literal has neither letter; empty when no piece is left.
     */
    private static String foldSafeCore(String folded) {
        if (folded.indexOf('k') < 0 && folded.indexOf('s') < 0) {
            return null;
        }
        String best = "";
        for (String piece : folded.split("[ks]", -1)) {
            if (piece.length() > best.length()) {
                best = piece;
            }
        }
        return best;
    }
}
